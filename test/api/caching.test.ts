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

  test("HEAD /api/v1/plugins (curl -I) says the contract's Cache-Control alone when no shared cache is configured", async () => {
    const head = await fetch(`${server.url}/api/v1/plugins`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe("public, max-age=300");
  });

  test("errors are not cached by clients", async () => {
    const res = await server.get("/api/v1/plugins?page=0");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("shared caches (a proxy or CDN in front)", () => {
  test("SHARED_CACHE_MAX_AGE_S and SHARED_CACHE_STALE_S set s-maxage and stale-while-revalidate; a 304 carries them", async () => {
    const shared = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]), {
      config: { sharedCacheMaxAgeS: 7, sharedCacheStaleS: 3 },
    });
    try {
      for (const path of ["/api/v1/plugins", "/browse", "/badge/acme/one.svg", "/market/v1/catalog.json"]) {
        const first = await shared.get(path);
        expect(first.headers.get("cache-control"), path).toBe(
          "public, max-age=300, s-maxage=7, stale-while-revalidate=3",
        );
        const again = await shared.get(path, { "If-None-Match": first.headers.get("etag")! });
        expect(again.status, path).toBe(304);
        expect(again.headers.get("cache-control"), path).toBe(first.headers.get("cache-control"));
      }
      // The static assets change with a deployment, not a snapshot: their own lifetime alone.
      expect((await shared.get("/assets/site.css")).headers.get("cache-control")).toBe("public, max-age=3600");
    } finally {
      await shared.stop();
    }
  });

  test("a 429 and /metrics are never stored: no-store", async () => {
    const limited = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]), { rateLimitWindowMs: 60_000 });
    try {
      expect((await limited.get("/api/v1/plugins")).status).toBe(200);
      const refused = await limited.get("/api/v1/plugins");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect((await limited.get("/metrics")).headers.get("cache-control")).toBe("no-store");
    } finally {
      await limited.stop();
    }
  });
});
