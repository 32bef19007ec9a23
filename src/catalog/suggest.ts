/**
 * The typeahead's index, built once per snapshot: every plugin's name and full name (`owner/repo`,
 * so an owner is a prefix of it) lower-cased and sorted, each with its plugin. A prefix is a range
 * of that array, found by binary search; a short range is ranked on the spot, and every prefix
 * whose range is longer has its best plugins ranked at build time, so a request never walks more
 * than SCAN_LIMIT keys whatever the catalog's size.
 */

/** The most plugins a suggestion answers. */
export const SUGGEST_LIMIT = 10;

/** The longest range ranked per request; longer ones were ranked when the index was built. */
export const SCAN_LIMIT = 256;

export interface SuggestKey {
  rowid: number;
  id: string;
  name: string;
  popularity: number;
}

export class SuggestIndex {
  /** Sorted keys, and the rowid each belongs to. */
  private readonly keys: string[];
  private readonly rowids: Int32Array;
  /** Place of each rowid in popularity order (0 is the most popular). */
  private readonly place: Int32Array;
  /** The best rowids of every prefix whose range is longer than SCAN_LIMIT. */
  private readonly heavy = new Map<string, Int32Array>();

  constructor(plugins: readonly SuggestKey[]) {
    const maxRowid = plugins.reduce((max, p) => Math.max(max, p.rowid), 0);
    this.place = new Int32Array(maxRowid + 1);
    // Popularity descending, then rowid (stars order): one place per plugin, so ties are stable.
    const byPopularity = plugins.slice().sort((a, b) => b.popularity - a.popularity || a.rowid - b.rowid);
    for (const [i, p] of byPopularity.entries()) this.place[p.rowid] = i;
    const entries: Array<[string, number]> = [];
    for (const p of plugins) {
      const name = p.name.toLowerCase();
      const full = p.id.toLowerCase();
      entries.push([full, p.rowid]);
      if (name !== full) entries.push([name, p.rowid]);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.keys = entries.map((e) => e[0]);
    this.rowids = Int32Array.from(entries, (e) => e[1]);
    this.rankHeavy(0, this.keys.length, 0);
  }

  get size(): number {
    return this.keys.length;
  }

  /** How many prefixes were ranked at build time. */
  get rankedPrefixes(): number {
    return this.heavy.size;
  }

  /** Rowids of the plugins whose name or full name starts with `prefix` (case aside), best first. */
  lookup(prefix: string): number[] {
    const p = prefix.toLowerCase();
    if (p === "") return [];
    const lo = this.lowerBound(p);
    const hi = this.prefixEnd(p, lo);
    if (hi - lo <= SCAN_LIMIT) return this.best(lo, hi);
    return Array.from(this.heavy.get(p) ?? this.best(lo, Math.min(hi, lo + SCAN_LIMIT)));
  }

  /** Splits the range [lo, hi), whose keys share their first `depth` characters, by the next one. */
  private rankHeavy(lo: number, hi: number, depth: number): void {
    let i = lo;
    while (i < hi) {
      const key = this.keys[i]!;
      if (key.length <= depth) {
        i++;
        continue;
      }
      const c = key.charCodeAt(depth);
      let j = i + 1;
      while (j < hi && this.keys[j]!.charCodeAt(depth) === c) j++;
      if (j - i > SCAN_LIMIT) {
        this.heavy.set(key.slice(0, depth + 1), Int32Array.from(this.best(i, j)));
        this.rankHeavy(i, j, depth + 1);
      }
      i = j;
    }
  }

  /** The SUGGEST_LIMIT best distinct plugins of the range [lo, hi). */
  private best(lo: number, hi: number): number[] {
    const chosen: number[] = [];
    for (let i = lo; i < hi; i++) {
      const rowid = this.rowids[i]!;
      const place = this.place[rowid]!;
      if (chosen.length === SUGGEST_LIMIT && place >= this.place[chosen[SUGGEST_LIMIT - 1]!]!) continue;
      if (chosen.includes(rowid)) continue;
      let at = chosen.length;
      while (at > 0 && this.place[chosen[at - 1]!]! > place) at--;
      chosen.splice(at, 0, rowid);
      if (chosen.length > SUGGEST_LIMIT) chosen.pop();
    }
    return chosen;
  }

  /** The first index whose key is not less than `p`. */
  private lowerBound(p: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first index from `from` whose key does not start with `p`. */
  private prefixEnd(p: string, from: number): number {
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]!.startsWith(p)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
