/**
 * The request log: one line per request with method, route pattern, status, duration and whether
 * the response came from the snapshot's response cache. The client IP is logged only when
 * configured (it is personal data); query strings and headers never are.
 *
 * The line is written when the response is ready (after the handler, or by the error renderer),
 * not in an after-response hook: that hook costs a scheduled callback per request.
 */
import { Elysia } from "elysia";
import type { Config } from "../config";
import { clientIp } from "./ratelimit";

export type Log = (event: string, fields: Record<string, unknown>) => void;

const cacheHits = new WeakMap<Request, boolean>();

/** Records whether a request was answered from the response cache. */
export function noteCacheHit(request: Request, hit: boolean): void {
  cacheHits.set(request, hit);
}

export class RequestLog {
  private readonly started = new WeakMap<Request, number>();
  private readonly addresses = new WeakMap<Request, string>();

  constructor(
    private readonly log: Log,
    private readonly config: Pick<Config, "trustProxy" | "logClientIp">,
  ) {}

  /** The hooks: the start time (and address) on arrival, the line once a handler has answered. */
  plugin() {
    return new Elysia({ name: "http.request-log" })
      .onRequest(({ request, server }) => {
        this.started.set(request, performance.now());
        // Read while the connection is open: after the response the socket address is gone.
        if (this.config.logClientIp) {
          this.addresses.set(request, clientIp(request.headers.get("x-forwarded-for"), server?.requestIP(request)?.address ?? null, this.config.trustProxy));
        }
      })
      .onAfterHandle({ as: "global" }, ({ request, route, responseValue, set }) => {
        // Handlers answer with a Response, or with a body and the status in `set` (a 304 among them).
        const status = responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200;
        this.write(request, route, status);
      });
  }

  /** Logs an error response rendered outside the handlers and hands it back. */
  error(request: Request, route: string | undefined, response: Response): Response {
    this.write(request, route, response.status);
    return response;
  }

  private write(request: Request, route: string | undefined, status: number): void {
    const start = this.started.get(request);
    const fields: Record<string, unknown> = {
      method: request.method,
      route: route || null,
      status,
      durationMs: start === undefined ? null : Math.round((performance.now() - start) * 1000) / 1000,
      cache: cacheHits.has(request) ? (cacheHits.get(request) ? "hit" : "miss") : null,
    };
    if (this.config.logClientIp) fields.ip = this.addresses.get(request) ?? "unknown";
    this.log("request", fields);
  }
}
