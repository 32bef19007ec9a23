import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const ENDPOINTS = ["/api/v1/plugins", "/api/v1/plugins/acme/one", "/plugins/feed.xml", "/market/manifest.json", "/market/v1/plugins"];
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
    const server = startServer(input, { rateLimitWindowMs: 300 });
    try {
      expect((await server.get("/market/manifest.json")).status).toBe(200);
      const limited = await server.get("/market/manifest.json");
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("1");
      await Bun.sleep(350);
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

  test("with TRUST_PROXY the right-most X-Forwarded-For address (the proxy's) is the client", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: true });
    try {
      expect((await server.get("/market/manifest.json", { "X-Forwarded-For": "10.0.0.1, 1.1.1.1" })).status).toBe(200);
      expect((await server.get("/market/manifest.json", { "X-Forwarded-For": "10.0.0.1, 2.2.2.2" })).status).toBe(200);
      expect((await server.get("/market/manifest.json", { "X-Forwarded-For": "1.1.1.1" })).status).toBe(429);
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

describe("clients that try to escape the limit", () => {
  test("a client varying its own X-Forwarded-For entry stays one client behind one trusted proxy", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: 1 });
    try {
      const get = (forwardedFor: string) => server.get("/market/manifest.json", { "X-Forwarded-For": forwardedFor });
      expect((await get("1.1.1.1, 198.51.100.7")).status).toBe(200);
      for (const forged of ["2.2.2.2, 198.51.100.7", "3.3.3.3,198.51.100.7", "a, b, 198.51.100.7"]) {
        expect((await get(forged)).status).toBe(429);
      }
    } finally {
      await server.stop();
    }
  });

  test("IPv6 spellings, the next address of a /64 and IPv4-mapped addresses are one client each", async () => {
    const server = startServer(input, { rateLimitWindowMs: 60_000, trustProxy: 1 });
    const get = (ip: string) => server.get("/market/manifest.json", { "X-Forwarded-For": ip });
    try {
      expect((await get("2001:db8::1")).status).toBe(200);
      expect((await get("2001:db8:0:0:0:0:0:1")).status).toBe(429);
      expect((await get("2001:db8::2")).status).toBe(429);
      expect((await get("2001:db8:0:0:ffff::1")).status).toBe(429);
      expect((await get("2001:db8:0:1::1")).status).toBe(200);
      expect((await get("::ffff:192.0.2.9")).status).toBe(200);
      expect((await get("192.0.2.9")).status).toBe(429);
    } finally {
      await server.stop();
    }
  });
});
