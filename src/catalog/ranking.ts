/**
 * Pages of search results. Relevance pages rank the matches by score (search.ts) once per search
 * and page through the ranking; the other sorts walk a precomputed order without sorting the
 * matches.
 */
import type { Database, Statement } from "bun:sqlite";
import { type FtsIndex, PROBE_CHUNK } from "./fts";
import { COLUMN_WEIGHTS, score } from "./search";

/** The rowids that match `q` as a whole: exactly (name, full name) and by owner. */
export interface ExactRows {
  exact: ReadonlySet<number>;
  owned: ReadonlySet<number>;
}

/**
 * Matches ranked by score at most: past it (a broad word in a large catalog), the matches with the
 * most stars are ranked and the rest follow by stars. bm25 costs about 0.4 µs per match and word
 * (23 ms for one word in 64,000 of 100,000 plugins), so the bound keeps a cold search in budget.
 */
export const RANKED_MATCHES = 3_000;

/**
 * Past this many matches bm25 is not asked: it counts every row holding each word first (3 to 5 ms
 * a broad word at 100,000 plugins). Such a search is ranked by popularity, a word in the name or
 * full name counting as the best text match and any other as a quarter of it.
 */
export const BM25_MAX_MATCHES = 2_000;

/** The share of the best text score a broad search gives a match outside the name and full name. */
const BROAD_OTHER_FIELD = 0.25;

/** Rankings kept per snapshot, so paging through a search ranks it once. */
const KEPT_RANKINGS = 64;

/** A search's matches in relevance order: the ranked ones, then those past `after` by stars. */
export interface Ranking {
  rowids: Int32Array;
  /** The last rowid considered for ranking; matches past it follow in rowid (stars) order. */
  after: number;
}

/** Ranks searches by score: bm25 with the columns' weights, popularity, exact matches first. */
export class Ranker {
  private readonly candidates: Statement<[number, number], [string, number]>;
  private readonly firstRows: Statement<[number], [string, number]>;
  private readonly upTo: Statement<[number], [string, number]>;
  private readonly pageAfter: Statement<{ rowid: number }, [string, number, number, number]>;
  private readonly kept = new Map<string, Ranking>();

  constructor(
    db: Database,
    private readonly popularity: Float64Array,
    /** Per rowid, the rowid of the plugin it is a fork or look-alike of (0 for none). */
    private readonly originals: Int32Array = new Int32Array(0),
  ) {
    const weights = COLUMN_WEIGHTS.join(", ");
    this.candidates = db.prepare(
      `SELECT rowid, bm25(plugins_fts, ${weights}) FROM plugins_fts WHERE plugins_fts MATCH ? ORDER BY rowid LIMIT ?`,
    ) as unknown as Statement<[number, number], [string, number]>;
    this.firstRows = db.prepare(
      `SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH ? ORDER BY rowid LIMIT ?`,
    ) as unknown as Statement<[number], [string, number]>;
    this.upTo = db.prepare(
      `SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH ? AND rowid <= ?`,
    ) as unknown as Statement<[number], [string, number]>;
    this.pageAfter = db.prepare(
      `SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH ? AND rowid > ? ORDER BY rowid LIMIT ? OFFSET ?`,
    );
  }

