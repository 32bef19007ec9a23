/**
 * A list query from its parameters to the rowids it finds: the precomputed orders without `q`;
 * with `q`, the full-text index, ranked (search.ts scores, ranking.ts pages) or in a sort's order,
 * and a spelling correction when nothing matches. Reads the snapshot's database; `q` is read into
 * its words once (QueryWord), and every step works from those.
 */
import type { Database, Statement } from "bun:sqlite";
import type { IncludePart } from "./details";
import type { FtsIndex } from "./fts";
import type { ListOrders, Sort } from "./orders";
import {
  BM25_MAX_MATCHES,
  BROAD_OTHER_FIELD,
  type ExactRows,
  pageInOrder,
  probedPage,
  RANKED_MATCHES,
  type Ranking,
  rankingOf,
} from "./ranking";
import { detailMemberKey, ORIGINALS, POPULARITY } from "./schema";
import {
  COLUMN_WEIGHTS,
  type MatchQuery,
  prefixPhrase,
  type QueryWord,
  readWords,
  searchMatch,
  toMatchQuery,
} from "./search";
import type { Synonyms } from "./searchtext";
import { CORRECTABLE, TRIGRAMS, VOCABULARY, Vocabulary, vocabularyOf } from "./vocabulary";

/** A list query: what the list endpoints, the pages and the category counts parse their parameters into. */
export interface Query {
  /** The search text; null or absent for no search. */
  q?: string | null;
  /** Only this category; null or absent for all (the category counts ignore it). */
  category?: string | null;
  curated?: boolean;
  /** Only archived (true) or only unarchived (false) plugins; null or absent for both. */
  archived?: boolean | null;
  /** `has=` kinds, every one required. */
  has?: readonly string[];
  /** Only plugins that work with this harness. */
  harness?: string | null;
  /** No forks or look-alikes of a catalog plugin. */
  original?: boolean;
  /** Parts added to each plugin's full form (`include=`). */
  include?: readonly IncludePart[];
  /** The order; "default" when absent (the category counts ignore it). */
  sort?: Sort;
  /** The page: `limit` results from `offset` (the category counts ignore them). */
  offset?: number;
  limit?: number;
}

/** The rowids of one page of a query. */
export interface Found {
  rowids: ArrayLike<number>;
  total: number;
  /** The query searched instead of `q`, when `q` matched nothing and a nearby spelling did. */
  corrected?: string;
}

/** The member keys of a query's detail filters (see schema.ts detailMemberKey). */
function detailMembers(query: Query): string[] {
  const keys = (query.has ?? []).map((kind) => detailMemberKey("has", kind));
  if (query.harness) keys.push(detailMemberKey("harness", query.harness));
  if (query.original) keys.push(detailMemberKey("original"));
  return keys;
}

/** Matches listed in the time of one index lookup by rowid (measured 60 to 150 at 100,000 plugins). */
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
interface ReadQuery {
  words: QueryWord[];
  corrected?: QueryWord[] | null;
}

const textOf = (words: readonly QueryWord[]) => words.map((w) => w.text).join(" ");

export class Searcher {
  private readonly termsByPrefix: Statement<{ term: string }, [string]>;
  private readonly exactId: Statement<{ rowid: number }, [string]>;
  private readonly exactName: Statement<{ rowid: number }, [string]>;
  private readonly exactOwner: Statement<{ rowid: number }, [string, string]>;
  private readonly bm25: Statement<[number, number], [string, number]>;
  private readonly firstRows: Statement<[number], [string, number]>;
  private readonly upTo: Statement<[number], [string, number]>;
  private readonly pageAfter: Statement<{ rowid: number }, [string, number, number, number]>;
  private readonly orderBlob: Statement<{ ids: Uint8Array }, [string]>;
  /** The search's popularity by rowid (0 past the blob, an older snapshot's). */
  readonly popularity: Float64Array;
  /** Per rowid, the rowid of the plugin it is a fork or look-alike of (0 for none). */
  private readonly originals: Int32Array;
  private readonly rankings = new Map<string, Ranking>();
  private readonly read = new Map<string, ReadQuery>();
  /** Scratch space of `pageInOrder`: one byte per rowid. */
  private marks: Uint8Array | null = null;
  /** The correction vocabulary, read on the first correction. */
  private words: Vocabulary | null = null;

