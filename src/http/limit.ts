/**
 * The rate limit as an Elysia plugin: one request per window per client IP per route pattern,
 * on the contract's endpoints only. Sends RateLimit-Limit/-Remaining/-Reset on every limited
 * route and Retry-After with the 429.
 */
import type { AnyElysia } from "elysia";
import type { Config } from "../config";
import { arrivalOf } from "./arrival";
import { HttpError } from "./errors";
import { clientKey, forwardedKey, RateLimiter } from "./ratelimit";

/** The route patterns of the contract; operational routes (health) are not limited. */
export const LIMITED_ROUTES = new Set([
  "/api/v1/plugins",
  "/api/v1/plugins/:owner/:repo",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins",
]);

// The limit headers of an admitted request are the same for every request of a window length:
// one frozen set, kept on the Request under a private symbol for the response to include (in the
// headers prepared once per cached page), instead of three writes into the framework's
// per-request headers that every response would then have to merge.
const LIMIT_HEADERS = Symbol("rate-limit.headers");

interface Limited {
  [LIMIT_HEADERS]?: Readonly<Record<string, string>>;
}

/** The RateLimit-* headers an admitted request's response carries; null when it was not limited. */
export function limitHeaders(request: Request): Readonly<Record<string, string>> | null {
  return (request as Limited)[LIMIT_HEADERS] ?? null;
}

function headersFor(resetSeconds: number): Readonly<Record<string, string>> {
  return Object.freeze({ "RateLimit-Limit": "1", "RateLimit-Remaining": "0", "RateLimit-Reset": String(resetSeconds) });
}

/**
 * The limiter as hooks on the app itself, which knows its server (the socket address is asked of
 * it only when no trusted X-Forwarded-For names the client). The hook's source holds no `=> f(`:
 * Elysia would compile every limited route as asynchronous (see routes/snapshot.ts).
 */
export function rateLimit(config: Pick<Config, "rateLimitWindowMs" | "trustProxy">, maxKeys?: number) {
  return (app: AnyElysia) => {
    if (config.rateLimitWindowMs === 0) return app;
    const limiter = new RateLimiter(config.rateLimitWindowMs, maxKeys);
    const endpoints = new Map([...LIMITED_ROUTES].map((route, index) => [route, index]));
    // An admitted request resets after the whole window.
    const admitted = headersFor(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
    const socketAddress = (request: Request) => app.server?.requestIP(request)?.address ?? null;
    return app.onBeforeHandle({ as: "global" }, ({ route, request }) => {
      const endpoint = endpoints.get(route);
      if (endpoint === undefined) return;
      let key = config.trustProxy ? forwardedKey(endpoint, request.headers.get("x-forwarded-for")) : -1;
      if (key < 0) key = clientKey(endpoint, socketAddress(request) ?? "unknown");
      const verdict = limiter.hit(key, arrivalOf(request) ?? performance.now());
      if (verdict.allowed) {
        (request as Limited)[LIMIT_HEADERS] = admitted;
        return;
      }
      const resetSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
      throw new HttpError(429, `Too many requests: one request per ${config.rateLimitWindowMs / 1000} s is allowed on this endpoint; retry after ${resetSeconds} s.`, {
        ...headersFor(resetSeconds),
        "Retry-After": String(resetSeconds),
      });
    });
  };
}
