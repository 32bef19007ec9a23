/**
 * A list query from its parameters to the rowids it finds: the precomputed orders without `q`;
 * with `q`, the full-text index, ranked (ranking.ts scores and pages) or in a sort's order,
 * and a spelling correction when nothing matches. Reads the snapshot's database; `q` is read into
 * its words once (QueryWord), and every step works from those.
 */
import type { Database } from "bun:sqlite";
import { detailMemberKey, ORIGINALS, POPULARITY } from "../model/snapshot-schema";
import type { Page } from "../model/types";
import { Correction } from "./correction";
import type { FtsIndex } from "./fts";
import { type MatchQuery, type QueryWord, readWords, searchMatch, toMatchQuery } from "./match";
import { type BlobReader, decodeFloat64, decodeInt32, type ListOrders, type Sort } from "./orders";
import type { Query } from "./query";
import { PAGE_SIZE } from "./query";
import {
  BM25_MAX_MATCHES,
  BM25_ROWS,
  pageInOrder,
  probedPage,
  RANKED_MATCHES,
  type Ranking,
  rankingOf,
} from "./ranking";
import type { Synonyms } from "./search-text";
import type { Vocabulary } from "./vocabulary";

/** The member keys of a query's detail filters (see snapshot-schema.ts detailMemberKey). */
function detailMembers(query: Query): string[] {
  const keys = (query.has ?? []).map((kind) => detailMemberKey("has", kind));
  if (query.harness) keys.push(detailMemberKey("harness", query.harness));
  if (query.original) keys.push(detailMemberKey("original"));
  if (query.verified) keys.push(detailMemberKey("verified"));
  if (query.risk) keys.push(detailMemberKey("risk", query.risk));
  if (query.advisories) keys.push(detailMemberKey("advisories", query.advisories));
  if (query.contextMax != null) keys.push(detailMemberKey("context", String(query.contextMax)));
  return keys;
}

/** The share of the best text score a broad search gives a match outside the name and full name. */
const BROAD_OTHER_FIELD = 0.25;

/** How many matches cost about as much to list as one index lookup by rowid costs to probe. */
const PROBE_PER_MATCHES = 64;

/** A prefix of more terms than this stays an FTS5 prefix query rather than a long OR. */
const MAX_PREFIX_TERMS = 64;

/** Rankings and read queries kept per snapshot, so paging through a search ranks it once. */
const KEPT = 64;

/** A bounded map: the oldest entry goes when it is full. */
function keep<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** `q` read into words, and the same with its unknown words corrected (null: nothing to correct). */
type ReadQuery = { words: QueryWord[]; corrected?: QueryWord[] | null };

const textOf = (words: readonly QueryWord[]) => words.map((w) => w.text).join(" ");

const MATCH = `FROM plugins_fts WHERE plugins_fts MATCH ?`;
const NONE: ReadonlySet<number> = new Set();

export class Searcher {
  /** The search's popularity by rowid. */
  readonly popularity: Float64Array;
  /** Per rowid, the rowid of the plugin it is a fork or look-alike of (0 for none). */
  private readonly originals: Int32Array;
  private readonly rankings = new Map<string, Ranking>();
  private readonly read = new Map<string, ReadQuery>();
  /** Scratch space of `pageInOrder`: one byte per rowid. */
  private marks: Uint8Array | null = null;
  private readonly correction: Correction;

  constructor(
    private readonly db: Database,
    private readonly fts: FtsIndex,
    private readonly orders: ListOrders,
    blob: BlobReader,
    private readonly synonyms: Synonyms,
    /** The number of plugins: rowids run from 1 to it. */
    private readonly total: number,
  ) {
    this.popularity = decodeFloat64(blob(POPULARITY));
    this.originals = decodeInt32(blob(ORIGINALS));
    this.correction = new Correction(fts, synonyms, blob);
  }

  /** Rows of a statement: `db.query` prepares each SQL text once and keeps it. */
  private rows<R>(sql: string, ...params: Array<string | number>): R[] {
    return this.db.query<R, Array<string | number>>(sql).all(...params);
  }

  /** Rowids of the matches of `match` in rowid order, by a statement's `tail`. */
  private rowids(match: string, tail: string, ...params: number[]): number[] {
    return this.rows<{ rowid: number }>(`SELECT rowid ${MATCH} ${tail}`, match, ...params).map((r) => r.rowid);
  }

