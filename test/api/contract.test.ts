/** The embedded default snapshot served over HTTP, checked field by field against the contract. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadDefaultData } from "../../src/catalog/model/editorial";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { collectAll, FULL_FIELDS, startServer, type TestServer } from "../helpers";

const SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SHORT_FIELDS = ["id", "name", "full_name", "url", "description", "category", "stars", "pushed_at"];
const BASE = "https://catalog.example.net";

let server: TestServer;
beforeAll(() => {
  server = startServer(defaultSnapshotInput(), { baseUrl: BASE });
});
afterAll(() => server.stop());

function expectFullPlugin(p: Record<string, unknown>) {
  expect(Object.keys(p).sort()).toEqual([...FULL_FIELDS].sort());
  expect(p.id).toBe(p.full_name);
  expect(p.full_name).toMatch(/^[^/]+\/[^/]+$/);
  expect(p.name).toBe((p.id as string).split("/")[1]!);
  expect(p.url).toBe(`https://github.com/${p.id}`);
  expect(p.homepage === null || typeof p.homepage === "string").toBe(true);
  expect(p.homepage).not.toBe("");
  expect(typeof p.description).toBe("string");
  expect(p.description_zh === null || typeof p.description_zh === "string").toBe(true);
  expect(typeof p.category).toBe("string");
  expect(Array.isArray(p.categories)).toBe(true);
  expect((p.categories as string[])[0]).toBe(p.category as string);
  expect(Number.isInteger(p.stars) && (p.stars as number) >= 0).toBe(true);
  expect(Number.isInteger(p.forks) && (p.forks as number) >= 0).toBe(true);
  expect(typeof p.language).toBe("string");
  expect(typeof p.license).toBe("string");
  expect(typeof p.archived).toBe("boolean");
  expect(p.created_at).toMatch(SECONDS);
  expect(p.pushed_at).toMatch(SECONDS);
  expect(Array.isArray(p.topics) && (p.topics as unknown[]).every((t) => typeof t === "string")).toBe(true);
}

describe("the embedded default snapshot", () => {
  test("holds over 700 real plugins, 25+ curated with Chinese descriptions, 8+ categories in use", async () => {
    const all = await server.json("/api/v1/plugins");
    expect(all.data.total).toBeGreaterThan(700);
    const curated = await collectAll(server, "/api/v1/plugins?curated=1", 50);
    expect(curated.ids.length).toBeGreaterThanOrEqual(25);
    for (const id of curated.ids) {
      const { data } = await server.json(`/api/v1/plugins/${id}`);
      expect(data.plugin.description_zh).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await server.json("/market/manifest.json")).stats.categories).toBeGreaterThanOrEqual(8);
  });

  test("invents no numbers: stars, forks and times are the recorded facts", async () => {
    const facts = new Map(loadDefaultData().facts.map((f) => [f.full_name, f]));
    const { data } = await server.json("/api/v1/plugins?pageSize=50&sort=updated");
    for (const p of data.items) {
      const fact = facts.get(p.id)!;
      expect(fact).toBeDefined();
      expect(p.stars).toBe(fact.stars);
      expect(p.forks).toBe(fact.forks);
      expect(Date.parse(p.created_at)).toBe(Date.parse(fact.created_at));
      expect(Date.parse(p.pushed_at)).toBe(Date.parse(fact.pushed_at));
    }
  });
});

describe("field sets and types", () => {
  test("GET /api/v1/plugins: envelope, paging fields and full-form plugins", async () => {
    const body = await server.json("/api/v1/plugins?pageSize=50");
    expect(Object.keys(body).sort()).toEqual(["code", "data", "message"]);
    expect(body.code).toBe(0);
    expect(body.message).toBe("ok");
    expect(Object.keys(body.data).sort()).toEqual(["generatedAt", "items", "page", "pageSize", "total"]);
    expect(body.data.generatedAt).toMatch(MILLIS);
    expect(body.data.items).toHaveLength(50);
    for (const p of body.data.items) expectFullPlugin(p);
  });

  test("GET /api/v1/plugins/:owner/:repo: the same full form and generatedAt", async () => {
    const list = await server.json("/api/v1/plugins?pageSize=1&sort=stars");
    const first = list.data.items[0];
    const body = await server.json(`/api/v1/plugins/${first.id}`);
    expect(body.code).toBe(0);
    expect(body.message).toBe("ok");
    expect(Object.keys(body.data).sort()).toEqual(["generatedAt", "plugin"]);
    expect(body.data.plugin).toEqual(first);
    expect(body.data.generatedAt).toBe(list.data.generatedAt);
  });

  test("GET /market/v1/plugins: bare paging object of short-form plugins", async () => {
    const body = await server.json("/market/v1/plugins?pageSize=100");
    expect(Object.keys(body).sort()).toEqual(["generatedAt", "items", "page", "pageSize", "total"]);
    expect(body.generatedAt).toMatch(MILLIS);
    for (const p of body.items) {
      expect(Object.keys(p).sort()).toEqual([...SHORT_FIELDS].sort());
      const full = (await server.json(`/api/v1/plugins/${p.id}`)).data.plugin;
      for (const field of SHORT_FIELDS) expect(p[field]).toEqual(full[field]);
    }
  });

  test("GET /market/manifest.json: the source manifest", async () => {
    const m = await server.json("/market/manifest.json");
    expect(Object.keys(m).sort()).toEqual([
      "apiVersion",
      "baseUrl",
      "description",
      "endpoints",
      "id",
      "name",
      "snapshotAt",
      "stats",
    ]);
    expect(m.apiVersion).toBe("v1");
    expect(m.baseUrl).toBe(BASE);
    expect(typeof m.name).toBe("string");
    expect(typeof m.id).toBe("string");
    expect(typeof m.description).toBe("string");
    expect(m.snapshotAt).toMatch(MILLIS);
    expect(m.endpoints).toEqual([
      { id: "manifest", method: "GET", url: `${BASE}/market/manifest.json`, description: expect.any(String) },
      { id: "plugins", method: "GET", url: `${BASE}/market/v1/plugins`, description: expect.any(String) },
    ]);
  });

  test("the manifest's stats equal what the list endpoints count", async () => {
    const { stats, snapshotAt } = await server.json("/market/manifest.json");
    expect(Object.keys(stats).sort()).toEqual(["categories", "curated", "total", "totalStars"]);
    expect(stats.total).toBe((await server.json("/api/v1/plugins")).data.total);
    expect(stats.curated).toBe((await server.json("/api/v1/plugins?curated=1")).data.total);
    const sync = await collectAll(server, "/market/v1/plugins", 100);
    expect(sync.ids).toHaveLength(stats.total);
    let stars = 0;
    for (let page = 1; (page - 1) * 100 < stats.total; page++) {
      const body = await server.json(`/market/v1/plugins?page=${page}&pageSize=100`);
      expect(body.generatedAt).toBe(snapshotAt);
      for (const p of body.items) stars += p.stars;
    }
    expect(stats.totalStars).toBe(stars);
    const categoryIds = ((await (await server.get("/api/v1/plugins?category=!")).json()) as any).message
      .match(/one of (.*)\./)[1]
      .split(", ");
    let inUse = 0;
    for (const id of categoryIds) if ((await server.json(`/api/v1/plugins?category=${id}`)).data.total > 0) inUse++;
    expect(stats.categories).toBe(inUse);
  });
});
