/**
 * The request log: one line per request with method, route pattern, status, cache use (whether
 * the response came from the snapshot's response cache) and duration. The client IP is logged
 * only when configured (it is personal data); query strings and headers never are.
 *
 * The line is written when the response is ready (after the handler, or by the error renderer),
 * not in an after-response hook: that hook costs a scheduled callback per request. It is written
 * as bytes into the log's batch (see `LineSink`): the fields a route's lines share are encoded
 * once, and only the time and the duration are written per request. Built as a string, the line
 * cost a tenth of a cached page's time; as bytes it costs a third of that.
 */
import type { AnyElysia } from "elysia";
import type { Config } from "../config";
import type { LineSink } from "../log";
import { arrivalOf, noteArrival } from "./arrival";
import { clientIp } from "./ratelimit";

// What the log learns about a request is kept on the Request object itself, under private
// symbols: a WeakMap per fact cost five times as much and left the collector weak entries to sweep.
const CACHE_HIT = Symbol("request-log.cache-hit");
const ADDRESS = Symbol("request-log.address");

interface Noted {
  [CACHE_HIT]?: boolean;
  [ADDRESS]?: string;
}

/** Records whether a request was answered from the response cache. */
export function noteCacheHit(request: Request, hit: boolean): void {
  (request as Noted)[CACHE_HIT] = hit;
}

const NEWLINE_CLOSE = new Uint8Array([0x7d, 0x0a]);
/** Room for the digits of a duration: far more than any request takes. */
const MAX_DURATION_BYTES = 24;

export class RequestLog {
  /**
   * The encoded fields from the event name to `"durationMs":`, per method, route, status and cache
   * use. All four come from small fixed sets (Bun knows only the standard methods and reads any
   * other as GET; routes are the app's patterns), so the map stays small without a bound.
   */
  private readonly fixed = new Map<string, Map<string | undefined, Map<number, Uint8Array>>>();

  constructor(
    private readonly lines: LineSink,
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
          noteArrival(request);
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
    const start = arrivalOf(request);
    const end = performance.now();
    const head = this.lines.head();
    const fixed = this.fixedPart(request.method, route, status, noted[CACHE_HIT]);
    const ip = this.config.logClientIp ? this.lines.encode(`,"ip":${JSON.stringify(noted[ADDRESS] ?? "unknown")}`) : null;
    const max = head.byteLength + fixed.byteLength + MAX_DURATION_BYTES + (ip === null ? 0 : ip.byteLength) + NEWLINE_CLOSE.byteLength;
    const bytes = this.lines.bytes;
    let at = this.lines.begin(max);
    bytes.set(head, at);
    at += head.byteLength;
    bytes.set(fixed, at);
    at += fixed.byteLength;
    at = start === undefined ? writeNull(bytes, at) : writeMillis(bytes, at, Math.round((end - start) * 1000));
    if (ip !== null) {
      bytes.set(ip, at);
      at += ip.byteLength;
    }
    bytes.set(NEWLINE_CLOSE, at);
    this.lines.end(at + NEWLINE_CLOSE.byteLength);
  }

  /** Looked up by method, route and a number for status and cache use: no key is built per request. */
  private fixedPart(method: string, route: string | undefined, status: number, hit: boolean | undefined): Uint8Array {
    let byRoute = this.fixed.get(method);
    if (byRoute === undefined) this.fixed.set(method, (byRoute = new Map()));
    let byOutcome = byRoute.get(route);
    if (byOutcome === undefined) byRoute.set(route, (byOutcome = new Map()));
    const outcome = status * 4 + (hit === undefined ? 0 : hit ? 1 : 2);
    let part = byOutcome.get(outcome);
    if (part === undefined) {
      const cache = hit === undefined ? "null" : hit ? '"hit"' : '"miss"';
      part = this.lines.encode(`"request","method":${JSON.stringify(method)},"route":${route ? JSON.stringify(route) : "null"},"status":${status},"cache":${cache},"durationMs":`);
      byOutcome.set(outcome, part);
    }
    return part;
  }
}

const NULL = new Uint8Array([0x6e, 0x75, 0x6c, 0x6c]);

function writeNull(bytes: Uint8Array, at: number): number {
  bytes.set(NULL, at);
  return at + NULL.byteLength;
}

const ZERO = 0x30;
const DOT = 0x2e;

/**
 * Writes `micros` microseconds as milliseconds in JSON, the way `String(micros / 1000)` would
 * (`1234.5`, `0.007`, `12`), and returns the offset after it. `micros` is a non-negative integer.
 */
export function writeMillis(bytes: Uint8Array, at: number, micros: number): number {
  let whole = Math.floor(micros / 1000);
  let fraction = micros - whole * 1000;
  // The whole milliseconds, written backwards and turned round.
  const first = at;
  do {
    bytes[at++] = ZERO + (whole % 10);
    whole = Math.floor(whole / 10);
  } while (whole > 0);
  for (let i = first, j = at - 1; i < j; i++, j--) {
    const digit = bytes[i]!;
    bytes[i] = bytes[j]!;
    bytes[j] = digit;
  }
  if (fraction === 0) return at;
  bytes[at++] = DOT;
  // Up to three decimals, without trailing zeros.
  for (let unit = 100; fraction > 0; unit /= 10) {
    const digit = Math.floor(fraction / unit);
    bytes[at++] = ZERO + digit;
    fraction -= digit * unit;
  }
  return at;
}
