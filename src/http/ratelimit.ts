/**
 * One request per window per client per route. The limiter remembers when each client's window
 * opened; it holds at most `maxKeys` keys and forgets expired ones and, when full, the least
 * recently admitted first, so memory stays bounded whatever the number of clients.
 */
import type { Config } from "../config";
import { clientAddress, clientKey, forwardedAddress, ipv4Number } from "./client-address";
import { errorBody } from "./errors";
import { secured } from "./headers";
import { NumberTable } from "./numbertable";
import type { RequestNote } from "./requestlog";

export interface Verdict {
  allowed: boolean;
  /** Milliseconds until the key may send again (the whole window when allowed). */
  resetMs: number;
}

export const DEFAULT_MAX_KEYS = 100_000;

/**
 * A key as a 52-bit hash: a number, so the keys a busy window holds are no objects for the
 * collector. Two keys share a window only if their hashes collide: about once in 10^11 admissions
 * at 100,000 held keys. IPv4 keys lie above 2^52 (`ipv4Key`), so the two kinds never meet.
 */
function keyHash(key: string): number {
  return Number(BigInt.asUintN(52, Bun.hash(key) as bigint));
}

const IPV4_KEYS = 2 ** 52;

/** An IPv4 client's key on the route numbered `route`: exact, no hashing. */
function ipv4Key(route: number, address: number): number {
  return IPV4_KEYS + route * 2 ** 32 + address;
}

/**
 * When each held key's window opened, in a table of numbers and a ring of admissions, both typed
 * arrays allocated once: it holds at most `maxKeys` keys, forgets expired ones and, when full, the
 * least recently admitted first. A flood of new clients deletes and sets a key per request, which
 * leaves a Map's dropped tables for the collector; these arrays are never replaced.
 */
export class RateLimiter {
  private readonly opened: NumberTable;
  // Admissions in order: evicting the oldest never searches the table.
  private readonly ringKeys: Float64Array;
  private readonly ringTimes: Float64Array;
  private head = 0;
  private count = 0;
  private readonly admitted: Verdict;

  constructor(
    readonly windowMs: number,
    readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    }
    this.opened = new NumberTable(maxKeys);
    this.ringKeys = new Float64Array(maxKeys);
    this.ringTimes = new Float64Array(maxKeys);
    this.admitted = Object.freeze({ allowed: true, resetMs: windowMs });
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
    while (this.count > 0 && now - this.ringTimes[this.head]! >= this.windowMs) this.dropOldest();
    if (this.count === this.maxKeys) this.dropOldest();
    this.opened.set(key, now);
    const slot = (this.head + this.count) % this.maxKeys;
    this.ringKeys[slot] = key;
    this.ringTimes[slot] = now;
    this.count++;
    return this.admitted;
  }

  /** Forgets the oldest admission; its key goes too unless it was admitted again since. */
  private dropOldest(): void {
    this.opened.deleteIf(this.ringKeys[this.head]!, this.ringTimes[this.head]!);
    this.head = (this.head + 1) % this.maxKeys;
    this.count--;
  }
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

/** The limit shared by every instance (REDIS_URL); the in-process table answers while it cannot. */
export interface SharedLimits {
  /** The verdict for `key` across every instance, or null when the shared table is unreachable. */
  hit(key: string, windowMs: number): Promise<Verdict | null>;
}

/**
 * The refusal, rendered once per route and seconds to wait, body and Headers ready as a cached
 * page's are: a 429 must cost no more than the page it refuses, or a flood is cheaper to answer with data.
 */
function refusals(windowMs: number) {
  const made = new Map<string, { body: Blob; headers: Headers }>();
  return (route: string, resetSeconds: number): Response | null => {
    const key = `${resetSeconds} ${route}`;
    let refusal = made.get(key);
    if (refusal === undefined) {
      const message = tooManyRequests(windowMs, resetSeconds);
      const headers = new Headers(
        secured({
          "Content-Type": "application/json; charset=utf-8",
          "Cache-Control": "no-store",
          ...limitHeaders(resetSeconds),
          "Retry-After": String(resetSeconds),
        }),
      );
      // The route pattern starts as its paths do, which is all the error shape depends on.
      refusal = { body: new Blob([errorBody(route, 429, message)]), headers };
      made.set(key, refusal);
    }
    return new Response(refusal.body, { status: 429, headers: refusal.headers });
  };
}

/**
 * The limiter as a beforeHandle hook for the routes of the limited group, keyed by route pattern
 * and client (client-address.ts). `server` is asked for the socket address only when no trusted
 * proxy names the client.
 */
export function rateLimit(
  config: Pick<Config, "rateLimitWindowMs" | "trustProxy">,
  server: () => { requestIP(request: Request): { address: string } | null } | null | undefined,
  maxKeys?: number,
  shared?: SharedLimits,
): ((context: LimitContext) => Response | undefined | Promise<Response | undefined>) | undefined {
  if (config.rateLimitWindowMs === 0) return undefined;
  const limiter = new RateLimiter(config.rateLimitWindowMs, maxKeys);
  // An admitted request resets after the whole window.
  const admitted = limitHeaders(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
  const refuse = refusals(config.rateLimitWindowMs);
  const socketOf = (request: Request) => server()?.requestIP(request)?.address ?? null;
  const addressOf = (request: Request): string =>
    forwardedAddress(request.headers.get("x-forwarded-for"), config.trustProxy) ??
    clientAddress(null, socketOf(request), 0);
  const keyOf = (route: string, request: Request): string => `${route} ${clientKey(addressOf(request))}`;
  // In process an IPv4 client's key is its route's number and its address; any other is hashed.
  const routeNumbers = new Map<string, number>();
  const localKeyOf = (route: string, request: Request): number => {
    const address = addressOf(request);
    const v4 = ipv4Number(address);
    if (v4 === null) return keyHash(`${route} ${clientKey(address)}`);
    let number = routeNumbers.get(route);
    if (number === undefined) {
      number = routeNumbers.size;
      routeNumbers.set(route, number);
    }
    return ipv4Key(number, v4);
  };
  const settle = (verdict: Verdict, route: string, note: RequestNote): Response | undefined => {
    if (verdict.allowed) {
      // Not in `set.headers`: Elysia would then copy every Response and its headers to add them.
      note.limit = admitted;
      return undefined;
    }
    // Returned apart from the call, like the handlers' answers (routes/answer.ts).
    const refusal = refuse(route, Math.max(1, Math.ceil(verdict.resetMs / 1000)));
    if (refusal === null) return undefined;
    return refusal;
  };
  if (shared) {
    return async ({ route, request, note }) => {
      const key = keyOf(route, request);
      const verdict = await shared.hit(key, config.rateLimitWindowMs);
      return settle(verdict ?? limiter.hit(key, note.arrivedAt), route, note);
    };
  }
  // The hook's source holds no `=> f(`: Elysia would compile the limited routes as asynchronous.
  return ({ route, request, note }) => {
    const refusal = settle(limiter.hit(localKeyOf(route, request), note.arrivedAt), route, note);
    if (refusal === undefined) return undefined;
    return refusal;
  };
}
