/**
 * The baseline: bare Bun.serve answering with the same small JSON, the runtime's own ceiling for
 * this kind of response. `/12k` answers a fixed 12 KB JSON body instead, the size of a list page:
 * the ceiling for a page. Listens on PORT.
 */
const SMALL = JSON.stringify({ code: 0, message: "ok", data: { status: "ok" } });
const PAGE = new Uint8Array(12 * 1024).fill(0x20);
PAGE.set(new TextEncoder().encode('{"items":[]}'));
const HEADERS = { "Content-Type": "application/json; charset=utf-8" };

Bun.serve({
  port: Number(Bun.env.PORT ?? 3100),
  hostname: "127.0.0.1",
  fetch: (request) => new Response(request.url.endsWith("/12k") ? PAGE : SMALL, { headers: HEADERS }),
});
