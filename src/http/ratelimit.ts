/**
 * One request per window per client per route (or a burst group's rate). Each client's key is held
 * until its window closes; at most `maxKeys` keys are held, the expired forgotten and, when full,
 * the least recently admitted first, so memory stays bounded whatever the number of clients.
 */
import { type Config, DEFAULT_MAX_KEYS } from "../config";
import { JSON_TYPE } from "./cache";
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
 * Keys held until a moment each, in a table of numbers and a ring of admissions, both typed arrays
 * allocated once: at most `maxKeys` keys, the expired forgotten and, when full, the least recently
 * admitted first. A flood of new clients deletes and sets a key per request, which leaves a Map's
 * dropped tables for the collector; these arrays are never replaced.
 */
class HeldKeys {
  private readonly until: NumberTable;
  // Admissions in order: evicting the oldest never searches the table.
  private readonly ringKeys: Float64Array;
  private readonly ringUntil: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly maxKeys: number) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    }
    this.until = new NumberTable(maxKeys);
    this.ringKeys = new Float64Array(maxKeys);
    this.ringUntil = new Float64Array(maxKeys);
  }

  get size(): number {
    return this.until.size;
  }

  /** The moment `key` is held until, or undefined when it holds nothing at `now`. */
  heldUntil(key: number, now: number): number | undefined {
    const until = this.until.get(key);
    return until !== undefined && until > now ? until : undefined;
  }

  /** Holds `key` until `until`, forgetting first the oldest admissions that have expired at `now`. */
  hold(key: number, until: number, now: number): void {
    while (this.count > 0 && this.ringUntil[this.head]! <= now) this.dropOldest();
    if (this.count === this.maxKeys) this.dropOldest();
    this.until.set(key, until);
    const slot = (this.head + this.count) % this.maxKeys;
    this.ringKeys[slot] = key;
    this.ringUntil[slot] = until;
    this.count++;
  }

  /** Forgets the oldest admission; its key goes too unless it was admitted again since. */
  private dropOldest(): void {
    this.until.deleteIf(this.ringKeys[this.head]!, this.ringUntil[this.head]!);
    this.head = (this.head + 1) % this.maxKeys;
    this.count--;
  }
}

/** One request per window per key: a key is held until its window closes. */
export class RateLimiter {
  private readonly held: HeldKeys;
  private readonly admitted: Verdict;

  constructor(
    readonly windowMs: number,
    maxKeys = DEFAULT_MAX_KEYS,
  ) {
    this.held = new HeldKeys(maxKeys);
    this.admitted = Object.freeze({ allowed: true, resetMs: windowMs });
  }

  get size(): number {
    return this.held.size;
  }

  /** Counts one request of `key` (a string, or a number used as it is) at `now` (ms). */
  hit(client: string | number, now: number): Verdict {
    const key = typeof client === "number" ? client : keyHash(client);
    const closes = this.held.heldUntil(key, now);
    if (closes !== undefined) return { allowed: false, resetMs: closes - now };
    this.held.hold(key, now + this.windowMs, now);
    return this.admitted;
  }
}

/** A rate-limit group that admits a burst: `burst` requests at once, one more every `intervalMs`. */
export interface BurstRule {
  burst: number;
  intervalMs: number;
}

/**
 * The limiter of a burst group (GCRA): each key is held until its theoretical arrival time, the
 * moment its whole burst is available again; a request is admitted while that lies at most
 * `burst - 1` intervals ahead.
 */
export class BurstLimiter {
  private readonly held: HeldKeys;
  private readonly tolerance: number;

  constructor(
    readonly rule: BurstRule,
    maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isSafeInteger(rule.burst) || rule.burst < 1 || !(rule.intervalMs > 0)) {
      throw new RangeError(`a burst rule needs burst >= 1 and intervalMs > 0, got ${JSON.stringify(rule)}`);
    }
    this.held = new HeldKeys(maxKeys);
    this.tolerance = (rule.burst - 1) * rule.intervalMs;
  }

  get size(): number {
    return this.held.size;
  }

  /** Counts one request of `client` at `now` (ms); `remaining` is what the burst still allows at once. */
  hit(client: string | number, now: number): Verdict & { remaining: number } {
    const key = typeof client === "number" ? client : keyHash(client);
    const from = this.held.heldUntil(key, now) ?? now;
    const { intervalMs } = this.rule;
    if (from - now > this.tolerance) {
      return { allowed: false, resetMs: from - this.tolerance - now, remaining: 0 };
    }
    const next = from + intervalMs;
    this.held.hold(key, next, now);
    const remaining = Math.floor((this.tolerance - (next - now)) / intervalMs) + 1;
    return { allowed: true, resetMs: next - now, remaining };
  }
}

