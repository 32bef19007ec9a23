/**
 * Guards that run before routing, on every request: the request-line limit (414), malformed
 * percent-encoding in the path (400), CORS preflight, and 405 with `Allow` for a known path asked
 * with a method other than GET or HEAD. Errors are HttpErrors, so the app's onError renders them
 * in the one error shape. The security headers are written where responses are built (headers.ts).
 */
import type { AnyElysia } from "elysia";
import { HttpError } from "./errors";
import { secured } from "./headers";
import { RouteMatcher } from "./routematch";

/** Longer request lines get 414; a URL this long is never a real catalog query. */
export const MAX_REQUEST_LINE_BYTES = 8192;
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
const PREFLIGHT_MAX_AGE_S = "86400";
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** The request target (path and query) of an absolute request URL. */
export function requestTarget(url: string): string {
  const scheme = url.indexOf("://");
  const start = url.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  return start === -1 ? "/" : url.slice(start);
}

/** The path of an absolute request URL, without its query. */
function requestPath(url: string): string {
  const target = requestTarget(url);
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}

function validEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The answer to a CORS preflight (or a plain OPTIONS) on a known path. */
function preflight(request: Request): Response {
  const headers = secured({
    Allow: ALLOWED_METHODS,
    "Access-Control-Allow-Methods": ALLOWED_METHODS,
    "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_S,
  });
  // Echoing the asked-for headers is safe: nothing here reads credentials or changes state.
  const asked = request.headers.get("access-control-request-headers")?.trim();
  if (asked && asked.length <= 1024 && TOKEN_LIST.test(asked)) headers["Access-Control-Allow-Headers"] = asked;
  return new Response(null, { status: 204, headers });
}

/**
 * The guards as a plugin applied to the app itself, so it can read the app's full route table at
 * request time (routes registered after it included).
 */
export function requestGuards() {
  return <App extends AnyElysia>(app: App): App => {
    const known = new RouteMatcher(() => app.routes.filter((r) => r.method === "GET").map((r) => r.path));
    return app.onRequest(({ request }) => {
      const url = request.url;
      const method = request.method;
      // The request target is part of the URL: most requests are judged on the URL as a whole.
      if (method.length + url.length + 10 > MAX_REQUEST_LINE_BYTES) {
        const target = requestTarget(url);
        if (method.length + target.length + 10 > MAX_REQUEST_LINE_BYTES) {
          throw new HttpError(414, `The request line is longer than ${MAX_REQUEST_LINE_BYTES} bytes.`);
        }
      }
      if (url.includes("%") && !validEncoding(requestPath(url))) throw new HttpError(400, "The request path is not valid percent-encoding.");
      if (method === "GET" || method === "HEAD" || method === "OPTIONS" || !known.matches(requestPath(url))) return;
      throw new HttpError(405, `Method ${method} is not allowed here; use GET or HEAD.`, { Allow: ALLOWED_METHODS });
    })
      // A route rather than an early answer from onRequest, so preflights are logged like any request.
      .options("/*", ({ request }) => {
        const path = new URL(request.url).pathname;
        if (!known.matches(path)) throw new HttpError(404, `No such endpoint: ${path}.`);
        return preflight(request);
      }) as App;
  };
}
