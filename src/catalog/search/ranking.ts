/**
 * How matches rank, and pages of search results. A match's score weighs its text relevance against
 * its popularity; relevance pages rank the matches by score once per search and page through the
 * ranking; the other sorts walk a precomputed order without sorting the matches.
 */

import { daysSince } from "../model/time";
import { type FtsIndex, PROBE_CHUNK } from "./fts";
import { reach } from "./orders";

/**
 * bm25 weights of the index's columns (name, full name, topics, description, category names,
 * tags): a word in the name counts most, then the owner and full name, topics, the category.
 */
const COLUMN_WEIGHTS = [10, 6, 4, 1.5, 3, 0] as const;

/** Half-life, in days without a push, of the recency half of popularity. */
const RECENCY_HALF_LIFE_DAYS = 365;

/**
 * Popularity = reach (orders.ts) · (0.5 + 0.5 · 0.5^(days since pushed_at / 365)):
 * a repository left alone for years keeps half its weight. Computed against the snapshot time.
 */
export function popularity(stars: number, forks: number, pushedAt: string, snapshotAt: string): number {
  const days = daysSince(pushedAt, snapshotAt);
  return reach(stars, forks) * (0.5 + 0.5 * 0.5 ** (days / RECENCY_HALF_LIFE_DAYS));
}

/** How much the text relevance weighs against popularity: the best text match of a search scores this. */
const RELEVANCE_WEIGHT = 4;

/** An exact name or full-name match outranks any other result. */
const EXACT_BONUS = 100;

/**
 * What an exact owner match adds: about what three times the stars add to popularity, so among an
 * owner's repositories popularity and text decide, and a far more popular plugin with the word in
 * its name still outranks an obscure repository of that owner.
 */
const OWNER_BONUS = 0.5;

/**
 * The score of a match: RELEVANCE_WEIGHT · relevance / best relevance of the search (relevance
 * being bm25 with COLUMN_WEIGHTS, higher better) + popularity, + EXACT_BONUS for an exact match,
 * + OWNER_BONUS for a repository of the owner named.
 */
function score(relevance: number, best: number, popular: number, exact: boolean, owned: boolean): number {
  const text = best > 0 ? (RELEVANCE_WEIGHT * relevance) / best : 0;
  return text + popular + (exact ? EXACT_BONUS : 0) + (owned ? OWNER_BONUS : 0);
}

/** The rowids that match `q` as a whole: exactly (name, full name) and by owner. */
export interface ExactRows {
  exact: ReadonlySet<number>;
  owned: ReadonlySet<number>;
}

/** Matches ranked by score at most (bm25's cost grows with them); the rest follow by stars. */
export const RANKED_MATCHES = 3_000;

/**
 * Past this many matches bm25 is not asked (it first walks every row holding each word): such a
 * search is ranked by popularity, a word in the name or full name counting as the best text match.
 */
export const BM25_MAX_MATCHES = 2_000;

/** The first RANKED_MATCHES matches of an FTS5 expression by rowid, with their bm25 (lower is better). */
export const BM25_ROWS = `SELECT rowid, bm25(plugins_fts, ${COLUMN_WEIGHTS.join(", ")}) FROM plugins_fts WHERE plugins_fts MATCH ? ORDER BY rowid LIMIT ?`;

/** A search's matches in relevance order: the ranked ones, then those past `after` by stars. */
export interface Ranking {
  rowids: Int32Array;
  /** The last rowid considered for ranking; matches past it follow in rowid (stars) order. */
  after: number;
}

/**
 * The ranking of `rows` (rowid and bm25, lower better, in rowid order) by score, whose exact and
 * owner matches are `exact`; `originals` maps a rowid to the plugin it is a fork or look-alike of.
 */
export function rankingOf(
  rows: Array<[number, number]>,
  exact: ExactRows,
  popular: Float64Array,
  originals: Int32Array,
) {
  let best = 0;
  for (const [, bm25] of rows) best = Math.max(best, -bm25);
  const scored = rows.map(([rowid, bm25]) => ({
    rowid,
    score: score(-bm25, best, popular[rowid] ?? 0, exact.exact.has(rowid), exact.owned.has(rowid)),
  }));
  // A fork or look-alike found with its original scores just below it, whatever its own relevance
  // (the rule of every order: ORIGINALS, snapshot-schema.ts).
  const byRowid = originals.length === 0 ? null : new Map(scored.map((s) => [s.rowid, s]));
  for (const s of byRowid === null ? [] : scored) {
    const original = byRowid?.get(originals[s.rowid] ?? 0);
    if (original) s.score = Math.min(s.score, original.score - 1e-9);
  }
  scored.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  return { rowids: Int32Array.from(scored, (r) => r.rowid), after: rows.at(-1)?.[0] ?? 0 } satisfies Ranking;
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