function limitHeaders(resetSeconds: number, limit = 1, remaining = 0): Readonly<Record<string, string>> {
  return Object.freeze({
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(remaining),
    "RateLimit-Reset": String(resetSeconds),
  });
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

/** The message of a burst group's 429. */
export function tooManyBurst(rule: BurstRule, resetSeconds: number): string {
  return (
    `Too many requests: ${rule.burst} at once, then one per ${rule.intervalMs / 1000} s, are allowed on this ` +
    `endpoint; retry after ${resetSeconds} s.`
  );
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
function refusals(message: (resetSeconds: number) => string, limit = 1) {
  const made = new Map<string, { body: Blob; headers: Headers }>();
  return (route: string, resetSeconds: number): Response | null => {
    const key = `${resetSeconds} ${route}`;
    let refusal = made.get(key);
    if (refusal === undefined) {
      const headers = new Headers(
        secured({
          "Content-Type": JSON_TYPE,
          "Cache-Control": "no-store",
          ...limitHeaders(resetSeconds, limit),
          "Retry-After": String(resetSeconds),
        }),
      );
      // The route pattern starts as its paths do, which is all the error shape depends on.
      refusal = { body: new Blob([errorBody(route, 429, message(resetSeconds))]), headers };
      made.set(key, refusal);
    }
    return new Response(refusal.body, { status: 429, headers: refusal.headers });
  };
}

type ServerOf = () => { requestIP(request: Request): { address: string } | null } | null | undefined;

/** The client's address: a trusted proxy's word for it, else the socket's. */
function clientAddressOf(config: Pick<Config, "trustProxy">, server: ServerOf) {
  const socketOf = (request: Request) => server()?.requestIP(request)?.address ?? null;
  return (request: Request): string =>
    forwardedAddress(request.headers.get("x-forwarded-for"), config.trustProxy) ??
    clientAddress(null, socketOf(request), 0);
}

/** In process an IPv4 client's key is its route's number and its address; any other is hashed. */
function localKeys(addressOf: (request: Request) => string) {
  const routeNumbers = new Map<string, number>();
  return (route: string, request: Request): number => {
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
}

/**
 * A burst group's limiter as a beforeHandle hook, keyed like the one-per-window limiter (route and
 * client) and held in process: a burst group counts per instance.
 */
export function burstLimit(
  config: Pick<Config, "rateLimitWindowMs" | "trustProxy">,
  server: ServerOf,
  rule: BurstRule,
  maxKeys?: number,
): ((context: LimitContext) => Response | undefined) | undefined {
  if (config.rateLimitWindowMs === 0) return undefined;
  const limiter = new BurstLimiter(rule, maxKeys);
  const refuse = refusals((reset) => tooManyBurst(rule, reset), rule.burst);
  const localKeyOf = localKeys(clientAddressOf(config, server));
  // Admitted headers by remaining count and reset: a handful of frozen objects, so the cached
  // pages' prepared Headers with them are reused (cache.ts keys them by identity).
  const admitted = new Map<number, Readonly<Record<string, string>>>();
  return ({ route, request, note }) => {
    const verdict = limiter.hit(localKeyOf(route, request), note.arrivedAt);
    const resetSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    if (verdict.allowed) {
      const key = verdict.remaining * 1024 + resetSeconds;
      let headers = admitted.get(key);
      if (headers === undefined) {
        headers = limitHeaders(resetSeconds, rule.burst, verdict.remaining);
        admitted.set(key, headers);
      }
      note.limit = headers;
      return undefined;
    }
    const refusal = refuse(route, resetSeconds);
    if (refusal === null) return undefined;
    return refusal;
  };
}

/**
 * The limiter as a beforeHandle hook for the routes of the limited group, keyed by route pattern
 * and client (client-address.ts). `server` is asked for the socket address only when no trusted
 * proxy names the client.
 */
export function rateLimit(
  config: Pick<Config, "rateLimitWindowMs" | "trustProxy">,
  server: ServerOf,
  maxKeys?: number,
  shared?: SharedLimits,
): ((context: LimitContext) => Response | undefined | Promise<Response | undefined>) | undefined {
  if (config.rateLimitWindowMs === 0) return undefined;
  const limiter = new RateLimiter(config.rateLimitWindowMs, maxKeys);
  // An admitted request resets after the whole window.
  const admitted = limitHeaders(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
  const refuse = refusals((reset) => tooManyRequests(config.rateLimitWindowMs, reset));
  const addressOf = clientAddressOf(config, server);
  const keyOf = (route: string, request: Request): string => `${route} ${clientKey(addressOf(request))}`;
  const localKeyOf = localKeys(addressOf);
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
