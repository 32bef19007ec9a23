/**
 * The baseline: bare Bun.serve answering every request with the same small JSON, the runtime's
 * own ceiling for this kind of response. Listens on PORT.
 */
const BODY = JSON.stringify({ code: 0, message: "ok", data: { status: "ok" } });

Bun.serve({
  port: Number(Bun.env.PORT ?? 3100),
  hostname: "127.0.0.1",
  fetch: () => new Response(BODY, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
});
