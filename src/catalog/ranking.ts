/**
 * Pages of search results, computed without sorting the matches: relevance pages stream tier by
 * tier from the index, and the other sorts walk a precomputed order. The work per page is bounded
 * by the page's depth and one pass over the matches, never a sort of them.
 */
import type { FtsIndex } from "./fts";

/**
 * Rowids `offset` to `offset + limit` of the tiers taken one after another. A tier wholly before
 * the page is skipped by its (remembered) count; the first page counts no tier at all.
 */
export function tieredPage(fts: FtsIndex, tiers: readonly string[], offset: number, limit: number): number[] {
  const rowids: number[] = [];
  let skip = offset;
  for (const tier of tiers) {
    const need = limit - rowids.length;
    if (need <= 0) break;
    if (skip > 0) {
      const size = fts.count(tier);
      if (size <= skip) {
        skip -= size;
        continue;
      }
    }
    rowids.push(...fts.page(tier, skip, need));
    skip = 0;
  }
  return rowids;
}

/**
 * Rowids `offset` to `offset + limit` of `matches` (any order) in the order `order`, which lists
 * every rowid of the snapshot. `marks` is scratch space of at least max rowid + 1 zero bytes;
 * it is zero again on return.
 */
export function pageInOrder(order: Int32Array, matches: Int32Array, marks: Uint8Array, offset: number, limit: number): number[] {
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
