/**
 * Bearer tokens the service is given (READ_TOKEN for every answer, METRICS_TOKEN for /metrics):
 * a request carries one as `Authorization: Bearer <token>`, compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";
import { HttpError } from "./errors";

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function carriesBearer(header: string | null, token: Buffer): boolean {
  const match = header === null ? null : /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  return given.length === token.length && timingSafeEqual(given, token);
}

/** Paths answered without the read token: the health checks, and /metrics, which has a token of its own. */
const OPEN_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

export const READ_TOKEN_MESSAGE = "This catalog is private: send the read token as `Authorization: Bearer <token>`.";

/**
 * With READ_TOKEN set, the onRequest guard: every request but the health checks, /metrics and a
 * CORS preflight (which carries no credentials by design) must carry the token, else 401.
 */
export function readTokenGuard(token: string | undefined) {
  const secret = token ? Buffer.from(token) : null;
  return ({ request }: { request: Request }): void => {
    if (secret === null || request.method === "OPTIONS") return;
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("://") + 3);
    const query = url.indexOf("?", start);
    const path = start === -1 ? "/" : url.slice(start, query === -1 ? undefined : query);
    if (OPEN_PATHS.has(path)) return;
    if (!carriesBearer(request.headers.get("authorization"), secret))
      throw new HttpError(401, READ_TOKEN_MESSAGE, { "WWW-Authenticate": 'Bearer realm="catalog"' });
  };
}

/** `Cache-Control` as a private answer says it: `private` in place of `public`. */
const privately = (cacheControl: string) =>
  cacheControl.startsWith("public") ? `private${cacheControl.slice(6)}` : cacheControl;

const withAuthorization = (vary: string | null | undefined) =>
  vary ? (/\bauthorization\b/i.test(vary) ? vary : `${vary}, Authorization`) : "Authorization";

/**
 * With READ_TOKEN set (the hook is mounted then only), a mapResponse hook: every answer tells caches it is private
 * (`Cache-Control: private` in place of `public`, `Vary: Authorization`), so a cache in front never
 * serves it to a caller without the token. An answer's headers may be shared by the response
 * cache, so a Response is copied, never changed in place.
 */
export function privateAnswers() {
  return async ({ response, set }: { response: unknown; set: { headers: Record<string, string | number> } }) => {
    const headers = set.headers;
    if (typeof headers["cache-control"] === "string") headers["cache-control"] = privately(headers["cache-control"]);
    if (typeof headers["Cache-Control"] === "string") headers["Cache-Control"] = privately(headers["Cache-Control"]);
    headers.vary = withAuthorization(headers.vary as string | undefined);
    // A route that renders in its turn answers a promise of its Response.
    const answered = await response;
    if (!(answered instanceof Response)) return undefined;
    const copied = new Headers(answered.headers);
    const cacheControl = copied.get("cache-control");
    if (cacheControl) copied.set("cache-control", privately(cacheControl));
    copied.set("vary", withAuthorization(copied.get("vary")));
    return new Response(answered.body, { status: answered.status, statusText: answered.statusText, headers: copied });
  };
}
