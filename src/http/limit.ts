/**
 * The rate limit as an Elysia plugin: one request per window per client IP per route pattern,
 * on the contract's endpoints only. Sends RateLimit-Limit/-Remaining/-Reset on every limited
 * route and Retry-After with the 429.
 */
import type { AnyElysia } from "elysia";
import type { Config } from "../config";
import { HttpError } from "./errors";
import { clientKey, forwardedClient, RateLimiter } from "./ratelimit";

/** The route patterns of the contract; operational routes (health) are not limited. */
export const LIMITED_ROUTES = new Set([
  "/api/v1/plugins",
  "/api/v1/plugins/:owner/:repo",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins",
]);

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
    const admittedReset = String(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
    const socketAddress = (request: Request) => app.server?.requestIP(request)?.address ?? null;
    return app.onBeforeHandle({ as: "global" }, ({ route, request, set }) => {
      const endpoint = endpoints.get(route);
      if (endpoint === undefined) return;
      const forwarded = config.trustProxy ? forwardedClient(request.headers.get("x-forwarded-for")) : null;
      const ip = forwarded ?? socketAddress(request) ?? "unknown";
      const verdict = limiter.hit(clientKey(endpoint, ip), Date.now());
      const resetSeconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
      set.headers["RateLimit-Limit"] = "1";
      set.headers["RateLimit-Remaining"] = "0";
      // An admitted request resets after the whole window: the same text every time.
      set.headers["RateLimit-Reset"] = verdict.allowed ? admittedReset : String(resetSeconds);
      if (!verdict.allowed) {
        throw new HttpError(429, `Too many requests: one request per ${config.rateLimitWindowMs / 1000} s is allowed on this endpoint; retry after ${resetSeconds} s.`, {
          "Retry-After": String(resetSeconds),
        });
      }
    });
  };
}
