import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { COMPARATORS, heat, SORTS, type Ranked, type Sort } from "../../src/catalog/orders";
import type { Snapshot } from "../../src/catalog/snapshot";
import type { PluginRecord } from "../../src/catalog/types";
import { CATEGORIES, openSnapshot, randomInput } from "./random-catalog";

/**
 * The snapshot's search pages against a brute-force reference: FTS5 only says which plugins
 * match (a plain table with no prefix index), the test itself ranks every match and sorts.
 */
const input = randomInput(3000);
const QUERIES = [
  "mcp", "server", "git", "agent", "claude", "tool", "data", "and", "near", "AND", "m", "s", "a", "g", "da", "ser",
  "mcp-ser", "mcp server", "agent tool", "git code data", "CAFE", "café", "resume", "github", "zzz", "*", "sql*", "\"hook\"",
  "serv", "SERVER", "serverl", "data", "datab", "agen", "curated", "cat", "_cat", "x", "_",
];

let snapshot: Snapshot;
let close: () => void;
let reference: Database;
const starsRank = new Map<PluginRecord, number>();
const ranked = new Map<PluginRecord, Ranked>();

beforeAll(() => {
  ({ snapshot, close } = openSnapshot(input));
  reference = new Database(":memory:");
  reference.exec(`CREATE VIRTUAL TABLE ref USING fts5(name, topics, description, tokenize = 'unicode61 remove_diacritics 2')`);
  const insert = reference.prepare(`INSERT INTO ref (rowid, name, topics, description) VALUES (?, ?, ?, ?)`);
  input.plugins.forEach((p, i) => insert.run(i, p.name.replace(/[-_.]+/g, " "), p.topics.join(" "), p.description));
  for (const p of input.plugins) ranked.set(p, { record: p, heat: heat(p.stars, p.forks, p.pushed_at, input.snapshotAt), nameKey: p.name.toLowerCase() });
  [...ranked.values()].sort(COMPARATORS.stars).forEach((r, i) => starsRank.set(r.record, i));
});
afterAll(() => {
  close();
  reference.close();
});

/** The phrases of `q` as the contract reads it: one per word, its last token a prefix. */
function phrases(q: string): string[] {
  return q.split(/\s+/).flatMap((w) => {
    const tokens = w.match(/[\p{L}\p{N}\p{Co}\p{M}]+/gu);
    return tokens ? [`"${tokens.join(" ")}"*`] : [];
  });
}

function matching(expression: string): Set<PluginRecord> {
  const rows = reference.query<{ rowid: number }, [string]>(`SELECT rowid FROM ref WHERE ref MATCH ?`).all(expression);
  return new Set(rows.map((r) => input.plugins[r.rowid]!));
}

function expected(q: string, sort: Sort, category: string | null, curated: boolean): string[] {
  const p = phrases(q);
  if (p.length === 0) return [];
  const name = matching(`name : (${p.join(" OR ")})`);
  const topics = matching(`topics : (${p.join(" OR ")})`);
  const tier = (r: PluginRecord) => (name.has(r) ? 0 : topics.has(r) ? 1 : 2);
  const hits = [...matching(p.join(" AND "))].filter(
    (r) => (category === null || r.categories.includes(category)) && (!curated || r.curated),
  );
  const order = sort === "default"
    ? (a: PluginRecord, b: PluginRecord) => tier(a) - tier(b) || starsRank.get(a)! - starsRank.get(b)!
    : (a: PluginRecord, b: PluginRecord) => COMPARATORS[sort](ranked.get(a)!, ranked.get(b)!);
  return hits.sort(order).map((r) => r.id);
}

function ids(q: string, sort: Sort, category: string | null, curated: boolean, offset: number, limit: number) {
  const page = snapshot.list({ q, sort, category, curated, offset, limit });
  return { ids: page.items.map((json) => (JSON.parse(json) as { id: string }).id), total: page.total };
}

describe("search order against a brute-force ranking of 3,000 plugins", () => {
  for (const sort of SORTS) {
    test(`sort=${sort}: every query and filter gives the documented order and the true total`, () => {
      for (const q of QUERIES) {
        for (const [category, curated] of [[null, false], ["agents-workflows", false], ["mcp", true], [null, true]] as const) {
          const want = expected(q, sort, category, curated);
          expect({ q, sort, category, curated, ...ids(q, sort, category, curated, 0, 10_000) }).toEqual({ q, sort, category, curated, ids: want, total: want.length });
        }
      }
    });
  }

  test("pages of any size tile the result, across tier boundaries, and a page past the end is empty", () => {
    for (const q of ["mcp", "s", "git code", "and"]) {
      for (const sort of ["default", "stars", "name"] as const) {
        const want = expected(q, sort, null, false);
        for (const size of [7, 50]) {
          const pages: string[] = [];
          for (let offset = 0; offset < want.length; offset += size) pages.push(...ids(q, sort, null, false, offset, size).ids);
          expect(pages).toEqual(want);
        }
        expect(ids(q, sort, null, false, want.length, 20)).toEqual({ ids: [], total: want.length });
      }
    }
  });

  test("category filters never mix ids that differ only in punctuation", () => {
    for (const category of CATEGORIES) {
      const got = ids("mcp", "stars", category, false, 0, 10_000);
      expect(got.ids).toEqual(expected("mcp", "stars", category, false));
    }
  });
});
