/**
 * The rate limits as beforeHandle hooks: the catalog group's one request per window per client
 * per route, and the burst groups, keyed by group and client whatever the route. With REDIS_URL
 * every instance counts in one shared table; the in-process limiters (limiters.ts) answer while
 * it cannot.
 */
import type { Config } from "../config";
import { synchronousHook } from "./answer";
import { JSON_TYPE } from "./cache";
import { clientAddress, clientKey, forwardedAddress, ipv4Number } from "./client-address";
import { errorBody } from "./errors";
import { secured } from "./headers";
import { BurstLimiter, type BurstRule, ipv4Key, keyHash, RateLimiter, type Verdict } from "./limiters";
import type { RequestNote } from "./request-log";

export { BurstLimiter, type BurstRule, RateLimiter, type Verdict } from "./limiters";

/** A burst group's verdict: what the burst still allows at once beside it. */
export type BurstVerdict = Verdict & { remaining: number };

/** The limits shared by every instance (REDIS_URL); the in-process tables answer while they cannot. */
export interface SharedLimits {
  /** The verdict for `key` across every instance, or null when the shared table is unreachable. */
  hit(key: string, windowMs: number): Promise<Verdict | null>;
  /** A burst group's verdict for `key` across every instance, or null when unreachable. */
  burst(key: string, rule: BurstRule): Promise<BurstVerdict | null>;
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

type Hook = (context: LimitContext) => Response | undefined | Promise<Response | undefined>;

/** The message of a 429. */
export function tooManyRequests(windowMs: number, resetSeconds: number): string {
  return `Too many requests: one request per ${windowMs / 1000} s is allowed on this endpoint; retry after ${resetSeconds} s.`;
}

/** The message of a burst group's 429. */
export function tooManyBurst(rule: BurstRule, resetSeconds: number): string {
  return (
    `Too many requests: ${rule.burst} at once, then one per ${rule.intervalMs / 1000} s, are allowed on this ` +
    `endpoint's group; retry after ${resetSeconds} s.`
  );
}

/** The message of a page's 429 for a search that is not cached. */
export function tooManySearches(windowMs: number, resetSeconds: number): string {
  return (
    `Too many searches: a search not answered from the cache counts as one on /api/v1/plugins, where one per ` +
    `${windowMs / 1000} s is allowed; retry after ${resetSeconds} s.`
  );
}

/**
 * The refusal, rendered once per route and seconds to wait, body and Headers ready as a cached
 * page's are: a 429 must cost no more than the page it refuses, or a flood is cheaper to answer with data.
 */
function refusals(message: (resetSeconds: number) => string, limit = 1) {
  const made = new Map<string, { body: Blob; headers: Headers }>();
  return (route: string, resetSeconds: number): Response => {
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

const secondsOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

type ServerOf = () => { requestIP(request: Request): { address: string } | null } | null | undefined;

/** The client's address: a trusted proxy's word for it, else the socket's. */
function clientAddressOf(config: Pick<Config, "trustProxy">, server: ServerOf) {
  const socketOf = (request: Request) => server()?.requestIP(request)?.address ?? null;
  return (request: Request): string =>
    forwardedAddress(request.headers.get("x-forwarded-for"), config.trustProxy) ??
    clientAddress(null, socketOf(request), 0);
}

/**
 * A client's keys in a table (a route or a group): in process an IPv4 client's key is the table's
 * number and its address, any other is hashed; across instances it is the table's name and the client.
 */
function keysOf(addressOf: (request: Request) => string) {
  const tableNumbers = new Map<string, number>();
  return {
    shared: (table: string, request: Request): string => `${table} ${clientKey(addressOf(request))}`,
    local(table: string, request: Request): number {
      const address = addressOf(request);
      const v4 = ipv4Number(address);
      if (v4 === null) return keyHash(`${table} ${clientKey(address)}`);
      let number = tableNumbers.get(table);
      if (number === undefined) {
        number = tableNumbers.size;
        tableNumbers.set(table, number);
      }
      return ipv4Key(number, v4);
    },
  };
}

type LimitConfig = Pick<Config, "rateLimitWindowMs" | "trustProxy">;

/**
 * A burst group's limiter as a beforeHandle hook, keyed by the group's name and the client: every
 * route of the group draws on one budget. With `shared`, every instance counts in one table.
 */
export function burstLimit(
  config: LimitConfig,
  server: ServerOf,
  group: { name: string; rule: BurstRule },
  maxKeys?: number,
  shared?: SharedLimits,
): Hook | undefined {
  if (config.rateLimitWindowMs === 0) return undefined;
  const { name, rule } = group;
  const limiter = new BurstLimiter(rule, maxKeys);
  const refuse = refusals((reset) => tooManyBurst(rule, reset), rule.burst);
  const keys = keysOf(clientAddressOf(config, server));
  // Admitted headers by remaining count and reset: a handful of frozen objects, so the cached
  // pages' prepared Headers with them are reused (cache.ts keys them by identity).
  const admitted = new Map<number, Readonly<Record<string, string>>>();
  const settle = (verdict: BurstVerdict, route: string, note: RequestNote): Response | undefined => {
    const resetSeconds = secondsOf(verdict.resetMs);
    if (!verdict.allowed) return refuse(route, resetSeconds);
    const key = verdict.remaining * 1024 + resetSeconds;
    let headers = admitted.get(key);
    if (headers === undefined) {
      headers = limitHeaders(resetSeconds, rule.burst, verdict.remaining);
      admitted.set(key, headers);
    }
    note.limit = headers;
    return undefined;
  };
  if (shared) {
    return async ({ route, request, note }) => {
      const verdict = await shared.burst(keys.shared(name, request), rule);
      return settle(verdict ?? limiter.hit(keys.local(name, request), note.arrivedAt), route, note);
    };
  }
  return synchronousHook((route, request, note) =>
    settle(limiter.hit(keys.local(name, request), note.arrivedAt), route, note),
  );
}

/** The catalog group's limits: its hook, and the charge of a costly answer to one of its routes. */
export interface CatalogLimit {
  hook: Hook;
  /**
   * Counts a request of another group as one on `charged` (a route of this group) for its client:
   * a refusal to answer, or undefined when admitted. Decided by this instance's table, so the
   * handler stays synchronous; an admitted charge is also told to the shared table.
   */
  charge(charged: string, route: string, request: Request, note: RequestNote): Response | undefined;
}

/**
 * The catalog group's limiter, keyed by route pattern and client (client-address.ts). `server` is
 * asked for the socket address only when no trusted proxy names the client.
 */
export function rateLimit(
  config: LimitConfig,
  server: ServerOf,
  maxKeys?: number,
  shared?: SharedLimits,
): CatalogLimit | undefined {
  const windowMs = config.rateLimitWindowMs;
  if (windowMs === 0) return undefined;
  const limiter = new RateLimiter(windowMs, maxKeys);
  // An admitted request resets after the whole window.
  const admitted = limitHeaders(secondsOf(windowMs));
  const refuse = refusals((reset) => tooManyRequests(windowMs, reset));
  const refuseSearch = refusals((reset) => tooManySearches(windowMs, reset));
  const keys = keysOf(clientAddressOf(config, server));
  const settle = (verdict: Verdict, route: string, note: RequestNote): Response | undefined => {
    if (!verdict.allowed) return refuse(route, secondsOf(verdict.resetMs));
    // Not in `set.headers`: Elysia would then copy every Response and its headers to add them.
    note.limit = admitted;
    return undefined;
  };
  const charge: CatalogLimit["charge"] = (charged, route, request, note) => {
    const verdict = limiter.hit(keys.local(charged, request), note.arrivedAt);
    if (!verdict.allowed) return refuseSearch(route, secondsOf(verdict.resetMs));
    // Told to the shared table too, unawaited: the other instances then refuse the charged route.
    if (shared) void shared.hit(keys.shared(charged, request), windowMs);
    return undefined;
  };
  if (shared) {
    const hook: Hook = async ({ route, request, note }) => {
      const verdict = await shared.hit(keys.shared(route, request), windowMs);
      return settle(verdict ?? limiter.hit(keys.local(route, request), note.arrivedAt), route, note);
    };
    return { hook, charge };
  }
  const hook = synchronousHook((route, request, note) =>
    settle(limiter.hit(keys.local(route, request), note.arrivedAt), route, note),
  );
  return { hook, charge };
}