  constructor(
    private readonly db: Database,
    private readonly fts: FtsIndex,
    private readonly orders: ListOrders,
    private readonly synonyms: Synonyms,
    /** The number of plugins: rowids run from 1 to it. */
    private readonly total: number,
  ) {
    this.orderBlob = db.prepare(`SELECT ids FROM orders WHERE key = ?`);
    this.termsByPrefix = db.prepare(
      `SELECT term FROM terms WHERE term GLOB ? ORDER BY term LIMIT ${MAX_PREFIX_TERMS + 1}`,
    );
    this.exactId = db.prepare(`SELECT rowid FROM plugins WHERE id = ?`);
    this.exactName = db.prepare(`SELECT rowid FROM plugins WHERE name = ? COLLATE NOCASE`);
    this.exactOwner = db.prepare(`SELECT rowid FROM plugins WHERE id >= ? AND id < ?`);
    const match = `FROM plugins_fts WHERE plugins_fts MATCH ?`;
    this.bm25 = db.prepare(
      `SELECT rowid, bm25(plugins_fts, ${COLUMN_WEIGHTS.join(", ")}) ${match} ORDER BY rowid LIMIT ?`,
    ) as unknown as Statement<[number, number], [string, number]>;
    this.firstRows = db.prepare(`SELECT rowid ${match} ORDER BY rowid LIMIT ?`) as unknown as Statement<
      [number],
      [string, number]
    >;
    this.upTo = db.prepare(`SELECT rowid ${match} AND rowid <= ?`) as unknown as Statement<[number], [string, number]>;
    this.pageAfter = db.prepare(`SELECT rowid ${match} AND rowid > ? ORDER BY rowid LIMIT ? OFFSET ?`);
    const popularity = this.orderBlob.get(POPULARITY)?.ids;
    this.popularity = popularity ? new Float64Array(popularity.slice().buffer) : new Float64Array(0);
    const originals = this.orderBlob.get(ORIGINALS)?.ids;
    this.originals = originals ? new Int32Array(originals.slice().buffer) : new Int32Array(0);
  }

  /**
   * A page of a query. A search that finds nothing is tried once more with its unknown words
   * corrected to their nearest index terms.
   */
  find(query: Query): Found {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 20;
    if (query.q == null) {
      const ids = this.orders.sorted(
        query.sort ?? "default",
        query.category ?? null,
        query.curated ?? false,
        query.archived ?? null,
        detailMembers(query),
      );
      return { rowids: ids.subarray(offset, offset + limit), total: ids.length };
    }
    const read = this.readQuery(query.q);
    const found = this.search(query, read.words, offset, limit);
    if (found.total > 0) return found;
    const corrected = this.corrected(read);
    if (corrected === null) return found;
    const retry = this.search(query, corrected, offset, limit);
    return retry.total > 0 ? { ...retry, corrected: textOf(corrected) } : found;
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
    const terms = this.termsByPrefix.all(`${prefix}*`).map((row) => row.term);
    return terms.length > MAX_PREFIX_TERMS ? null : terms;
  }

