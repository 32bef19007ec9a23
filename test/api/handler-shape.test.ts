/**
 * The catalog routes compile to synchronous handlers: Elysia makes a route asynchronous when a
 * handler's or hook's source looks like it may return a promise (see src/http/answer.ts),
 * which costs a promise and an await on every request. A route that turned asynchronous answers
 * `app.fetch` with a Promise instead of a Response, even from its cache. A miss waits for its turn
 * (src/http/turns.ts) and is the one answer that comes as a promise.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appWithSnapshot, type TestApp } from "../reliability/support/catalog";

const PATHS = [
  "/api/v1/plugins",
  "/api/v1/plugins?q=tool&sort=stars",
  "/api/v1/plugins/owner1/repo-1",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins?page=1",
  "/api/v1/listing/owner1/repo-1",
  "/badge/owner1/repo-1.svg",
  "/badge/owner1/repo-1.json?show=stars",
  "/plugins/feed.atom?category=mcp",
  "/plugins/feed.json",
  "/api/v1/suggest?q=own",
  "/browse?q=tool",
  "/categories/mcp",
  "/plugin/owner1/repo-1",
];

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

function fetchNow(app: TestApp["app"], path: string, headers: Record<string, string> = {}): unknown {
  return app.fetch(new Request(`http://localhost${path}`, { headers }));
}

describe("catalog routes answer synchronously", () => {
  for (const [label, env] of [
    ["limiter off", {}],
    ["limiter on", { RATE_LIMIT_WINDOW_MS: "60000", TRUST_PROXY: "true" }],
  ] as const) {
    test(`${label}: hits, gzip and 304s are Responses, not Promises; a miss waits for its turn`, async () => {
      t = appWithSnapshot(env);
      let client = 0;
      for (const path of PATHS) {
        const ip = () => ({ "X-Forwarded-For": `10.0.0.${++client}` });
        const miss = fetchNow(t.app, path, ip());
        expect(miss, path).toBeInstanceOf(Promise);
        expect((await miss) as Response, path).toHaveProperty("status", 200);
        const hit = fetchNow(t.app, path, { ...ip(), "Accept-Encoding": "gzip" });
        expect(hit, path).toBeInstanceOf(Response);
        const etag = (hit as Response).headers.get("etag")!;
        const notModified = fetchNow(t.app, path, { ...ip(), "If-None-Match": etag });
        expect(notModified, path).toBeInstanceOf(Response);
        expect((notModified as Response).status, path).toBe(304);
      }
    });
  }
});
