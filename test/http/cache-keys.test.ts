/** One cache entry per meaning: a query's variants that mean the same reach the entry its first spelling made. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;

beforeAll(() => {
  server = startServer(
    snapshotInput([
      plugin("acme/postgres-mcp", { categories: ["mcp"], stars: 50, description: "postgres tools" }),
      plugin("acme/skill", { categories: ["skills"], stars: 30, curated: true, description: "a skill" }),
      plugin("acme/hook", { categories: ["hooks"], stars: 20, description: "postgres hook" }),
    ]),
  );
});
// The snapshot's sync documents written before any request: a first `changes` is a miss all the same.
beforeAll(async () => {
  await (await fetch(`${server.url}/market/v1/catalog.json`)).arrayBuffer();
});
afterAll(() => server.stop());

/** The cache field of each request's log line, in order, for `paths` asked one after another. */
async function cacheUse(paths: string[]): Promise<Array<[string, unknown, unknown]>> {
  const out: Array<[string, unknown, unknown]> = [];
  for (const path of paths) {
    const before = server.lines.length;
    const res = await server.get(path);
    const body = await res.text();
    const line = server.lines.slice(before).find((l) => l.event === "request");
    out.push([path, res.status, line?.cache]);
    expect(body.length, path).toBeGreaterThan(0);
  }
  return out;
}

const since = encodeURIComponent(SNAPSHOT_AT);

describe("the cache key is the parsed query, not its spelling", () => {
  test.each([
    [
      "/api/v1/plugins",
      [
        "?q=postgres&sort=stars",
        "?sort=stars&q=postgres",
        "?q=postgres&sort=stars&x=1",
        "?x=2&q=%70ostgres&sort=stars",
        "?q=+postgres+&sort=stars&page=1&pageSize=20&category=",
        `?q=postgres&sort=stars&snapshot=${since}`,
      ],
    ],
    ["/market/v1/plugins", ["", "?x=1", "?page=1&pageSize=50", "?pageSize=50&_=3", `?snapshot=${since}`]],
    [
      "/api/v1/plugins/acme/skill",
      ["?include=install,flags", "?include=flags,install&x=1", "?x=2&include=flags%2Cinstall"],
    ],
    ["/api/v1/plugins", ["?include=install,flags", "?include=flags,install,flags&y=1"]],
    [
      "/market/v1/changes",
      [`?since=${SNAPSHOT_AT}`, `?since=${since}`, `?x=1&since=${SNAPSHOT_AT}`, `?since=${SNAPSHOT_AT}&x=%3A`],
    ],
    ["/api/v1/categories", ["?q=postgres&curated=1", "?curated=true&q=postgres", "?q=postgres&curated=1&junk=1"]],
    ["/plugins/feed.json", ["?category=mcp", "?category=mcp&x=1", "?x=2&category=%6Dcp"]],
    ["/api/v1/suggest", ["?q=Post", "?q=post", "?q=+post+&x=1"]],
    ["/browse", ["?q=postgres&sort=stars", "?sort=stars&q=postgres&pageSize=5", "?q=postgres&sort=stars&page=1"]],
    ["/categories/mcp", ["", "?page=1&sort=default", "?x=1"]],
  ])("%s: every variant after the first is a hit", async (path, queries) => {
    const use = await cacheUse(queries.map((q) => `${path}${q}`));
    expect(use.map(([, status]) => status)).toEqual(queries.map(() => 200));
    expect(use.map(([, , cache]) => cache)).toEqual(["miss", ...queries.slice(1).map(() => "hit")]);
  });

  test("every repository not listed shares one badge per form; a listed one has its own", async () => {
    const use = await cacheUse([
      "/badge/acme/nothing.svg",
      "/badge/acme/else.svg?show=stars",
      "/badge/other/thing.svg?show=category",
      "/badge/acme/nothing.json",
      "/badge/acme/skill.svg",
      "/badge/ACME/Skill.svg?x=1",
      "/badge/acme/skill.svg?show=stars",
    ]);
    expect(use.map(([, , cache]) => cache)).toEqual(["miss", "hit", "hit", "miss", "miss", "hit", "miss"]);
  });

  test("a query that means something else is its own entry", async () => {
    const use = await cacheUse(["/api/v1/plugins?q=hook&sort=name", "/api/v1/plugins?q=hook&sort=stars"]);
    expect(use.map(([, , cache]) => cache)).toEqual(["miss", "miss"]);
  });

  test("a stale pin is still refused after its unpinned page was cached", async () => {
    await server.get("/market/v1/plugins?page=2");
    const res = await server.get("/market/v1/plugins?page=2&snapshot=2026-08-21T00:00:00.000Z");
    expect(res.status).toBe(409);
  });

  test("a bad value is still a 400 naming its parameter", async () => {
    const res = await server.get("/api/v1/plugins?sort=stars&page=0&x=1");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('"page"');
  });
});