  /**
   * Relevance pages come from the search's ranking; stars pages stream from the index in stars
   * order; the other sorts mark the matches and walk the sort's precomputed order.
   */
  private search(query: Query, words: readonly QueryWord[], offset: number, limit: number): Found {
    const match = this.matchOf(words);
    if (match === null) return { rowids: [], total: 0 };
    const matches = searchMatch(match, query);
    const sort = query.sort ?? "default";
    if (sort === "default") {
      const { rowids, after } = this.ranking(match, matches, query, textOf(words));
      // A ranking short of its bound holds every match: no count needed.
      const total = rowids.length < RANKED_MATCHES ? rowids.length : this.fts.count(matches);
      if (offset >= total) return { rowids: [], total };
      const ranked = Array.from(rowids.subarray(offset, offset + limit));
      const need = limit - ranked.length;
      if (need <= 0 || rowids.length < RANKED_MATCHES) return { rowids: ranked, total };
      const more = this.pageAfter.all(matches, after, need, Math.max(0, offset - rowids.length));
      return { rowids: [...ranked, ...more.map((row) => row.rowid)], total };
    }
    const total = this.fts.count(matches);
    if (offset >= total) return { rowids: [], total };
    if (sort === "stars") return { rowids: this.fts.page(matches, offset, limit), total };
    const order = this.orders.sorted(sort, null, false);
    return { rowids: this.sortedPage(matches, total, order, offset, limit), total };
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
      const first = (this.firstRows.values(matches, RANKED_MATCHES) as Array<[number]>).map(([rowid]) => rowid);
      const named =
        first.length === 0 ? new Set<number>() : new Set(this.upTo.values(inName, first.at(-1)!).map(([r]) => r));
      rows = first.map((rowid) => [rowid, named.has(rowid) ? -1 : -BROAD_OTHER_FIELD]);
    } else {
      const weighed = searchMatch({ ...match, all: match.scored }, query);
      rows = this.bm25.values(weighed, RANKED_MATCHES) as Array<[number, number]>;
    }
    return keep(this.rankings, key, rankingOf(rows, exact, this.popularity, this.originals));
  }

  /**
   * Rowids of plugins whose name or full name is exactly `text` (lowercase, trimmed), and of those
   * whose owner is. A `text` that is both a repository's name and an owner is taken both ways:
   * the owner's repositories are exact matches too, and popularity orders them with the one so named.
   */
  private exactMatches(text: string): ExactRows {
    if (/\s/.test(text)) return { exact: new Set(), owned: new Set() };
    if (text.includes("/")) return { exact: new Set(this.exactId.all(text).map((row) => row.rowid)), owned: new Set() };
    const owned = new Set(this.exactOwner.all(`${text}/`, `${text}0`).map((row) => row.rowid));
    const exact = new Set(this.exactName.all(text).map((row) => row.rowid));
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

  /**
   * The query's words with each word that matches nothing replaced by the nearest word of the
   * index (see Vocabulary.nearest: by edit distance, failing that by trigrams); null when nothing
   * changed. Worked out once per read query.
   */
  private corrected(read: ReadQuery): QueryWord[] | null {
    if (read.corrected !== undefined) return read.corrected;
    let changed = false;
    const words = read.words.map((word) => {
      const unknown = this.unknownToken(word);
      const nearest = unknown === null ? undefined : this.vocabulary().nearest(unknown, 1)[0];
      if (nearest === undefined) return word;
      changed = true;
      return this.wordOf(nearest.word);
    });
    read.corrected = changed ? words : null;
    return read.corrected;
  }

  /** A vocabulary word as a word of a query. */
  private wordOf(text: string): QueryWord {
    return readWords(text, this.synonyms)[0]!;
  }

  /** The word's token when it can be corrected and matches nothing, else null. */
  private unknownToken(word: QueryWord): string | null {
    const [token] = word.tokens;
    if (word.tokens.length !== 1 || !CORRECTABLE.test(token!)) return null;
    return this.fts.count(prefixPhrase(token!)) > 0 ? null : token!;
  }

  /**
   * "Did you mean": for a search that found nothing, up to `limit` searches with one word that
   * matches nothing replaced by one of its nearest words of the index, nearest first. Empty when
   * every word of `q` is found on its own (the words together, or the filters, found nothing).
   */
  suggestions(q: string, limit = 3): string[] {
    const { words } = this.readQuery(q);
    const found = new Set<string>();
    const options = words.flatMap((word, i) => {
      const unknown = this.unknownToken(word);
      if (unknown === null) return [];
      return this.vocabulary()
        .nearest(unknown, limit)
        .map((nearest, rank) => ({
          rank,
          text: textOf(words.map((w, j) => (j === i ? { ...w, text: nearest.word } : w))),
        }));
    });
    options.sort((a, b) => a.rank - b.rank);
    for (const { text } of options) if (found.size < limit) found.add(text);
    return [...found];
  }

  /** The snapshot's correction vocabulary; a file built without one gets it from its terms. */
  private vocabulary(): Vocabulary {
    if (this.words === null) {
      const text = this.orderBlob.get(VOCABULARY)?.ids;
      const index = this.orderBlob.get(TRIGRAMS)?.ids;
      if (text && index) this.words = Vocabulary.decode(text, index);
      else {
        const terms = this.db.query<{ term: string; doc: number }, []>(`SELECT term, 0 AS doc FROM terms`).all();
        this.words = Vocabulary.fromWords(vocabularyOf(terms));
      }
    }
    return this.words;
  }

  /**
   * The number of plugins per category id among those a query (without category, sort or paging)
   * finds, as the list's `category` filter counts them, from one match set: a category the search
   * misses counts the corrected spelling's matches, as its list page would.
   */
  categoryCounts(query: Query, categories: readonly string[]): Map<string, number> {
    if (query.q == null) {
      const archived = query.archived ?? null;
      const members = detailMembers(query);
      const curated = query.curated ?? false;
      return new Map(categories.map((id) => [id, this.orders.sorted("stars", id, curated, archived, members).length]));
    }
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
