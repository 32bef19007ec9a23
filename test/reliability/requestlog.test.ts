/** The request log: one JSON-ready line per request, with the client IP only when configured. */
import { afterEach, describe, expect, test } from "bun:test";
import { eventually } from "../helpers";
import { appWithSnapshot, call, serve, type TestApp } from "./support/catalog";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

/** The request lines logged, once the hooks of all `count` requests sent have run. */
async function requestLines(app: TestApp, count: number): Promise<Array<Record<string, unknown>>> {
  const lines = () => app.lines.filter((line) => line.event === "request");
  await eventually(() => lines().length >= count, 5000, `${count} request lines`);
  return lines();
}

describe("request log", () => {
  test("one line per request: method, route pattern, status, duration and cache use", async () => {
    // No request here is slow: a slow one's second line names its parameters (test/http/slow-requests.test.ts),
    // and a first search on a busy machine may take the default threshold's 50 ms.
    t = appWithSnapshot({}, undefined, Number.POSITIVE_INFINITY);
    await call(t.app, "/api/v1/plugins?q=private-words&page=1");
    await call(t.app, "/api/v1/plugins?q=private-words&page=1");
    const first = await call(t.app, "/api/v1/plugins/owner1/repo-1", { method: "HEAD" });
    await call(t.app, "/api/v1/plugins/owner1/repo-1", { headers: { "If-None-Match": first.headers.get("etag")! } });
    const lines = await requestLines(t, 4);
    expect(lines).toHaveLength(4);
    expect(lines.map(({ durationMs, ...rest }) => rest)).toEqual([
      { event: "request", method: "GET", route: "/api/v1/plugins", status: 200, cache: "miss" },
      { event: "request", method: "GET", route: "/api/v1/plugins", status: 200, cache: "hit" },
      { event: "request", method: "HEAD", route: "/api/v1/plugins/:owner/:repo", status: 200, cache: "miss" },
      { event: "request", method: "GET", route: "/api/v1/plugins/:owner/:repo", status: 304, cache: "hit" },
    ]);
    for (const line of lines) expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(t.lines)).not.toContain("private-words");
  });

  test("errors are logged with their real status", async () => {
    t = appWithSnapshot({ RATE_LIMIT_WINDOW_MS: "60000" });
    await call(t.app, "/market/v1/plugins");
    await call(t.app, "/market/v1/plugins");
    await call(t.app, "/api/v1/plugins?sort=nope");
    await call(t.app, "/nowhere");
    await call(t.app, "/plugins/feed.xml", { method: "DELETE" });
    await call(t.app, `/api/v1/plugins/a/${"b".repeat(9000)}`);
    await call(t.app, "/readyz", { method: "OPTIONS" });
    const lines = await requestLines(t, 7);
    expect(lines.map((l) => [l.method, l.status])).toEqual([
      ["GET", 200],
      ["GET", 429],
      ["GET", 400],
      ["GET", 404],
      ["DELETE", 405],
      ["GET", 414],
      ["OPTIONS", 204],
    ]);
    expect(lines[3]!.route).toBeNull();
  });

  test("no client IP is logged unless LOG_CLIENT_IP is set", async () => {
    t = appWithSnapshot({ TRUST_PROXY: "true" });
    const server = serve(t);
    await fetch(`${server.url}/healthz`, { headers: { "X-Forwarded-For": "203.0.113.9" } });
    await server.stop();
    const lines = await requestLines(t, 1);
    expect(lines).toHaveLength(1);
    expect("ip" in lines[0]!).toBe(false);
    expect(JSON.stringify(t.lines)).not.toContain("203.0.113.9");
  });

  test("with LOG_CLIENT_IP the socket address is logged, or the forwarded one behind a trusted proxy", async () => {
    t = appWithSnapshot({ LOG_CLIENT_IP: "true", TRUST_PROXY: "2" });
    const server = serve(t);
    await fetch(`${server.url}/healthz`, { headers: { "X-Forwarded-For": "203.0.113.9, 10.0.0.1" } });
    await fetch(`${server.url}/healthz`);
    await server.stop();
    expect((await requestLines(t, 2)).map((l) => l.ip)).toEqual(["203.0.113.9", "127.0.0.1"]);
  });
});
