/**
 * Guards: the request-line limit (414) and malformed percent-encoding (400) before routing, and
 * the answers a known path gives to OPTIONS (CORS preflight) and to other methods (405 with
 * `Allow`). Errors are HttpErrors, so the app's onError renders them in the one error shape.
 */
import { HttpError } from "./errors";
import { secured } from "./headers";

/** Longer request lines get 414; a URL this long is never a real catalog query. */
export const MAX_REQUEST_LINE_BYTES = 8192;
/** The methods every documented path answers; one that also takes a body adds POST (methodsOf). */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
/** The methods of a path that also answers POST. */
export const ALLOWED_WITH_POST = "GET, HEAD, POST, OPTIONS";
const PREFLIGHT_MAX_AGE_S = "86400";
/** The request headers a preflight allows when it asks for none. */
export const DEFAULT_ALLOWED_HEADERS = "Authorization, Content-Type, Accept, If-None-Match";
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** The request target (path and query) of an absolute request URL. */
function requestTarget(url: string): string {
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

/** The answer to a CORS preflight (or a plain OPTIONS) on a known path that allows `methods`. */
export const preflightOf =
  (methods: string) =>
  ({ request }: { request: Request }): Response =>
    preflightAnswer(request, methods);

/** The answer to a CORS preflight (or a plain OPTIONS) on a known path. */
export const preflight = preflightOf(ALLOWED_METHODS);

function preflightAnswer(request: Request, methods: string): Response {
  const headers = secured({
    Allow: methods,
    "Access-Control-Allow-Methods": methods,
    "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_S,
  });
  // Echoing the asked-for headers is safe: nothing here reads credentials or changes state. Without
  // a list asked, the headers the clients send (a registry client's Authorization, a POST's Content-Type).
  const asked = request.headers.get("access-control-request-headers")?.trim();
  headers["Access-Control-Allow-Headers"] =
    asked && asked.length <= 1024 && TOKEN_LIST.test(asked) ? asked : DEFAULT_ALLOWED_HEADERS;
  return new Response(null, { status: 204, headers });
}

/** The onRequest guard: 414 for a request line over the limit, 400 for malformed percent-encoding in the path. */
export function checkRequestLine({ request }: { request: Request }): void {
  const url = request.url;
  const method = request.method;
  // The request target is part of the URL: most requests are judged on the URL as a whole.
  if (method.length + url.length + 10 > MAX_REQUEST_LINE_BYTES) {
    const target = requestTarget(url);
    if (method.length + target.length + 10 > MAX_REQUEST_LINE_BYTES) {
      throw new HttpError(414, `The request line is longer than ${MAX_REQUEST_LINE_BYTES} bytes.`);
    }
  }
  if (url.includes("%") && !validEncoding(requestPath(url))) {
    throw new HttpError(400, "The request path is not valid percent-encoding.");
  }
}

/** The answer to a known path asked with a method other than GET, HEAD or OPTIONS. */
/** The 405 of a known path that allows `methods`, with `Allow`. */
export const methodNotAllowedOf =
  (methods: string) =>
  ({ request }: { request: Request }): never => {
    const use = methods.includes("POST") ? "GET, HEAD or POST" : "GET or HEAD";
    throw new HttpError(405, `Method ${request.method} is not allowed here; use ${use}.`, { Allow: methods });
  };

/** The 405 of a known path, with `Allow`. */
export const methodNotAllowed = methodNotAllowedOf(ALLOWED_METHODS);
