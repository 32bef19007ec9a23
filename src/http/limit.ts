/**
 * The rate limit as an Elysia plugin: one request per window per client IP per route pattern,
 * on the contract's endpoints only. Sends RateLimit-Limit/-Remaining/-Reset on every limited
 * route and Retry-After with the 429.
 */
import { Elysia } from "elysia";
import type { Config } from "../config";
import { HttpError } from "./errors";
import { clientIp, clientKey, RateLimiter } from "./ratelimit";

/** The route patterns of the contract; operational routes (health) are not limited. */
export const LIMITED_ROUTES = new Set([
  "/api/v1/plugins",
  "/api/v1/plugins/:owner/:repo",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins",
]);

export function rateLimit(config: Pick<Config, "rateLimitWindowMs" | "trustProxy">, maxKeys?: number) {
  const plugin = new Elysia({ name: "http.rate-limit" });
  if (config.rateLimitWindowMs === 0) return plugin;
  const limiter = new RateLimiter(config.rateLimitWindowMs, maxKeys);
  const endpoints = new Map([...LIMITED_ROUTES].map((route, index) => [route, index]));
  const admittedReset = String(Math.max(1, Math.ceil(config.rateLimitWindowMs / 1000)));
  return plugin.onBeforeHandle({ as: "global" }, ({ route, request, server, set }) => {
    const endpoint = endpoints.get(route);
    if (endpoint === undefined) return;
    const ip = clientIp(request.headers.get("x-forwarded-for"), () => server?.requestIP(request)?.address ?? null, config.trustProxy);
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
}
