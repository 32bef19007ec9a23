import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;
beforeAll(() => {
  server = startServer(
    snapshotInput([plugin("acme/one", { stars: 1, categories: ["mcp"] }), plugin("acme/two", { stars: 2 })]),
  );
});
afterAll(() => server.stop());

const JSON_PATHS = [
  "/api/v1/plugins",
  "/api/v1/plugins?q=one",
  "/api/v1/plugins/acme/one",
  "/market/manifest.json",
  "/market/v1/plugins",
];

describe("Cache-Control and ETag", () => {
  for (const path of JSON_PATHS) {
    test(`${path}: public, max-age=300 with an ETag, and 304 for a matching If-None-Match`, async () => {
      const first = await server.get(path);
      expect(first.status).toBe(200);
      expect(first.headers.get("cache-control")).toBe("public, max-age=300");
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await server.get(path, { "If-None-Match": etag! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      const listed = await server.get(path, { "If-None-Match": `"other", W/${etag}` });
      expect(listed.status).toBe(304);
      const stale = await server.get(path, { "If-None-Match": '"stale"' });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(await first.text());
    });
  }

  test("the feed is cached for an hour and has an ETag", async () => {
    const res = await server.get("/plugins/feed.xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const etag = res.headers.get("etag")!;
    expect((await server.get("/plugins/feed.xml", { "If-None-Match": etag })).status).toBe(304);
  });

  test("different pages have different ETags; the same page the same one", async () => {
    const a = await server.get("/api/v1/plugins?pageSize=1");
    const b = await server.get("/api/v1/plugins?pageSize=1&page=2");
    const c = await server.get("/api/v1/plugins?pageSize=1");
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    expect(a.headers.get("etag")).toBe(c.headers.get("etag"));
  });

  test("a repeated request is served from the response cache", async () => {
    await server.get("/api/v1/plugins?sort=forks");
    await server.get("/api/v1/plugins?sort=forks");
    const requests = server.lines.filter((line) => line.event === "request");
    expect(requests.slice(-2).map((line) => line.cache)).toEqual(["miss", "hit"]);
  });

  test("errors are not cached by clients", async () => {
    const res = await server.get("/api/v1/plugins?page=0");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
