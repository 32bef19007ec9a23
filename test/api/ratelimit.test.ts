import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const ENDPOINTS = [
  "/api/v1/plugins",
  "/api/v1/plugins/acme/one",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins",
];
const input = snapshotInput([plugin("acme/one", { stars: 1 })]);

describe("rate limit: one request per window per IP per endpoint", () => {
  let server: TestServer;
  beforeAll(() => {
    server = startServer(input, { rateLimitWindowMs: 60_000 });
  });
  afterAll(() => server.stop());

  for (const path of ENDPOINTS) {
    test(`${path}: the second request in the window gets 429 with Retry-After`, async () => {
      const first = await server.get(path);
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-limit")).toBe("1");
      expect(first.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(first.headers.get("ratelimit-reset"))).toBe(60);
      const second = await server.get(path);
      expect(second.status).toBe(429);
      const retryAfter = Number(second.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(59);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = (await second.json()) as any;
      expect(body.code).toBe(429);
      expect(typeof body.message).toBe("string");
      if (path.startsWith("/api/")) expect(body.data).toBeNull();
      else expect("data" in body).toBe(false);
    });
  }

  test("the endpoint is the route pattern, not the URL", async () => {
    expect((await server.get("/api/v1/plugins/acme/two")).status).toBe(429);
  });

  test("health checks are not limited", async () => {
    expect((await server.get("/healthz")).status).toBe(200);
    expect((await server.get("/healthz")).status).toBe(200);
  });

  test("a 304 counts too", async () => {
    const other = startServer(input, { rateLimitWindowMs: 60_000 });
    try {
      const first = await other.get("/market/manifest.json");
      const etag = first.headers.get("etag")!;
      expect((await other.get("/market/manifest.json", { "If-None-Match": etag })).status).toBe(429);
    } finally {
      await other.stop();
    }
  });
});

describe("rate limit window", () => {
  test("a request after the window passes again", async () => {
    // The app's clock is the test's: the window passes when the test moves it, not while it waits.
    let now = 1_000_000;
    const server = startServer(input, { rateLimitWindowMs: 1500, now: () => now });
    try {
      expect((await server.get("/market/manifest.json")).status).toBe(200);
      now += 1;
      const limited = await server.get("/market/manifest.json");
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("2");
      now += 1498;
      expect((await server.get("/market/manifest.json")).status).toBe(429);
      now += 1;
      expect((await server.get("/market/manifest.json")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("RATE_LIMIT_WINDOW_MS=0 disables the limit", async () => {
    const server = startServer(input, { rateLimitWindowMs: 0 });
    try {
      for (let i = 0; i < 5; i++) expect((await server.get("/api/v1/plugins")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("client address", () => {
  test("X-Forwarded-For is ignored unless TRUST_PROXY is on", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000 });
    try {
      expect((await server.get("/market/manifest.json", { "X-Forwarded-For": "1.1.1.1" })).status).toBe(200);
      expect((await server.get("/market/manifest.json", { "X-Forwarded-For": "2.2.2.2" })).status).toBe(429);
    } finally {
      await server.stop();
    }
  });

  test("with TRUST_PROXY=1 the client is the entry the proxy appended: what the client wrote is ignored", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: 1 });
    try {
      const via = (written: string) => ({ "X-Forwarded-For": `${written}, 203.0.113.7` });
      expect((await server.get("/market/manifest.json", via("1.1.1.1"))).status).toBe(200);
      for (const spoof of ["2.2.2.2", "3.3.3.3, 4.4.4.4", "2001:db8::9", "garbage"]) {
        expect((await server.get("/market/manifest.json", via(spoof))).status).toBe(429);
      }
      expect((await server.get("/market/manifest.json", { "X-Forwarded-For": "203.0.113.8" })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("with TRUST_PROXY=2 the client is the second entry from the right", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: 2 });
    try {
      const via = (hops: string) => ({ "X-Forwarded-For": hops });
      expect((await server.get("/market/manifest.json", via("6.6.6.6, 198.51.100.1, 10.0.0.1"))).status).toBe(200);
      expect((await server.get("/market/manifest.json", via("7.7.7.7, 198.51.100.1, 10.0.0.2"))).status).toBe(429);
      expect((await server.get("/market/manifest.json", via("6.6.6.6, 198.51.100.2, 10.0.0.1"))).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("one address in any spelling, and any address of one IPv6 /64, is one client", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: 1 });
    try {
      const from = (address: string) => server.get("/market/manifest.json", { "X-Forwarded-For": address });
      expect((await from("2001:db8::1")).status).toBe(200);
      for (const same of ["2001:db8:0:0:0:0:0:1", "2001:DB8::1", "2001:db8::2", "2001:db8::ffff:ffff:ffff:ffff"]) {
        expect((await from(same)).status).toBe(429);
      }
      expect((await from("2001:db8:0:1::1")).status).toBe(200);
      expect((await from("::ffff:192.0.2.9")).status).toBe(200);
      expect((await from("192.0.2.9")).status).toBe(429);
      expect((await from("192.0.2.10")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("rate limit keys", () => {
  test("an IPv4 client has a window per endpoint, apart from every other client's", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: 1 });
    try {
      const get = (path: string, address: string) => server.get(path, { "X-Forwarded-For": address });
      for (const path of ENDPOINTS) expect((await get(path, "198.51.100.7")).status).toBe(200);
      for (const path of ENDPOINTS) expect((await get(path, "198.51.100.7")).status).toBe(429);
      for (const other of ["198.51.100.8", "198.51.101.7", "2001:db8::c633:6407", "::ffff:198.51.100.6"]) {
        expect((await get(ENDPOINTS[0]!, other)).status).toBe(200);
      }
    } finally {
      await server.stop();
    }
  });
});

describe("rate limit headers on every answer of a limited endpoint", () => {
  let server: TestServer;
  let client = 0;
  const from = (headers: Record<string, string> = {}) => ({ "X-Forwarded-For": `10.9.0.${++client}`, ...headers });
  beforeAll(() => {
    server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: true });
  });
  afterAll(() => server.stop());

  function expectLimitHeaders(response: Response, reset: number): void {
    expect(response.headers.get("ratelimit-limit")).toBe("1");
    expect(response.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(response.headers.get("ratelimit-reset"))).toBe(reset);
  }

  test("an admitted request that fails (400, 404) still reports its limit", async () => {
    const bad = await server.get("/api/v1/plugins?sort=nope", from());
    expect(bad.status).toBe(400);
    expectLimitHeaders(bad, 60);
    const missing = await server.get("/api/v1/plugins/nobody/nothing", from());
    expect(missing.status).toBe(404);
    expectLimitHeaders(missing, 60);
  });

  test("a 304, plain and gzip answers carry it; a 429 carries it with Retry-After", async () => {
    const first = await server.get("/plugins/feed.xml", from({ "Accept-Encoding": "identity" }));
    expectLimitHeaders(first, 60);
    const zipped = await server.get("/plugins/feed.xml", from({ "Accept-Encoding": "gzip" }));
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expectLimitHeaders(zipped, 60);
    const notModified = await server.get("/plugins/feed.xml", from({ "If-None-Match": first.headers.get("etag")! }));
    expect(notModified.status).toBe(304);
    expectLimitHeaders(notModified, 60);
    const again = { "X-Forwarded-For": "10.9.1.1" };
    expect((await server.get("/plugins/feed.xml", again)).status).toBe(200);
    const refused = await server.get("/plugins/feed.xml", again);
    expect(refused.status).toBe(429);
    const reset = Number(refused.headers.get("retry-after"));
    expectLimitHeaders(refused, reset);
  });

  test("health answers carry no limit headers", async () => {
    const health = await server.get("/healthz", from());
    expect(health.headers.get("ratelimit-limit")).toBeNull();
  });
});
