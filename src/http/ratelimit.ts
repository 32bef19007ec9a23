/**
 * One request per window per client per route. The limiter remembers when each client's window
 * opened; it holds at most `maxKeys` keys and forgets expired ones and, when full, the least
 * recently admitted first, so memory stays bounded whatever the number of clients.
 */
import { isIP } from "node:net";
import type { Config } from "../config";
import { HttpError } from "./errors";
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

/** The left-most X-Forwarded-For entry when it is a valid address (the client, as the proxy saw it). */
export function forwardedClient(forwardedFor: string | null): string | null {
  if (!forwardedFor) return null;
  const first = forwardedFor.split(",", 1)[0]!.trim();
  // A bare address, as the proxy should have written it: no port, brackets or zone.
  return isIP(first) !== 0 && !first.includes("%") ? first : null;
}

/**
 * The client address: the socket's, or with a trusted proxy the left-most valid X-Forwarded-For
 * entry. The socket address may be a function, asked only when it is the answer (Bun builds it per call).
 */
export function clientIp(
  forwardedFor: string | null,
  socketIp: string | null | (() => string | null),
  trustProxy: boolean,
): string {
  const forwarded = trustProxy ? forwardedClient(forwardedFor) : null;
  return forwarded ?? (typeof socketIp === "function" ? socketIp() : socketIp) ?? "unknown";
}

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
  return `Too many requests: one request per ${windowMs / 1000} s is allowed on this endpoint; retry after ${resetSeconds} s.`;
}

/**
 * The limiter as a beforeHandle hook for the routes of the limited group, keyed by client and
 * route pattern. `server` is asked for the socket address only when no trusted proxy names the client.
 */
export function rateLimit(
  config: Pick<Config, "rateLimitWindowMs" | "trustProxy">,
  server: () => { requestIP(request: Request): { address: string } | null } | null | undefined,
  maxKeys?: number,
): ((context: LimitContext) => void) | undefined {
  if (config.rateLimitWindowMs === 0) return undefined;
  const limiter = new RateLimiter(config.rateLimitWindowMs, maxKeys);
  // An admitted request resets after the whole window.
  const admitted = limitHeaders(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
  // The hook's source holds no `=> f(`: Elysia would compile the limited routes as asynchronous.
  return ({ route, request, note }) => {
    const forwarded = config.trustProxy ? forwardedClient(request.headers.get("x-forwarded-for")) : null;
    const ip = forwarded ?? server()?.requestIP(request)?.address ?? "unknown";
    const verdict = limiter.hit(`${route} ${ip}`, note.arrivedAt);
    if (verdict.allowed) {
      // Not in `set.headers`: Elysia would then copy every Response and its headers to add them.
      note.limit = admitted;
      return;
    }
    const resetSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    throw new HttpError(429, tooManyRequests(config.rateLimitWindowMs, resetSeconds), {
      ...limitHeaders(resetSeconds),
      "Retry-After": String(resetSeconds),
    });
  };
}
