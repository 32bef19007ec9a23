import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PluginRecord } from "../../src/catalog/model/types";
import { collectAll, plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const CATS = ["mcp", "cli", "skills", "hooks"];
const DAY = 86_400_000;

/** 123 plugins with deliberate ties in every sort key, so tiebreakers decide. */
function dataset(): PluginRecord[] {
  return Array.from({ length: 123 }, (_, i) => {
    const primary = CATS[i % 4]!;
    return plugin(`owner${i % 9}/Plugin-${String(i % 40).padStart(2, "0")}${i >= 40 ? `-${i}` : ""}`, {
      name: `${i % 3 === 0 ? "plugin" : "Plugin"}-${String(i % 40).padStart(2, "0")}${i >= 40 ? `-${i}` : ""}`,
      stars: (i * 37) % 50,
      forks: (i * 11) % 7,
      pushed_at: new Date(Date.parse("2026-08-01T00:00:00Z") - ((i * 13) % 20) * DAY)
        .toISOString()
        .replace(/\.\d+Z$/, "Z"),
      category: primary,
      categories: i % 5 === 0 ? [primary, "mcp"].filter((c, k, a) => a.indexOf(c) === k) : [primary],
      curated: i % 6 === 0,
    });
  });
}

const byId = (a: PluginRecord, b: PluginRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const heat = (p: PluginRecord) =>
  Math.log10(1 + p.stars + 2 * p.forks) *
  0.5 ** (Math.max(0, Date.parse("2026-08-22T00:00:00Z") - Date.parse(p.pushed_at)) / DAY / 30);

/** The list orders of docs/api.md, written independently of the service's code. */
const REFERENCE: Record<string, (a: PluginRecord, b: PluginRecord) => number> = {
  default: (a, b) => Number(b.curated) - Number(a.curated) || b.stars - a.stars || byId(a, b),
  name: (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase(), "en") || byId(a, b),
  stars: (a, b) => b.stars - a.stars || byId(a, b),
  forks: (a, b) => b.forks - a.forks || byId(a, b),
  updated: (a, b) => Date.parse(b.pushed_at) - Date.parse(a.pushed_at) || byId(a, b),
  heat: (a, b) => heat(b) - heat(a) || byId(a, b),
};

let server: TestServer;
const plugins = dataset();
beforeAll(() => {
  server = startServer(snapshotInput(plugins));
});
afterAll(() => server.stop());

describe("GET /api/v1/plugins orders", () => {
  for (const sort of Object.keys(REFERENCE)) {
    test(`sort=${sort} walks every page in the documented order with no overlap or gap`, async () => {
      const expected = plugins
        .slice()
        .sort(REFERENCE[sort])
        .map((p) => p.id);
      for (const pageSize of [7, 50]) {
        const { ids, totals } = await collectAll(server, `/api/v1/plugins?sort=${sort}`, pageSize);
        expect(ids).toEqual(expected);
        expect(new Set(totals)).toEqual(new Set([123]));
      }
    });
  }

  test("no sort parameter means sort=default", async () => {
    const a = await server.json("/api/v1/plugins");
    const b = await server.json("/api/v1/plugins?sort=default");
    expect(a.data.items.map((p: PluginRecord) => p.id)).toEqual(b.data.items.map((p: PluginRecord) => p.id));
  });
});

describe("GET /api/v1/plugins filters", () => {
  test("category keeps the plugins listing it among their categories, in the chosen order", async () => {
    for (const category of CATS) {
      const expected = plugins
        .filter((p) => p.categories.includes(category))
        .sort(REFERENCE.stars)
        .map((p) => p.id);
      const { ids, totals } = await collectAll(server, `/api/v1/plugins?category=${category}&sort=stars`, 10);
      expect(ids).toEqual(expected);
      expect(totals[0]).toBe(expected.length);
    }
  });

  test("curated=1 and curated=true keep only curated plugins", async () => {
    const expected = plugins
      .filter((p) => p.curated)
      .sort(REFERENCE.default)
      .map((p) => p.id);
    for (const value of ["1", "true"]) {
      const { ids } = await collectAll(server, `/api/v1/plugins?curated=${value}`, 50);
      expect(ids).toEqual(expected);
    }
  });

  test("category and curated combine", async () => {
    const expected = plugins
      .filter((p) => p.curated && p.categories.includes("mcp"))
      .sort(REFERENCE.name)
      .map((p) => p.id);
    expect(expected.length).toBeGreaterThan(2);
    const { ids } = await collectAll(server, "/api/v1/plugins?category=mcp&curated=1&sort=name", 3);
    expect(ids).toEqual(expected);
  });

  test("a known category with no plugins gives an empty list, not an error", async () => {
    const body = await server.json("/api/v1/plugins?category=guides");
    expect(body.data.items).toEqual([]);
    expect(body.data.total).toBe(0);
  });
});

describe("GET /api/v1/plugins paging", () => {
  test("defaults to page 1 of 20", async () => {
    const { data } = await server.json("/api/v1/plugins");
    expect(data.page).toBe(1);
    expect(data.pageSize).toBe(20);
    expect(data.items).toHaveLength(20);
    expect(data.total).toBe(123);
  });

  test("pageSize above 50 is capped at 50", async () => {
    const { data } = await server.json("/api/v1/plugins?pageSize=51");
    expect(data.pageSize).toBe(50);
    expect(data.items).toHaveLength(50);
    expect((await server.json("/api/v1/plugins?pageSize=100000")).data.pageSize).toBe(50);
  });

  test("a page past the end returns no items and the true total", async () => {
    const { data } = await server.json("/api/v1/plugins?page=999&pageSize=50");
    expect(data.items).toEqual([]);
    expect(data.total).toBe(123);
    expect(data.page).toBe(999);
  });

  test("the last page is partial", async () => {
    const { data } = await server.json("/api/v1/plugins?page=3&pageSize=50");
    expect(data.items).toHaveLength(23);
  });

  test("unknown parameters are ignored", async () => {
    const a = await (await server.get("/api/v1/plugins?foo=bar&sort=stars")).json();
    const b = await (await server.get("/api/v1/plugins?sort=stars")).json();
    expect(a).toEqual(b);
  });
});

describe("GET /market/v1/plugins", () => {
  test("pages through every plugin by stars descending, then id", async () => {
    const expected = plugins
      .slice()
      .sort(REFERENCE.stars)
      .map((p) => p.id);
    const { ids, totals } = await collectAll(server, "/market/v1/plugins", 17);
    expect(ids).toEqual(expected);
    expect(totals[0]).toBe(123);
  });

  test("defaults to 50 a page and caps pageSize at 100", async () => {
    const first = await server.json("/market/v1/plugins");
    expect(first.page).toBe(1);
    expect(first.pageSize).toBe(50);
    expect(first.items).toHaveLength(50);
    const capped = await server.json("/market/v1/plugins?pageSize=101");
    expect(capped.pageSize).toBe(100);
    expect(capped.items).toHaveLength(100);
  });

  test("ignores search and filters", async () => {
    const plain = await server.json("/market/v1/plugins?pageSize=5");
    const filtered = await server.json("/market/v1/plugins?pageSize=5&q=zzz&category=cli&sort=name");
    expect(filtered).toEqual(plain);
  });

  test("a page past the end returns no items and the true total", async () => {
    const body = await server.json("/market/v1/plugins?page=4&pageSize=50");
    expect(body.items).toEqual([]);
    expect(body.total).toBe(123);
  });
});
