/**
 * The request log: one JSON line per request with method, route pattern, status, duration and
 * whether the response came from the snapshot's response cache. The client IP is logged only when
 * configured (it is personal data); query strings and headers never are.
 */
import { Elysia } from "elysia";
import type { Config } from "../config";
import { clientIp } from "./ratelimit";

export type Log = (event: string, fields: Record<string, unknown>) => void;

const started = new WeakMap<Request, number>();
const finished = new WeakMap<Request, number>();
const cacheHits = new WeakMap<Request, boolean>();
const statuses = new WeakMap<Request, number>();
const addresses = new WeakMap<Request, string>();

/** Records whether a request was answered from the response cache. */
export function noteCacheHit(request: Request, hit: boolean): void {
  cacheHits.set(request, hit);
}

/** Records the status of a response built outside the route handlers (the error renderer). */
export function noteStatus(request: Request, status: number): void {
  statuses.set(request, status);
  finished.set(request, performance.now());
}

function statusOf(request: Request, response: unknown, fallback: number | string | undefined): number {
  const noted = statuses.get(request);
  if (noted !== undefined) return noted;
  if (response instanceof Response) return response.status;
  return typeof fallback === "number" ? fallback : 200;
}

export function requestLog(log: Log, config: Pick<Config, "trustProxy" | "logClientIp">) {
  return new Elysia({ name: "http.request-log" })
    .onRequest(({ request, server }) => {
      started.set(request, performance.now());
      // Read while the connection is open: after the response the socket address is gone.
      if (config.logClientIp) {
        addresses.set(request, clientIp(request.headers.get("x-forwarded-for"), server?.requestIP(request)?.address ?? null, config.trustProxy));
      }
    })
    // The log line is written after the response; the duration ends when the response was ready.
    .onAfterHandle({ as: "global" }, ({ request }) => {
      finished.set(request, performance.now());
    })
    .onAfterResponse({ as: "global" }, ({ request, route, set, responseValue }) => {
      const start = started.get(request);
      const end = finished.get(request) ?? performance.now();
      const fields: Record<string, unknown> = {
        method: request.method,
        route: route || null,
        status: statusOf(request, responseValue, set.status),
        durationMs: start === undefined ? null : Math.round((end - start) * 1000) / 1000,
        cache: cacheHits.has(request) ? (cacheHits.get(request) ? "hit" : "miss") : null,
      };
      if (config.logClientIp) fields.ip = addresses.get(request) ?? "unknown";
      log("request", fields);
    });
}
