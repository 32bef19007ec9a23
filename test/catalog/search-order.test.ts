import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PluginRecord } from "../../src/catalog/model/types";
import { COMPARATORS, heat, type Ranked, SORTS, type Sort } from "../../src/catalog/search/orders";
import { RANKED_MATCHES } from "../../src/catalog/search/ranking";
import type { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { CATEGORIES, openSnapshot, randomInput } from "./random-catalog";

/**
 * The snapshot's search pages against a brute-force reference: FTS5 only says which plugins
 * match (a plain table with no prefix index, the same columns), the test itself sorts every
 * match. Relevance (sort=default) is the index's own bm25 blended with popularity: there the
 * reference checks the set, the total and that pages tile the ranking.
 */
const input = randomInput(3000);
const QUERIES = [
  "mcp",
  "server",
  "git",
  "agent",
  "claude",
  "tool",
  "data",
  "and",
  "near",
  "AND",
  "m",
  "s",
  "a",
  "g",
  "da",
  "ser",
  "mcp-ser",
  "mcp server",
  "agent tool",
  "git code data",
  "CAFE",
  "café",
  "resume",
  "github",
  "zzz",
  "*",
  "sql*",
  '"hook"',
  "serv",
  "SERVER",
  "serverl",
  "data",
  "datab",
  "agen",
  "curated",
  "cat",
  "_cat",
  "x",
  "_",
];

let snapshot: Snapshot;
let close: () => void;
let reference: Database;
const ranked = new Map<PluginRecord, Ranked>();

beforeAll(() => {
  ({ snapshot, close } = openSnapshot(input));
  reference = new Database(":memory:");
  reference.exec(
    `CREATE VIRTUAL TABLE ref USING fts5(name, fullname, topics, description, category, tokenize = 'unicode61 remove_diacritics 2')`,
  );
  const insert = reference.prepare(
    `INSERT INTO ref (rowid, name, fullname, topics, description, category) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const words = (text: string) => text.replace(/[-_.]+/g, " ");
  for (const [i, p] of input.plugins.entries()) {
    insert.run(
      i,
      words(p.name),
      words(p.id.replace("/", " ")),
      p.topics.join(" "),
      `${p.description} ${p.description_zh ?? ""}`,
      p.categories.join(" "),
    );
  }

  for (const p of input.plugins)
    ranked.set(p, {
      record: p,
      heat: heat(p.stars, p.forks, p.pushed_at, input.snapshotAt),
      nameKey: p.name.toLowerCase(),
    });
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
  const hits = [...matching(p.join(" AND "))].filter(
    (r) => (category === null || r.categories.includes(category)) && (!curated || r.curated),
  );
  // Relevance has no reference order: its set is compared in id order.
  const order =
    sort === "default"
      ? (a: PluginRecord, b: PluginRecord) => (a.id < b.id ? -1 : 1)
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
        for (const [category, curated] of [
          [null, false],
          ["agents-workflows", false],
          ["mcp", true],
          [null, true],
        ] as const) {
          const want = expected(q, sort, category, curated);
          const got = ids(q, sort, category, curated, 0, 10_000);
          if (sort === "default") got.ids.sort((a, b) => (a < b ? -1 : 1));
          expect({ q, sort, category, curated, ...got }).toEqual({
            q,
            sort,
            category,
            curated,
            ids: want,
            total: want.length,
          });
        }
      }
    });
  }

  test("pages of any size tile the result, and a page past the end is empty", () => {
    for (const q of ["mcp", "s", "git code", "and"]) {
      for (const sort of ["default", "stars", "name"] as const) {
        const want = sort === "default" ? ids(q, sort, null, false, 0, 10_000).ids : expected(q, sort, null, false);
        for (const size of [7, 50]) {
          const pages: string[] = [];
          for (let offset = 0; offset < want.length; offset += size)
            pages.push(...ids(q, sort, null, false, offset, size).ids);
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

describe("a search matching more plugins than are ranked", () => {
  test("ranks the most-starred RANKED_MATCHES, then the rest by stars: pages tile every match once", () => {
    const big = randomInput(RANKED_MATCHES + 3000, 11);
    const { snapshot: large, close: closeLarge } = openSnapshot(big);
    try {
      const q = "a";
      const first = large.list({ q, sort: "default", category: null, curated: false, offset: 0, limit: 1 });
      expect(first.total).toBeGreaterThan(RANKED_MATCHES);
      const seen: string[] = [];
      for (let offset = 0; offset < first.total; offset += 997) {
        const page = large.list({ q, sort: "default", category: null, curated: false, offset, limit: 997 });
        seen.push(...page.items.map((json) => (JSON.parse(json) as { id: string }).id));
      }
      expect(seen.length).toBe(first.total);
      expect(new Set(seen).size).toBe(first.total);
      const byStars = large.list({
        q,
        sort: "stars",
        category: null,
        curated: false,
        offset: RANKED_MATCHES,
        limit: 50,
      });
      expect(seen.slice(RANKED_MATCHES, RANKED_MATCHES + 50)).toEqual(
        byStars.items.map((json) => (JSON.parse(json) as { id: string }).id),
      );
    } finally {
      closeLarge();
    }
  });
});