  /**
   * A page of a query. A search that finds nothing is tried once more with its unknown words
   * corrected to their nearest index terms.
   */
  find(query: Query): Page<number> {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? PAGE_SIZE;
    if (query.q == null) {
      const ids = this.ordered(query, query.sort ?? "default", query.category ?? null);
      return { items: Array.from(ids.subarray(offset, offset + limit)), total: ids.length };
    }
    const read = this.readQuery(query.q);
    const found = this.search(query, read.words, offset, limit);
    if (found.total > 0) return found;
    const corrected = this.corrected(read);
    if (corrected === null) return found;
    const retry = this.search(query, corrected, offset, limit);
    return retry.total > 0 ? { ...retry, corrected: textOf(corrected) } : found;
  }

  /** The rowids of a query without `q`, in `sort` order: a precomputed order. */
  private ordered(query: Query, sort: Sort, category: string | null): Int32Array {
    const members = detailMembers(query);
    return this.orders.sorted(sort, category, query.curated ?? false, query.archived ?? null, members);
  }

  /** `q` read into its words once: a repeated `q` (a page, its counts, its hints) is not read again. */
  private readQuery(q: string): ReadQuery {
    return this.read.get(q) ?? keep(this.read, q, { words: readWords(q, this.synonyms) });
  }

  private matchOf(words: readonly QueryWord[]): MatchQuery | null {
    return toMatchQuery(words, (prefix) => this.termsOf(prefix));
  }

  /** The index terms starting with `prefix` (ASCII letters and digits), or null past the bound. */
  private termsOf(prefix: string): string[] | null {
    const sql = `SELECT term FROM terms WHERE term GLOB ? ORDER BY term LIMIT ${MAX_PREFIX_TERMS + 1}`;
    const terms = this.rows<{ term: string }>(sql, `${prefix}*`).map((row) => row.term);
    return terms.length > MAX_PREFIX_TERMS ? null : terms;
  }

  /**
   * Relevance pages come from the search's ranking; stars pages stream from the index in stars
   * order; the other sorts mark the matches and walk the sort's precomputed order.
   */
  private search(query: Query, words: readonly QueryWord[], offset: number, limit: number): Page<number> {
    const match = this.matchOf(words);
    if (match === null) return { items: [], total: 0 };
    const matches = searchMatch(match, query);
    const sort = query.sort ?? "default";
    if (sort === "default") {
      const { rowids, after } = this.ranking(match, matches, query, textOf(words));
      // A ranking short of its bound holds every match: no count needed.
      const total = rowids.length < RANKED_MATCHES ? rowids.length : this.fts.count(matches);
      if (offset >= total) return { items: [], total };
      const ranked = Array.from(rowids.subarray(offset, offset + limit));
      const need = limit - ranked.length;
      if (need <= 0 || rowids.length < RANKED_MATCHES) return { items: ranked, total };
      const skip = Math.max(0, offset - rowids.length);
      const more = this.rowids(matches, "AND rowid > ? ORDER BY rowid LIMIT ? OFFSET ?", after, need, skip);
      return { items: [...ranked, ...more], total };
    }
    const total = this.fts.count(matches);
    if (offset >= total) return { items: [], total };
    if (sort === "stars")
      return { items: this.rowids(matches, "ORDER BY rowid LIMIT ? OFFSET ?", limit, offset), total };
    const order = this.orders.sorted(sort, null, false);
    return { items: this.sortedPage(matches, total, order, offset, limit), total };
  }

  /**
   * The ranking of a search (see ranking.ts): its first RANKED_MATCHES matches by rowid, scored
   * with bm25, or past BM25_MAX_MATCHES matches by the field they match in.
   */
  private ranking(match: MatchQuery, matches: string, query: Query, text: string): Ranking {
    const exactText = text.trim().toLowerCase();
    const key = `${matches}\u0000${exactText}`;
    const kept = this.rankings.get(key);
    if (kept !== undefined) return kept;
    const exact = this.exactMatches(exactText);
    let rows: Array<[number, number]>;
    if (this.fts.count(matches) > BM25_MAX_MATCHES) {
      const inName = `(${matches}) AND ({name fullname} : (${match.phrases.join(" OR ")}))`;
      const first = this.rowids(matches, "ORDER BY rowid LIMIT ?", RANKED_MATCHES);
      const named = new Set(first.length === 0 ? [] : this.rowids(inName, "AND rowid <= ?", first.at(-1)!));
      rows = first.map((rowid) => [rowid, named.has(rowid) ? -1 : -BROAD_OTHER_FIELD]);
    } else {
      const weighed = searchMatch({ ...match, all: match.scored }, query);
      rows = this.db.query(BM25_ROWS).values(weighed, RANKED_MATCHES) as Array<[number, number]>;
    }
    return keep(this.rankings, key, rankingOf(rows, exact, this.popularity, this.originals));
  }

