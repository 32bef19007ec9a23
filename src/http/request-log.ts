/**
 * The request log: one line per request with method, route pattern, status, cache use and
 * duration. The client IP is logged only when configured (it is personal data); query strings and
 * headers never are. What the hooks learn about a request travels in its context as `note`.
 */
import type { AnyElysia } from "elysia";
import type { Log } from "../base/log";
import type { Metrics } from "../base/metrics";
import type { Config } from "../config";
import { clientAddress } from "./client-address";

/** What the hooks and the handler of one request tell each other. */
export interface RequestNote {
  /** The app's clock (`performance.now()` by default) on arrival, for the duration and the limiter's window. */
  arrivedAt: number;
  /** Whether the response came from the snapshot's response cache; null when no cache was asked. */
  cache: "hit" | "miss" | null;
  /** The client address, read only when it is logged. */
  ip: string | null;
  /** The request's parameters as parsed, in their one spelling (canonical), when the route reads any. */
  params?: string | null;
  /** An admitted request's RateLimit-* headers (one shared object), for its response to carry. */
  limit: Readonly<Record<string, string>> | null;
}

/** The context fields the request log adds, to decorate an app with. */
export function requestNote(): { note: RequestNote } {
  return { note: { arrivedAt: Number.NaN, cache: null, ip: null, limit: null, params: null } };
}

/** Handler time above which a request also gets a `request.slow` line with its parameters. */
export const SLOW_REQUEST_MS = 50;

/** The clock requests are timed on, in ms: arrival, duration, and the rate limits' windows. */
export const monotonicNow = (): number => performance.now();

/**
 * Writes a request's line and counts it in `metrics`; `note` is undefined when the request failed
 * before its first hook. A request slower than `slowMs` gets a second line naming its route and
 * parsed parameters. `now` is the clock its arrival was read on.
 */
export function logRequest(
  log: Log,
  method: string,
  route: string | undefined,
  status: number,
  note?: RequestNote,
  metrics?: Metrics,
  slowMs = SLOW_REQUEST_MS,
  now = monotonicNow,
) {
  const elapsedMs = note ? now() - note.arrivedAt : Number.NaN;
  metrics?.request(route, status, elapsedMs / 1000, note?.cache ?? null);
  const durationMs = Number.isFinite(elapsedMs) ? Math.round(elapsedMs * 1000) / 1000 : null;
  const fields: Record<string, unknown> = {
    method,
    route: route || null,
    status,
    cache: note?.cache ?? null,
    durationMs,
  };
  if (note?.ip) fields.ip = note.ip;
  log("request", fields);
  if (durationMs !== null && durationMs > slowMs) {
    log("request.slow", { method, route: route || null, params: note?.params ?? null, status, durationMs });
  }
}

/**
 * The hooks, on the app itself (it knows its server): a fresh note on arrival, the line once a
 * handler has answered (errors are logged where they are rendered). `now` is the clock requests
 * are timed on (a test gives its own to pass a rate limit's window without waiting).
 */
export function requestLog(
  log: Log,
  config: Pick<Config, "trustProxy" | "logClientIp">,
  metrics?: Metrics,
  slowMs = SLOW_REQUEST_MS,
  now = monotonicNow,
) {
  return <App extends AnyElysia>(app: App): App =>
    app
      .onRequest((context) => {
        const { request } = context;
        // Read while the connection is open: after the response the socket address is gone.
        const ip = config.logClientIp
          ? clientAddress(
              request.headers.get("x-forwarded-for"),
              app.server?.requestIP(request)?.address ?? null,
              config.trustProxy,
            )
          : null;
        (context as unknown as { note: RequestNote }).note = {
          arrivedAt: now(),
          cache: null,
          ip,
          limit: null,
          params: null,
        };
      })
      .onAfterHandle({ as: "global" }, ({ request, route, responseValue, set, note }) => {
        // Handlers answer with a Response, or with a body and the status in `set` (a 304 among them);
        // a rendering that waits for its turn answers with the promise of either.
        const line = (value: unknown) => {
          const status = value instanceof Response ? value.status : typeof set.status === "number" ? set.status : 200;
          logRequest(log, request.method, route, status, note as RequestNote, metrics, slowMs, now);
        };
        if (responseValue instanceof Promise) responseValue.then(line);
        else line(responseValue);
      }) as App;
}
