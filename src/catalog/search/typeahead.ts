/**
 * The typeahead's index, built with the snapshot (build.ts writes it to `suggest_keys` and
 * `suggest_best`): every plugin's name and full name (`owner/repo`, so an owner is a prefix of it)
 * lower-cased and sorted, each with its plugin. A prefix is a range of those keys; a short range is
 * ranked on the spot (`rankRowids`), and every prefix whose range is longer has its best plugins
 * ranked at build time (`SuggestIndex`), so a request never reads more than SCAN_LIMIT keys
 * whatever the catalog's size.
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

/** Sorted keys (code unit order), each with its plugin's rowid, and the popularity by rowid. */
export interface SuggestSource {
  keys: string[];
  rowids: Int32Array;
  popularity: Float64Array;
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The best SUGGEST_LIMIT distinct rowids of `rowids`: popularity descending, then rowid (the index's order). */
export function rankRowids(rowids: Iterable<number>, popularity: Float64Array): number[] {
  return [...new Set(rowids)]
    .sort((a, b) => (popularity[b] ?? 0) - (popularity[a] ?? 0) || a - b)
    .slice(0, SUGGEST_LIMIT);
}

/**
 * The first string past every string that starts with `prefix`, in code point order (SQLite's
 * order of UTF-8 text), or null when there is none: the prefix's last code point raised by one.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      // Surrogates are not characters: the next one after U+D7FF is U+E000.
      points.push(last + 1 === 0xd800 ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}

/** The index's source from plugin records, sorted here (the snapshot has SQLite sort its own). */
export function suggestSource(plugins: readonly SuggestKey[]): SuggestSource {
  const maxRowid = plugins.reduce((max, p) => Math.max(max, p.rowid), 0);
  const popularity = new Float64Array(maxRowid + 1);
  const entries: Array<[string, number]> = [];
  for (const p of plugins) {
    popularity[p.rowid] = p.popularity;
    entries.push([p.id.toLowerCase(), p.rowid], [p.name.toLowerCase(), p.rowid]);
  }
  entries.sort((a, b) => byKey(a[0], b[0]) || a[1] - b[1]);
  return { keys: entries.map((e) => e[0]), rowids: Int32Array.from(entries, (e) => e[1]), popularity };
}

/** Builds the ranking of the heavy prefixes: run once per snapshot by the builder, never by the server. */
export class SuggestIndex {
  /** How many indexes this process has built (the server builds none). */
  static built = 0;
  private readonly keys: string[];
  private readonly rowids: Int32Array;
  /** Place of each rowid in popularity order (0 is the most popular). */
  private readonly place: Int32Array;
  /** The best rowids of every prefix whose range is longer than SCAN_LIMIT. */
  private readonly heavy = new Map<string, Int32Array>();

  constructor({ keys, rowids, popularity }: SuggestSource) {
    this.keys = keys;
    this.rowids = rowids;
    if (!isSorted(keys)) this.resort();
    const maxRowid = rowids.reduce((max, r) => Math.max(max, r), 0);
    // Popularity descending, then rowid (stars order): one place per plugin, so ties are stable.
    const order = new Int32Array(maxRowid + 1).map((_, i) => i);
    order.sort((a, b) => (popularity[b] ?? 0) - (popularity[a] ?? 0) || a - b);
    this.place = new Int32Array(maxRowid + 1);
    for (const [i, rowid] of order.entries()) this.place[rowid] = i;
    this.rankHeavy(0, this.keys.length, 0);
    SuggestIndex.built++;
  }

  /** Every prefix whose range is longer than SCAN_LIMIT, with its best rowids. */
  rankedEntries(): IterableIterator<[string, Int32Array]> {
    return this.heavy.entries();
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
    if (hi - lo <= SCAN_LIMIT) return this.best(lo, hi, []);
    return Array.from(this.heavy.get(p) ?? this.best(lo, Math.min(hi, lo + SCAN_LIMIT), []));
  }

  /** Sorts keys the way lookups compare them, when the source's order differs (non-ASCII text). */
  private resort(): void {
    const order = Array.from(this.keys.keys()).sort(
      (a, b) => byKey(this.keys[a]!, this.keys[b]!) || this.rowids[a]! - this.rowids[b]!,
    );
    const keys = order.map((i) => this.keys[i]!);
    const rowids = Int32Array.from(order, (i) => this.rowids[i]!);
    this.keys.splice(0, keys.length, ...keys);
    this.rowids.set(rowids);
  }

  /**
   * Ranks the range [lo, hi), whose keys share their first `depth` characters, and every longer
   * prefix inside it whose range exceeds SCAN_LIMIT; returns the range's best. A heavy child's
   * best is merged from its own children's, so each key is scanned once, where its range is light.
   */
  private rankHeavy(lo: number, hi: number, depth: number): number[] {
    let chosen: number[] = [];
    let i = lo;
    while (i < hi) {
      const key = this.keys[i]!;
      if (key.length <= depth) {
        chosen = this.best(i, i + 1, chosen);
        i++;
        continue;
      }
      const c = key.charCodeAt(depth);
      let j = i + 1;
      while (j < hi && this.keys[j]!.charCodeAt(depth) === c) j++;
      if (j - i > SCAN_LIMIT) {
        const top = this.rankHeavy(i, j, depth + 1);
        this.heavy.set(key.slice(0, depth + 1), Int32Array.from(top));
        for (const rowid of top) chosen = this.add(chosen, rowid);
      } else {
        chosen = this.best(i, j, chosen);
      }
      i = j;
    }
    return chosen;
  }

  /** `chosen` with the best distinct plugins of the range [lo, hi) merged in, SUGGEST_LIMIT at most. */
  private best(lo: number, hi: number, chosen: number[]): number[] {
    for (let i = lo; i < hi; i++) chosen = this.add(chosen, this.rowids[i]!);
    return chosen;
  }

  /** `chosen` (best first, distinct) with `rowid` in its place, SUGGEST_LIMIT at most. */
  private add(chosen: number[], rowid: number): number[] {
    const place = this.place[rowid]!;
    if (chosen.length === SUGGEST_LIMIT && place >= this.place[chosen[SUGGEST_LIMIT - 1]!]!) return chosen;
    if (chosen.includes(rowid)) return chosen;
    let at = chosen.length;
    while (at > 0 && this.place[chosen[at - 1]!]! > place) at--;
    chosen.splice(at, 0, rowid);
    if (chosen.length > SUGGEST_LIMIT) chosen.pop();
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

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}
