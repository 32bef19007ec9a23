/**
 * The baseline: bare Bun.serve answering with the same small JSON, the runtime's own ceiling for
 * this kind of response. Two more paths give the ceiling for a page:
 * - `/12k` answers a fixed 12 KB JSON body, the size of a list page without compression;
 * - `/cached` does only what a cached sync page must: it reads `Accept-Encoding` and
 *   `If-None-Match` and answers 4.6 KB (a sync page's gzip) with the service's headers. Nothing
 *   more: no framework, no routing, no log.
 * Listens on PORT.
 */
import { SECURITY_HEADERS } from "../src/http/headers";

const SMALL = JSON.stringify({ code: 0, message: "ok", data: { status: "ok" } });
const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8" };
const PAGE = new Uint8Array(12 * 1024).fill(0x20);
PAGE.set(new TextEncoder().encode('{"items":[]}'));

const CACHED_BODY = new Uint8Array(4650).map((_, i) => (i * 7919) & 0xff);
const CACHED_HEADERS = new Headers({
  ...SECURITY_HEADERS,
  ...JSON_HEADERS,
  "Cache-Control": "public, max-age=300",
  ETag: '"1r64yq71culat-9gp.gzip"',
  Vary: "Accept-Encoding",
  "Content-Encoding": "gzip",
});

function cached(request: Request): Response {
  const accepts = request.headers.get("accept-encoding");
  const validator = request.headers.get("if-none-match");
  if (validator !== null && accepts !== null) return new Response(null, { status: 304, headers: CACHED_HEADERS });
  return new Response(CACHED_BODY, { headers: CACHED_HEADERS });
}

Bun.serve({
  port: Number(Bun.env.PORT ?? 3100),
  hostname: "127.0.0.1",
  fetch: (request) => {
    const url = request.url;
    if (url.endsWith("/cached")) return cached(request);
    return new Response(url.endsWith("/12k") ? PAGE : SMALL, { headers: JSON_HEADERS });
  },
});
