import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PluginRecord } from "../../src/catalog/model/types";
import { COMPARATORS, heat, type Ranked, SORTS, sortAll } from "../../src/catalog/search/orders";
import type { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { CATEGORIES, openSnapshot, randomInput, randomPlugins } from "./random-catalog";

const input = randomInput(2000, 11);
let snapshot: Snapshot;
let close: () => void;

beforeAll(() => ({ snapshot, close } = openSnapshot(input)));
afterAll(() => close());

function rankedOf(seed: number): Ranked[] {
  return randomPlugins(2000, seed).map((record) => ({
    record,
    heat: heat(record.stars, record.forks, record.pushed_at, "2026-08-22T00:00:00.000Z"),
    nameKey: record.name.toLowerCase(),
  }));
}

describe("sortAll", () => {
  test("orders the feed as SQL would: first seen desc, created_at desc, id with NOCASE", () => {
    const entries = rankedOf(4);
    expect(
      sortAll(entries)
        .get("newest")!
        .map((r) => r.record.id),
    ).toEqual(newestBySql(entries.map((r) => r.record)));
  });
});

/** The feed order as the id column's NOCASE collation sorts it: the reference. */
function newestBySql(plugins: PluginRecord[]): string[] {
  const db = new Database(":memory:");
  db.exec(`CREATE TABLE t (id TEXT COLLATE NOCASE, first_seen_at TEXT, created_at TEXT)`);
  const insert = db.prepare(`INSERT INTO t VALUES (?, ?, ?)`);
  for (const p of plugins) insert.run(p.id, p.first_seen_at, p.created_at);
  const rows = db.query<{ id: string }, []>(`SELECT id FROM t ORDER BY first_seen_at DESC, created_at DESC, id`).all();
  db.close();
  return rows.map((r) => r.id);
}

describe("list pages without q against a brute-force sort", () => {
  const ids = (items: string[]) => items.map((json) => (JSON.parse(json) as { id: string }).id);

  test("every sort and filter, read through deep pages, is the comparator order of the filtered plugins", () => {
    const ranked = input.plugins.map((record) => ({
      record,
      heat: heat(record.stars, record.forks, record.pushed_at, input.snapshotAt),
      nameKey: record.name.toLowerCase(),
    }));
    for (const sort of SORTS) {
      for (const category of [null, ...CATEGORIES]) {
        for (const curated of [false, true]) {
          const want = ranked
            .filter(
              (r) => (category === null || r.record.categories.includes(category)) && (!curated || r.record.curated),
            )
            .sort(COMPARATORS[sort])
            .map((r) => r.record.id);
          const got: string[] = [];
          for (let offset = 0; offset < want.length; offset += 37)
            got.push(...ids(snapshot.list({ q: null, sort, category, curated, offset, limit: 37 }).items));
          expect({ sort, category, curated, got }).toEqual({ sort, category, curated, got: want });
          expect(snapshot.list({ q: null, sort, category, curated, offset: want.length, limit: 20 })).toEqual({
            items: [],
            total: want.length,
          });
        }
      }
    }
  });

  test("the sync list is the stars order and the feed the newest first", () => {
    const byStars = input.plugins
      .map((record) => ({ record, heat: 0, nameKey: "" }))
      .sort(COMPARATORS.stars)
      .map((r) => r.record.id);
    const sync = snapshot.byStars(100, 50).items.map((json) => (JSON.parse(json) as { id: string }).id);
    expect(sync).toEqual(byStars.slice(100, 150));
    expect(snapshot.newest(50).map((row) => row.full_name)).toEqual(newestBySql(input.plugins).slice(0, 50));
  });
});