  /**
   * The ranking of `matches` (`total` of them; `weighed`, the same rows as bm25 weighs them;
   * `inName` those with a word in the name or full name), whose exact and owner matches are
   * `exact`; `key` names the search for reuse.
   */
  ranking(
    matches: string,
    weighed: string,
    total: () => number,
    inName: string,
    exact: () => ExactRows,
    key: string,
  ): Ranking {
    let ranking = this.kept.get(key);
    if (ranking !== undefined) return ranking;
    const exactRows = exact();
    const rows = total() > BM25_MAX_MATCHES ? this.broadRows(matches, inName) : this.bm25Rows(weighed);
    let best = 0;
    for (const [, bm25] of rows) best = Math.max(best, -bm25);
    const scored = rows.map(([rowid, bm25]) => ({
      rowid,
      score: score(-bm25, best, this.popularity[rowid] ?? 0, {
        exact: exactRows.exact.has(rowid),
        owned: exactRows.owned.has(rowid),
      }),
    }));
    this.belowOriginals(scored);
    scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    ranking = { rowids: Int32Array.from(scored, (r) => r.rowid), after: rows.at(-1)?.[0] ?? 0 };
    if (this.kept.size >= KEPT_RANKINGS) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, ranking);
    return ranking;
  }

  /** A fork or look-alike found with its original scores just below it, whatever its own relevance. */
  private belowOriginals(scored: Array<{ rowid: number; score: number }>): void {
    if (this.originals.length === 0) return;
    const byRowid = new Map(scored.map((s) => [s.rowid, s]));
    for (const s of scored) {
      const original = byRowid.get(this.originals[s.rowid] ?? 0);
      if (original) s.score = Math.min(s.score, original.score - 1e-9);
    }
  }

  /** The first RANKED_MATCHES matches with their bm25 (lower is better). */
  private bm25Rows(matches: string): Array<[number, number]> {
    return this.candidates.values(matches, RANKED_MATCHES) as Array<[number, number]>;
  }

  /** The same, scored by the field matched instead: -1 for the name or full name, less otherwise. */
  private broadRows(matches: string, inName: string): Array<[number, number]> {
    const first = (this.firstRows.values(matches, RANKED_MATCHES) as Array<[number]>).map(([rowid]) => rowid);
    if (first.length === 0) return [];
    const named = new Set((this.upTo.values(inName, first.at(-1)!) as Array<[number]>).map(([rowid]) => rowid));
    return first.map((rowid) => [rowid, named.has(rowid) ? -1 : -BROAD_OTHER_FIELD]);
  }

  /** Rowids `offset` to `offset + limit` of a ranking of `matches`. */
  page(matches: string, ranking: Ranking, offset: number, limit: number): number[] {
    const ranked = Array.from(ranking.rowids.subarray(offset, offset + limit));
    const need = limit - ranked.length;
    if (need <= 0 || ranking.rowids.length < RANKED_MATCHES) return ranked;
    const skip = Math.max(0, offset - ranking.rowids.length);
    return [...ranked, ...this.pageAfter.all(matches, ranking.after, need, skip).map((row) => row.rowid)];
  }
}

/**
 * Rowids `offset` to `offset + limit` of `matches` (any order) in the order `order`, which lists
 * every rowid of the snapshot. `marks` is scratch space of at least max rowid + 1 zero bytes;
 * it is zero again on return.
 */
export function pageInOrder(
  order: Int32Array,
  matches: Int32Array,
  marks: Uint8Array,
  offset: number,
  limit: number,
): number[] {
  for (const rowid of matches) marks[rowid] = 1;
  const rowids: number[] = [];
  let seen = 0;
  const end = Math.min(offset + limit, matches.length);
  for (let i = 0; i < order.length && seen < end; i++) {
    const rowid = order[i]!;
    if (marks[rowid] === 1) {
      if (seen >= offset) rowids.push(rowid);
      seen++;
    }
  }
  for (const rowid of matches) marks[rowid] = 0;
  return rowids;
}

/**
 * Rowids `offset` to `offset + limit` of the match in the order `order`, found by testing the
 * order's rowids against the index a chunk at a time: for a broad match and a shallow page, a few
 * lookups instead of listing every match. Null when `maxProbes` lookups did not fill the page.
 */
export function probedPage(
  fts: FtsIndex,
  match: string,
  order: Int32Array,
  offset: number,
  limit: number,
  maxProbes: number,
): number[] | null {
  const rowids: number[] = [];
  let seen = 0;
  for (let start = 0; start < order.length && seen < offset + limit; start += PROBE_CHUNK) {
    if (start >= maxProbes) return null;
    const chunk = order.subarray(start, start + PROBE_CHUNK);
    const hits = fts.among(match, chunk);
    for (const rowid of chunk) {
      if (!hits.has(rowid) || seen >= offset + limit) continue;
      if (seen >= offset) rowids.push(rowid);
      seen++;
    }
  }
  return rowids;
}
