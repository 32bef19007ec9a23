/**
 * The broadest prefixes' rows, stored as sets: each is what the index answers for its phrase, and
 * a search of such words, counted and paged from them, answers what the index alone answers (a
 * copy of the file without the sets, as a build from before them would be).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import fc from "fast-check";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BROAD_SHARE, hasRow } from "../../src/catalog/broadsets";
import { buildSnapshot } from "../../src/catalog/build";
import { FtsIndex } from "../../src/catalog/fts";
import { SORTS } from "../../src/catalog/orders";
import { Snapshot } from "../../src/catalog/snapshot";
import { CATEGORIES, randomInput } from "./random-catalog";

const input = randomInput(2000, 11);
const half = input.plugins.length * BROAD_SHARE;
let dir: string;
let db: Database;
let withSets: Snapshot;
let indexOnly: Snapshot;
let broad: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "broad-sets-"));
  const path = join(dir, "catalog.sqlite");
  buildSnapshot(path, input);
  const plain = join(dir, "index-only.sqlite");
  copyFileSync(path, plain);
  const writable = new Database(plain);
  writable.exec("DROP TABLE broad_sets");
  writable.close();
  db = new Database(path, { readonly: true });
  withSets = Snapshot.open(path);
  indexOnly = Snapshot.open(plain);
  broad = db.query<{ phrase: string }, []>("SELECT phrase FROM broad_sets ORDER BY phrase").all().map((r) => r.phrase);
});

afterAll(() => {
  withSets.close();
  indexOnly.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The word a stored phrase stands for: `"se"*` is what `q=se` searches. */
const wordOf = (phrase: string) => phrase.slice(1, -2);

describe("broad sets", () => {
  test("each is the index's own answer for its phrase; every prefix of half the catalog has one", () => {
    const fts = new FtsIndex(db);
    const rows = db.query<{ phrase: string; size: number; bits: Uint8Array }, []>("SELECT phrase, size, bits FROM broad_sets").all();
    expect(rows.length).toBeGreaterThan(2);
    for (const { phrase, size, bits } of rows) {
      expect(phrase).toMatch(/^"[a-z0-9]{1,3}"\*$/);
      const want = [...fts.all(phrase)].sort((a, b) => a - b);
      const words = new Uint32Array(bits.buffer.slice(bits.byteOffset, bits.byteOffset + bits.byteLength));
      const got = Array.from({ length: input.plugins.length + 1 }, (_, rowid) => rowid).filter((rowid) => hasRow(words, rowid));
      expect({ phrase, rows: got }).toEqual({ phrase, rows: want });
      expect(size).toBe(want.length);
      expect(size).toBeGreaterThanOrEqual(half);
    }
    for (const c of "abcdefghijklmnopqrstuvwxyz0123456789") {
      if (fts.count(`"${c}"*`) >= half) expect(broad).toContain(`"${c}"*`);
    }
  });

  test("searches of broad words, with narrower words and filters: the same pages and totals as the index alone", () => {
    const words = (from: string[]) => fc.uniqueArray(fc.constantFrom(...from), { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));
    const filters = fc.oneof(
      { weight: 3, arbitrary: fc.constant({ category: null, curated: false }) },
      fc.record({ category: fc.constantFrom(null, ...CATEGORIES), curated: fc.boolean() }),
    );
    const query = fc.record({
      // Broad words only (the sets answer), or mixed with narrower ones (the index does).
      q: fc.oneof(words(broad.map(wordOf)), words([...broad.map(wordOf), "mcp", "server", "git", "data", "zzz"])),
      sort: fc.constantFrom(...SORTS),
      filters,
      offset: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: input.plugins.length })),
      limit: fc.integer({ min: 1, max: 100 }),
    });
    fc.assert(
      fc.property(query, ({ filters: f, ...rest }) => {
        const q = { ...rest, ...f };
        expect(withSets.list(q)).toEqual(indexOnly.list(q));
      }),
      { numRuns: 500 },
    );
  });

  test("a search of broad words is counted from the sets, not by walking the index", () => {
    const count = spyOn(FtsIndex.prototype, "count");
    try {
      const q = broad.slice(0, 3).map(wordOf).join(" ");
      const query = { q, sort: "name" as const, category: null, curated: false, offset: 0, limit: 20 };
      const page = withSets.list(query);
      expect(count).not.toHaveBeenCalled();
      expect(page).toEqual(indexOnly.list(query));
      expect(count).toHaveBeenCalled();
      expect(page.total).toBeGreaterThan(0);
    } finally {
      count.mockRestore();
    }
  });
});
