/**
 * One budget per kind of work, whatever the route: the pages are one burst group per client, a
 * page's search the cache does not answer costs what the list API's search costs, and with Redis
 * every instance counts a burst group in one table.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisLink } from "../../src/cluster/redis";
import { RedisLimits } from "../../src/cluster/shared-limit";
import { PAGES_RULE } from "../../src/web/page-routes";
import { RedisServer } from "../cluster/redis-server";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const input = snapshotInput([
  plugin("acme/one", { stars: 5, description: "Postgres tools", category: "mcp" }),
  plugin("acme/two", { stars: 3, description: "Browser automation", category: "skills" }),
]);

/** Sends the pages one after another, cycling through `paths`, and gives back their statuses. */
async function statuses(urls: Array<(i: number) => string>, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await fetch(urls[i % urls.length]!(i))).status);
  return out;
}

describe("the pages' burst group is keyed by client, not by route", () => {
  let server: TestServer;
  beforeAll(() => {
    server = startServer(input, { rateLimitWindowMs: 2000 });
  });
  afterAll(() => server.stop());

  test(`a client alternating /browse, /categories/{id} and /plugin/… gets 429 after ${PAGES_RULE.burst} pages`, async () => {
    const pages = [
      () => `${server.url}/browse`,
      () => `${server.url}/categories/mcp`,
      () => `${server.url}/plugin/acme/one`,
    ];
    const got = await statuses(pages, 3 * PAGES_RULE.burst);
    const admitted = got.filter((s) => s === 200).length;
    // The burst, and at most one more the refill of the time the requests took allows.
    expect(admitted).toBeGreaterThanOrEqual(PAGES_RULE.burst);
    expect(admitted).toBeLessThanOrEqual(PAGES_RULE.burst + 1);
    expect(got.slice(0, PAGES_RULE.burst)).toEqual(Array(PAGES_RULE.burst).fill(200));
    // Every route of the group refuses once the budget is spent.
    const refused = got.map((s, i) => [s, i % 3] as const).filter(([s]) => s === 429);
    expect(new Set(refused.map(([, route]) => route))).toEqual(new Set([0, 1, 2]));
  });
});

describe("a page's search the cache does not answer costs what the list API's search costs", () => {
  let server: TestServer;
  beforeAll(() => {
    server = startServer(input, { rateLimitWindowMs: 60_000 });
  });
  afterAll(() => server.stop());

  test("a second uncached search within the window is refused on any page; cached ones and plain pages are not", async () => {
    const first = await fetch(`${server.url}/browse?q=postgres`);
    expect(first.status).toBe(200);
    // Another search not in the cache: the list API's budget (one per window) is spent.
    // Checked against /openapi.json, as every answer of server.get is.
    const second = await server.get("/categories/mcp?q=automation");
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    expect(second.headers.get("cache-control")).toBe("no-store");
    const body = (await second.json()) as { code: number; message: string };
    expect(body.code).toBe(429);
    expect(body.message).toContain("/api/v1/plugins");
    expect("data" in body).toBe(false);
    // The same search again is answered from the cache: cheap, admitted.
    expect((await fetch(`${server.url}/browse?q=postgres`)).status).toBe(200);
    // Pages without a search draw on the pages' group alone.
    expect((await fetch(`${server.url}/browse?sort=stars`)).status).toBe(200);
    expect((await fetch(`${server.url}/plugin/acme/two`)).status).toBe(200);
    // And the page's search was the API's one search of the window.
    expect((await fetch(`${server.url}/api/v1/plugins?q=browser`)).status).toBe(429);
  });

  test("an API search spends the budget of the pages' uncached searches", async () => {
    const other = startServer(input, { rateLimitWindowMs: 60_000 });
    try {
      expect((await fetch(`${other.url}/api/v1/plugins?q=tools`)).status).toBe(200);
      expect((await fetch(`${other.url}/browse?q=tools`)).status).toBe(429);
    } finally {
      await other.stop();
    }
  });
});

describe("with Redis, two instances share a burst group", () => {
  let redis: RedisServer;
  let link: RedisLink;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    redis = await new RedisServer().start();
    link = new RedisLink(redis.url, () => {});
    await link.connect();
    for (let i = 0; i < 2; i++) {
      servers.push(startServer(input, { rateLimitWindowMs: 2000, sharedLimits: new RedisLimits(link) }));
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    link.close();
    await redis.stop();
  });

  test(`a client alternating between the instances gets ${PAGES_RULE.burst} pages in all, not on each`, async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const got = await statuses([() => `${a.url}/browse`, () => `${b.url}/categories/mcp`], 2 * PAGES_RULE.burst);
    const admitted = got.filter((s) => s === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(PAGES_RULE.burst);
    expect(admitted).toBeLessThanOrEqual(PAGES_RULE.burst + 1);
    // Both instances refuse: the budget each saw spent was spent on both.
    expect(got.filter((s, i) => s === 429 && i % 2 === 0).length).toBeGreaterThan(0);
    expect(got.filter((s, i) => s === 429 && i % 2 === 1).length).toBeGreaterThan(0);
    const refused = await fetch(`${a.url}/browse`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-limit")).toBe(String(PAGES_RULE.burst));
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("the admitted pages report the shared budget left", async () => {
    const fresh = startServer(input, { rateLimitWindowMs: 2000, sharedLimits: new RedisLimits(link) });
    servers.push(fresh);
    // The suggest group, fresh for this client.
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${fresh.url}/api/v1/suggest?q=ac`);
      expect(r.status).toBe(200);
      remaining.push(r.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["4", "3", "2"]);
    // Counted in Redis, one key per group and client, none per route.
    const keys = (await link.run((c) => c.send("KEYS", ["catalog:burst:*"]))) as string[];
    expect(keys.sort()).toEqual(["catalog:burst:pages 127.0.0.1", "catalog:burst:suggest 127.0.0.1"]);
  });
});