  /**
   * Rowids of plugins whose name or full name is exactly `text` (lowercase, trimmed), and of those
   * whose owner is. A `text` that is both a repository's name and an owner is taken both ways:
   * the owner's repositories are exact matches too, and popularity orders them with the one so named.
   */
  private exactMatches(text: string) {
    if (/\s/.test(text)) return { exact: NONE, owned: NONE };
    const rowids = (where: string, ...params: string[]) =>
      new Set(this.rows<{ rowid: number }>(`SELECT rowid FROM plugins WHERE ${where}`, ...params).map((r) => r.rowid));
    if (text.includes("/")) return { exact: rowids("id = ?", text), owned: NONE };
    const owned = rowids("id >= ? AND id < ?", `${text}/`, `${text}0`);
    const exact = rowids("name = ? COLLATE NOCASE", text);
    if (exact.size > 0) for (const rowid of owned) exact.add(rowid);
    return { exact, owned };
  }

  /**
   * A page of a search in a precomputed order. Listing every match costs about one lookup per
   * PROBE_PER_MATCHES matches; testing the order's rowids costs one lookup each, and a page needs
   * about depth × catalog / total of them. The cheaper is tried; probing gives up at its budget.
   */
  private sortedPage(matches: string, total: number, order: Int32Array, offset: number, limit: number): number[] {
    const budget = total / PROBE_PER_MATCHES;
    const expected = ((offset + limit) * order.length) / total;
    if (expected <= budget / 2) {
      const page = probedPage(this.fts, matches, order, offset, limit, budget);
      if (page !== null) return page;
    }
    this.marks ??= new Uint8Array(this.total + 1);
    return pageInOrder(order, this.fts.all(matches), this.marks, offset, limit);
  }

  /** The query's words with its unknown words corrected (correction.ts); null when nothing changed. */
  private corrected(read: ReadQuery): QueryWord[] | null {
    if (read.corrected === undefined) read.corrected = this.correction.corrected(read.words);
    return read.corrected;
  }

  /** "Did you mean": searches with one unknown word of `q` replaced by a near word (correction.ts). */
  suggestions(q: string, limit = 3): string[] {
    return this.correction.suggestions(this.readQuery(q).words, limit);
  }

  /** Takes `words` (read elsewhere) as the correction vocabulary, or reads it now. */
  prepareVocabulary(words?: Vocabulary): void {
    this.correction.prepare(words);
  }

  /**
   * The number of plugins per category id among those a query (without category, sort or paging)
   * finds, as the list's `category` filter counts them, from one match set: a category the search
   * misses counts the corrected spelling's matches, as its list page would.
   */
  categoryCounts(query: Query, categories: readonly string[]): Map<string, number> {
    if (query.q == null) return new Map(categories.map((id) => [id, this.ordered(query, "stars", id).length]));
    const read = this.readQuery(query.q);
    const counts = this.orders.countIn(this.matchesOf(query, read.words), categories);
    let corrected: Map<string, number> | null | undefined;
    for (const id of categories) {
      if (counts.get(id) !== 0) continue;
      if (corrected === undefined) {
        const words = this.corrected(read);
        corrected = words === null ? null : this.orders.countIn(this.matchesOf(query, words), categories);
      }
      if (corrected === null) break;
      counts.set(id, corrected.get(id) ?? 0);
    }
    return counts;
  }

  /** Every rowid a search for `words` finds under the query's filters but the category. */
  private matchesOf(query: Query, words: readonly QueryWord[]): Int32Array {
    const match = this.matchOf(words);
    if (match === null) return new Int32Array(0);
    return this.fts.all(searchMatch(match, { ...query, category: null }));
  }
}
