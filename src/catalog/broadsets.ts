/**
 * The rows of the broadest search phrases, stored with the snapshot as bitmaps. A one-letter
 * query matches most of the catalog: counting an AND of two or three such phrases walks their
 * doclists, about 11 ms at 100,000 plugins, on every request. With their bitmaps the count is an
 * AND and a population count of a few thousand words (tens of microseconds), and a page in
 * another order walks that order testing bits instead of listing every match.
 *
 * The builder chooses the phrases (`writeBroadSets`): one- to three-character prefixes
 * (`"s"*`, `"mcp"*`, as search.ts writes them) whose rows are at least half of the catalog.
 * Each set is what the index itself answers for the phrase, so a count from them is the index's.
 */
import type { Database } from "bun:sqlite";
import { parseRowids } from "./fts";
import { prefixPhrase } from "./search";

/**
 * A phrase gets a set when it matches at least this share of the rows. An AND with a narrower
 * word is cheap for the index (it skips along the narrow doclist), so the sets are needed only
 * where every word is broad; half the catalog is where the index's count passes 5 ms.
 */
export const BROAD_SHARE = 1 / 2;
/**
 * The builder lists the rows of the broadest candidates first (about 150 ns a row) and stops once
 * it has listed this many times the catalog, whatever the vocabulary: about 0.2 s at 100,000
 * plugins at most. A set is one bit per plugin (12.5 KB at 100,000).
 */
const BROAD_ROWS_BUDGET = 16;
/** Prefixes up to this length are candidates: longer words become lists of terms (search.ts). */
const MAX_PREFIX = 3;

/**
 * Writes the sets of the broadest prefixes into `broad_sets`. `docs` is every term with the number
 * of rows it occurs in; a prefix's rows are at most the sum over its terms, which picks the
 * candidates before the index is asked for their exact rows.
 */
export function writeBroadSets(db: Database, docs: Iterable<{ term: string; doc: number }>, rowCount: number, maxRowid: number): void {
  const threshold = rowCount * BROAD_SHARE;
  const bound = new Map<string, number>();
  for (const { term, doc } of docs) {
    for (let length = 1; length <= Math.min(MAX_PREFIX, term.length); length++) {
      const prefix = term.slice(0, length);
      if (!/^[a-z0-9]+$/.test(prefix)) break;
      bound.set(prefix, (bound.get(prefix) ?? 0) + doc);
    }
  }
  const candidates = [...bound].filter(([, n]) => n >= threshold).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const rowsOf = db.prepare<{ ids: string | null }, [string]>(`SELECT group_concat(rowid) AS ids FROM plugins_fts WHERE plugins_fts MATCH ?`);
  const insert = db.prepare(`INSERT INTO broad_sets (phrase, size, bits) VALUES (?, ?, ?)`);
  let listed = 0;
  for (const [prefix] of candidates) {
    if (listed >= rowCount * BROAD_ROWS_BUDGET) break;
    const phrase = prefixPhrase(prefix);
    const rowids = parseRowids(rowsOf.get(phrase)?.ids ?? "");
    listed += rowids.length;
    if (rowids.length >= threshold) insert.run(phrase, rowids.length, new Uint8Array(bitmap(rowids, maxRowid).buffer));
  }
}

/** One bit per rowid from 0 to `maxRowid`, in 32-bit words. */
function bitmap(rowids: ArrayLike<number>, maxRowid: number): Uint32Array {
  const bits = new Uint32Array((maxRowid >>> 5) + 1);
  for (let i = 0; i < rowids.length; i++) {
    const rowid = rowids[i]!;
    bits[rowid >>> 5]! |= 1 << (rowid & 31);
  }
  return bits;
}

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The rows of an AND of broad phrases: their bitmap and how many there are. */
export interface BroadMatch {
  bits: Uint32Array;
  size: number;
}

export function hasRow(bits: Uint32Array, rowid: number): boolean {
  return ((bits[rowid >>> 5] ?? 0) & (1 << (rowid & 31))) !== 0;
}

export class BroadSets {
  private readonly sets = new Map<string, BroadMatch>();

  /** The sets stored in a snapshot file; none in a file written before they existed. */
  constructor(db: Database) {
    const table = db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'broad_sets'`).get();
    if (table === null) return;
    for (const row of db.query<{ phrase: string; size: number; bits: Uint8Array }, []>(`SELECT phrase, size, bits FROM broad_sets`).all()) {
      // A copy, aligned for 32-bit words.
      const bits = new Uint32Array(row.bits.byteLength >>> 2);
      new Uint8Array(bits.buffer).set(row.bits.subarray(0, bits.byteLength));
      this.sets.set(row.phrase, { bits, size: row.size });
    }
  }

  /** The rows matching every phrase, or null unless each has a set. */
  all(phrases: readonly string[]): BroadMatch | null {
    const sets: BroadMatch[] = [];
    for (const phrase of phrases) {
      const set = this.sets.get(phrase);
      if (set === undefined) return null;
      sets.push(set);
    }
    if (sets.length === 0) return null;
    if (sets.length === 1) return sets[0]!;
    const bits = sets[0]!.bits.slice();
    let size = 0;
    for (let i = 0; i < bits.length; i++) {
      let word = bits[i]!;
      for (let k = 1; k < sets.length; k++) word &= sets[k]!.bits[i]!;
      bits[i] = word;
      size += popcount(word);
    }
    return { bits, size };
  }
}
