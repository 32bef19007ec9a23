/**
 * The full-text index of a snapshot: which rowids match an FTS5 expression. Rowids are stars
 * positions, so every answer comes in stars order and a LIMIT stops the index walk early.
 */
import type { Database, Statement } from "bun:sqlite";

/** Match counts kept per snapshot; a count is a few bytes, the bound only stops growth. */
const MAX_COUNTS = 10_000;

/** Rowids tested per statement by `among`. */
export const PROBE_CHUNK = 64;

export class FtsIndex {
  private readonly countRows: Statement<{ n: number }, [string]>;
  private readonly allRows: Statement<{ ids: string | null }, [string]>;
  private readonly amongRows: Statement<{ rowid: number }, Array<string | number>>;
  private readonly counts = new Map<string, number>();

  constructor(db: Database) {
    this.countRows = db.prepare(`SELECT count(*) AS n FROM plugins_fts WHERE plugins_fts MATCH ?`);
    // One string instead of one row object per match: a broad match lists most of the catalog.
    this.allRows = db.prepare(`SELECT group_concat(rowid) AS ids FROM plugins_fts WHERE plugins_fts MATCH ?`);
    const slots = Array.from({ length: PROBE_CHUNK }, () => "?").join(",");
    this.amongRows = db.prepare(`SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH ? AND rowid IN (${slots})`);
  }

  /** How many rows match; remembered per expression, since paging through a search asks again. */
  count(match: string): number {
    let n = this.counts.get(match);
    if (n === undefined) {
      n = this.countRows.get(match)!.n;
      if (this.counts.size >= MAX_COUNTS) this.counts.clear();
      this.counts.set(match, n);
    }
    return n;
  }

  /** Which of up to PROBE_CHUNK `rowids` match: one index lookup each, however broad the match. */
  among(match: string, rowids: ArrayLike<number>): Set<number> {
    const params: Array<string | number> = [match];
    // Rowid 0 is never a plugin: it pads the last, shorter chunk.
    for (let i = 0; i < PROBE_CHUNK; i++) params.push(i < rowids.length ? rowids[i]! : 0);
    return new Set(this.amongRows.all(...params).map((row) => row.rowid));
  }

  /** Every matching rowid (in no promised order: group_concat's is the scan's, which SQL leaves open). */
  all(match: string): Int32Array {
    const text = this.allRows.get(match)?.ids ?? "";
    return parseRowids(text);
  }
}

/** Parses `1,5,9` without one string per id. */
export function parseRowids(text: string): Int32Array {
  if (text === "") return new Int32Array(0);
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) count++;
  const ids = new Int32Array(count);
  let n = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      ids[n++] = value;
      value = 0;
    } else {
      value = value * 10 + (c - 48);
    }
  }
  ids[n] = value;
  return ids;
}
