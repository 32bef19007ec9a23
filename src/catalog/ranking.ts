/**
 * Pages of search results, computed without sorting the matches: relevance pages stream tier by
 * tier from the index, and the other sorts walk a precomputed order. The work per page is bounded
 * by the page's depth and one pass over the matches, never a sort of them.
 */
import { PROBE_CHUNK, type FtsIndex } from "./fts";

/**
 * Rowids `offset` to `offset + limit` of the tiers taken one after another. Each tier is asked for
 * its part of the page directly; only a tier that ends before the page starts is counted (and
 * the count remembered), so a page inside the first tier costs one short index walk.
 */
export function tieredPage(fts: FtsIndex, tiers: readonly string[], offset: number, limit: number): number[] {
  const rowids: number[] = [];
  let skip = offset;
  for (const tier of tiers) {
    const need = limit - rowids.length;
    if (need <= 0) break;
    const found = fts.page(tier, skip, need);
    rowids.push(...found);
    // A tier that yielded rows started inside the page; an empty one lies wholly before it.
    skip = found.length > 0 || skip === 0 ? 0 : Math.max(0, skip - fts.count(tier));
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

/**
 * Rowids `offset` to `offset + limit` of the match in the order `order`, found by testing the
 * order's rowids against the index a chunk at a time: for a broad match and a shallow page, a few
 * lookups instead of listing every match. Null when `maxProbes` lookups did not fill the page.
 */
export function probedPage(fts: FtsIndex, match: string, order: Int32Array, offset: number, limit: number, maxProbes: number): number[] | null {
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
