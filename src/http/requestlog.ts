/**
 * The request log: one line per request with method, route pattern, status, duration and whether
 * the response came from the snapshot's response cache. The client IP is logged only when
 * configured (it is personal data); query strings and headers never are.
 *
 * The line is written when the response is ready (after the handler, or by the error renderer),
 * not in an after-response hook: that hook costs a scheduled callback per request. It is built as
 * JSON text directly (see `LogJson`): under load, a generic object per line cost a quarter of a
 * cached page's time.
 */
import type { AnyElysia } from "elysia";
import type { Config } from "../config";
import { quoted, type LogJson } from "../log";
import { clientIp } from "./ratelimit";

// What the log learns about a request is kept on the Request object itself, under private
// symbols: a WeakMap per fact cost five times as much and left the collector weak entries to sweep.
const STARTED = Symbol("request-log.started");
const CACHE_HIT = Symbol("request-log.cache-hit");
const ADDRESS = Symbol("request-log.address");

interface Noted {
  [STARTED]?: number;
  [CACHE_HIT]?: boolean;
  [ADDRESS]?: string;
}

/** Records whether a request was answered from the response cache. */
export function noteCacheHit(request: Request, hit: boolean): void {
  (request as Noted)[CACHE_HIT] = hit;
}

export class RequestLog {
  constructor(
    private readonly log: LogJson,
    private readonly config: Pick<Config, "trustProxy" | "logClientIp">,
  ) {}

  /**
   * The hooks, on the app itself (it knows its server): the start time (and address) on arrival,
   * the line once a handler has answered. They name no `server` in their parameters: Elysia would
   * then define it on every request's context.
   */
  plugin() {
    return (app: AnyElysia) =>
      app
        .onRequest(({ request }) => {
          (request as Noted)[STARTED] = performance.now();
          // Read while the connection is open: after the response the socket address is gone.
          if (this.config.logClientIp) (request as Noted)[ADDRESS] = this.address(app, request);
        })
        .onAfterHandle({ as: "global" }, ({ request, route, responseValue, set }) => {
          // Handlers answer with a Response, or with a body and the status in `set` (a 304 among them).
          const status = responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200;
          this.write(request, route, status);
        });
  }

  private address(app: AnyElysia, request: Request): string {
    return clientIp(request.headers.get("x-forwarded-for"), app.server?.requestIP(request)?.address ?? null, this.config.trustProxy);
  }

  /** Logs an error response rendered outside the handlers and hands it back. */
  error(request: Request, route: string | undefined, response: Response): Response {
    this.write(request, route, response.status);
    return response;
  }

  private write(request: Request, route: string | undefined, status: number): void {
    const noted = request as Noted;
    const start = noted[STARTED];
    const durationMs = start === undefined ? "null" : String(Math.round((performance.now() - start) * 1000) / 1000);
    const hit = noted[CACHE_HIT];
    const cache = hit === undefined ? "null" : hit ? '"hit"' : '"miss"';
    let members = `"method":${quoted(request.method)},"route":${route ? quoted(route) : "null"},"status":${status},"durationMs":${durationMs},"cache":${cache}`;
    if (this.config.logClientIp) members += `,"ip":${JSON.stringify(noted[ADDRESS] ?? "unknown")}`;
    this.log("request", members);
  }
}
