/**
 * READ_TOKEN makes the catalog private: every answer but the health checks needs the bearer token
 * (compared in constant time), and every answer tells caches it is private. Without it the catalog
 * is open, as the contract says.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const TOKEN = "a-read-token-of-some-length";
let server: TestServer;

beforeAll(() => {
  server = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]), { config: { readToken: TOKEN } });
});
afterAll(() => server.stop());

const ask = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
const withToken = (token = TOKEN) => ({ headers: { authorization: `Bearer ${token}` } });

const PRIVATE = [
  "/api/v1/plugins",
  "/api/v1/plugins/acme/one",
  "/api/v1/categories",
  "/api/v1/suggest?q=on",
  "/api/v1/listing/acme/one",
  "/api/v1/lookup?ids=acme/one",
  "/plugins/feed.xml",
  "/plugins/feed.atom",
  "/plugins/feed.json",
  "/market/manifest.json",
  "/market/v1/catalog.json",
  "/market/claude/marketplace.json",
  "/market/claude/managed-settings.json",
  "/market/vscode/settings.json",
  "/review",
  "/v0.1/servers",
  "/badge/acme/one.svg",
  "/browse",
  "/plugin/acme/one",
  "/",
  "/openapi.json",
  "/docs",
  "/assets/site.css",
  "/no/such/path",
];

describe("with READ_TOKEN", () => {
  test("no answer but the health checks without the token: 401 in the error shape, with a Bearer challenge", async () => {
    for (const path of PRIVATE) {
      for (const init of [{}, withToken("a-read-token-of-some-lengtX"), { headers: { authorization: TOKEN } }]) {
        const response = await ask(path, init);
        expect([path, response.status]).toEqual([path, 401]);
        expect(response.headers.get("www-authenticate")).toBe('Bearer realm="catalog"');
        expect(response.headers.get("cache-control")).toBe("no-store");
        // The contract's shape, or the MCP registry API's own (`{error}`) under /v0.1.
        const body = await response.json();
        const message = path.startsWith("/v0.1/") ? body.error : body.message;
        if (!path.startsWith("/v0.1/")) expect([path, body.code]).toEqual([path, 401]);
        expect(message).toContain("Authorization: Bearer");
      }
    }
    const post = await ask("/api/v1/lookup", { method: "POST", body: JSON.stringify({ ids: ["acme/one"] }) });
    expect(post.status).toBe(401);
    for (const path of ["/healthz", "/readyz"]) expect((await ask(path)).status).toBe(200);
    // A CORS preflight carries no credentials: it is answered, and says nothing of the data.
    expect((await ask("/api/v1/plugins", { method: "OPTIONS" })).status).toBe(204);
  });

  test("with the token every answer is served, private to caches: Cache-Control private and Vary: Authorization", async () => {
    for (const path of PRIVATE.slice(0, -1)) {
      const response = await ask(path, withToken());
      expect([path, response.status]).toEqual([path, 200]);
      const cacheControl = response.headers.get("cache-control") ?? "";
      expect([path, cacheControl.startsWith("public")]).toEqual([path, false]);
      expect([path, response.headers.get("vary") ?? ""]).toEqual([path, expect.stringContaining("Authorization")]);
    }
    const first = await ask("/api/v1/plugins", withToken());
    expect(first.headers.get("cache-control")).toBe("private, max-age=300");
    const again = await ask("/api/v1/plugins", {
      headers: { authorization: `Bearer ${TOKEN}`, "if-none-match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("private, max-age=300");
  });
});

test("/openapi.json names the bearer scheme on every path that needs it, and none on the health checks", async () => {
  const doc = await (await ask("/openapi.json", withToken())).json();
  expect(doc.components.securitySchemes.readToken).toMatchObject({ type: "http", scheme: "bearer" });
  expect(doc.paths["/api/v1/plugins"].get.security).toEqual([{ readToken: [] }]);
  expect(doc.paths["/api/v1/plugins"].head.security).toEqual([{ readToken: [] }]);
  expect(doc.paths["/api/v1/lookup"].post.security).toEqual([{ readToken: [] }]);
  expect(doc.paths["/healthz"].get.security).toBeUndefined();
  expect(doc.info.description).toContain("Authorization: Bearer");
});

test("without READ_TOKEN /openapi.json names no scheme", async () => {
  const open = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]));
  try {
    const doc = await (await fetch(`${open.url}/openapi.json`)).json();
    expect(doc.components.securitySchemes).toBeUndefined();
    expect(doc.paths["/api/v1/plugins"].get.security).toBeUndefined();
  } finally {
    await open.stop();
  }
});

test("without READ_TOKEN the catalog answers without a token, public to caches", async () => {
  const open = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]));
  try {
    const response = await fetch(`${open.url}/api/v1/plugins`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("vary") ?? "").not.toContain("Authorization");
  } finally {
    await open.stop();
  }
});
