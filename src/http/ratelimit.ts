/**
 * One request per window per client per route. The limiter remembers when each client's window
 * opened; it holds at most `maxKeys` keys and forgets expired ones and, when full, the least
 * recently admitted first, so memory stays bounded whatever the number of clients.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { errorBody } from "./errors";
import { secured } from "./headers";
import type { RequestNote } from "./requestlog";

export interface Verdict {
  allowed: boolean;
  /** Milliseconds until the key may send again (the whole window when allowed). */
  resetMs: number;
}

export const DEFAULT_MAX_KEYS = 100_000;

/**
 * A key as a 53-bit hash: a Map of 100,000 numbers is cheap for the collector, one of 100,000
 * strings is traced on every collection. Two keys share a window only if their hashes collide:
 * about once in 10^11 admissions at 100,000 held keys.
 */
function keyHash(key: string): number {
  return Number(BigInt.asUintN(53, Bun.hash(key) as bigint));
}

export class RateLimiter {
  private readonly opened = new Map<number, number>();
  // One iterator over the admissions, oldest first: a Map iterator skips deleted entries and
  // reaches re-inserted ones at their new place, so it never walks the map from the start again.
  private order = this.opened.keys();
  private oldest: IteratorResult<number> | null = null;

  constructor(
    readonly windowMs: number,
    readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    }
  }

  get size(): number {
    return this.opened.size;
  }

  /** Counts one request of `key` (a string, or a number used as it is) at `now` (ms). */
  hit(client: string | number, now: number): Verdict {
    const key = typeof client === "number" ? client : keyHash(client);
    const since = this.opened.get(key);
    if (since !== undefined && now - since < this.windowMs) {
      return { allowed: false, resetMs: since + this.windowMs - now };
    }
    if (since !== undefined) this.forget(key);
    for (let first = this.first(); first !== undefined; first = this.first()) {
      if (this.opened.size < this.maxKeys && now - this.opened.get(first)! < this.windowMs) break;
      this.forget(first);
    }
    this.opened.set(key, now);
    return { allowed: true, resetMs: this.windowMs };
  }

  /** The least recently admitted key held, or undefined when none is. */
  private first(): number | undefined {
    if (this.opened.size === 0) return undefined;
    this.oldest ??= this.order.next();
    if (this.oldest.done) {
      // An iterator that once ran out stays done: a new one starts at the oldest entry.
      this.order = this.opened.keys();
      this.oldest = this.order.next();
    }
    return this.oldest.value;
  }

  private forget(key: number): void {
    if (this.oldest !== null && !this.oldest.done && this.oldest.value === key) this.oldest = null;
    this.opened.delete(key);
  }
}

/**
 * An address as the limiter keys it: IPv4 dotted, IPv4-mapped IPv6 as IPv4, other IPv6 as its /64
 * compressed; null when it is no address.
 */
export function canonicalClient(address: string): string | null {
  // The common case, a plain dotted IPv4 address, without parsing; the lenient parser below would
  // also read `1.2.3` or `0x7f.1` as addresses.
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return null;
  }
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  // One IPv6 subscriber usually holds a whole /64: every address in it is one client.
  const prefix = new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]);
  return `${prefix.toRFC5952String()}/64`;
}

/**
 * The X-Forwarded-For entry `hops` from the right: the address the outermost of `hops` trusted
 * proxies appended (each appends its peer's). Entries left of it were written by the client and are
 * never read. With fewer entries than hops, the left-most; null when the header is missing.
 */
export function forwardedClient(forwardedFor: string | null, hops: number): string | null {
  if (!forwardedFor || hops < 1) return null;
  const entries = forwardedFor.split(",");
  return entries[Math.max(0, entries.length - hops)]!.trim();
}

/**
 * The client as the limiter keys it (a pure function, for any limiter): with `hops` trusted
 * proxies the address the outermost of them appended, else the socket's, made canonical. A proxy
 * entry that is no address keys by the socket (the proxy) rather than by a string a client chose.
 * The socket address may be a function, asked only when it is the answer (Bun builds it per call).
 */
export function clientKey(
  forwardedFor: string | null,
  socketIp: string | null | (() => string | null),
  hops: number,
): string {
  const forwarded = hops > 0 ? forwardedClient(forwardedFor, hops) : null;
  const key = forwarded === null ? null : canonicalClient(forwarded);
  if (key !== null) return key;
  const socket = typeof socketIp === "function" ? socketIp() : socketIp;
  return (socket === null ? null : canonicalClient(socket)) ?? "unknown";
}

/** The client address for the request log: as the limiter sees it. */
export const clientIp = clientKey;

function limitHeaders(resetSeconds: number): Readonly<Record<string, string>> {
  return Object.freeze({ "RateLimit-Limit": "1", "RateLimit-Remaining": "0", "RateLimit-Reset": String(resetSeconds) });
}

interface LimitContext {
  route: string;
  request: Request;
  note: RequestNote;
}

/** The message of a 429. */
export function tooManyRequests(windowMs: number, resetSeconds: number): string {
  return (
    `Too many requests: one request per ${windowMs / 1000} s is allowed on this endpoint; ` +
    `retry after ${resetSeconds} s.`
  );
}

interface Refusal {
  body: Blob;
  init: ResponseInit;
}

/**
 * The 429s of one limiter, rendered once per route and retry delay: a refusal must cost no more than
 * the cached page it refuses, or a flood is cheaper to answer with data.
 */
function refusals(windowMs: number): (route: string, resetSeconds: number) => Refusal {
  const made = new Map<string, Refusal>();
  return (route, resetSeconds) => {
    const key = `${resetSeconds} ${route}`;
    let refusal = made.get(key);
    if (refusal === undefined) {
      const message = tooManyRequests(windowMs, resetSeconds);
      const headers = secured({
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        ...limitHeaders(resetSeconds),
        "Retry-After": String(resetSeconds),
      });
      const init = { status: 429, headers: new Headers(headers) };
      refusal = { body: new Blob([errorBody(route, 429, message)]), init };
      made.set(key, refusal);
    }
    return refusal;
  };
}

/**
 * The limiter as a beforeHandle hook for the routes of the limited group, keyed by client and
 * route pattern; a refused request is answered by the hook. `server` is asked for the socket
 * address only when no trusted proxy names the client.
 */
export function rateLimit(
  config: { rateLimitWindowMs: number; trustProxy: number | boolean },
  server: () => { requestIP(request: Request): { address: string } | null } | null | undefined,
  maxKeys?: number,
): ((context: LimitContext) => Response | undefined) | undefined {
  if (config.rateLimitWindowMs === 0) return undefined;
  const limiter = new RateLimiter(config.rateLimitWindowMs, maxKeys);
  const hops = Number(config.trustProxy);
  const refusal = refusals(config.rateLimitWindowMs);
  // An admitted request resets after the whole window.
  const admitted = limitHeaders(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
  function socketAddress(this: Request): string | null {
    return server()?.requestIP(this)?.address ?? null;
  }
  // The hook's source holds no `=> f(`: Elysia would compile the limited routes as asynchronous.
  return ({ route, request, note }) => {
    const client = clientKey(request.headers.get("x-forwarded-for"), socketAddress.bind(request), hops);
    const verdict = limiter.hit(`${route} ${client}`, note.arrivedAt);
    if (verdict.allowed) {
      // Not in `set.headers`: Elysia would then copy every Response and its headers to add them.
      note.limit = admitted;
      return undefined;
    }
    const { body, init } = refusal(route, Math.max(1, Math.ceil(verdict.resetMs / 1000)));
    const response = new Response(body, init);
    return response;
  };
}
