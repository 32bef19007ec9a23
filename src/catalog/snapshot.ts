/**
 * One published snapshot, opened read-only. Every SQL statement the server runs is a named,
 * prepared statement here; routes never see the database.
 */
import { Database, type Statement } from "bun:sqlite";
import { type CandidateDecision, type ListingRules, NO_LISTING_RULES } from "./candidates";
import { type DetailFragments, type IncludePart, withParts } from "./details";
import { FtsIndex } from "./fts";
import { composeEvents } from "./history";
import { ListOrders, type Sort } from "./orders";
import { type ExactRows, pageInOrder, probedPage, RANKED_MATCHES, Ranker } from "./ranking";
import { detailMemberKey, ORIGINALS, POPULARITY, SCHEMA_VERSION } from "./schema";
import { type MatchQuery, prefixPhrase, queryWords, searchMatch, toMatchQuery } from "./search";
import { type Synonyms, synonymsOf } from "./searchtext";
import { prefixUpperBound, rankRowids, SCAN_LIMIT } from "./suggest";
import type { CategoryInfo, HistoryEvent, SnapshotStats } from "./types";
import { catalogJson } from "./views";
import { CORRECTABLE, TRIGRAMS, VOCABULARY, Vocabulary, vocabularyOf } from "./vocabulary";

export interface Page<T> {
  items: T[];
  total: number;
  /** The query searched instead of `q`, when `q` matched nothing and a nearby spelling did. */
  corrected?: string;
}

export interface ListQuery {
  /** The search text; null for no search. */
  q: string | null;
  category: string | null;
  curated: boolean;
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
  sort: Sort;
  offset: number;
  limit: number;
}

/** The member keys of a query's detail filters (see schema.ts detailMemberKey). */
function detailMembers(query: Pick<ListQuery, "has" | "harness" | "original">): string[] {
  const keys = (query.has ?? []).map((kind) => detailMemberKey("has", kind));
  if (query.harness) keys.push(detailMemberKey("harness", query.harness));
  if (query.original) keys.push(detailMemberKey("original"));
  return keys;
}

/** What changed from an earlier snapshot to this one, as catalog-form JSON and ids. */
export interface Changes {
  added: string[];
  updated: string[];
  removed: string[];
  renamed: Array<{ from: string; to: string }>;
}

interface CatalogRow {
  full_json: string;
  curated: number;
  first_seen_at: string;
  repo_id: number | null;
  previous_ids: string;
  x_contents: string;
  x_install: string;
  x_flags: string;
  x_works_with: string;
}

interface FullRow {
  full_json: string;
  x_contents: string;
  x_install: string;
  x_flags: string;
  x_works_with: string;
}

function fragmentsOf(row: FullRow): DetailFragments {
  return { contents: row.x_contents, install: row.x_install, flags: row.x_flags, works_with: row.x_works_with };
}

function catalogRowJson(row: CatalogRow): string {
  return catalogJson(
    row.full_json,
    row.curated === 1,
    row.first_seen_at,
    row.repo_id,
    row.previous_ids,
    fragmentsOf(row),
  );
}

const DETAIL_COLUMNS = "x_contents, x_install, x_flags, x_works_with";
const CATALOG_COLUMNS = `full_json, curated, first_seen_at, repo_id, previous_ids, ${DETAIL_COLUMNS}`;

interface CatalogSliceRow extends CatalogRow {
  rowid: number;
  id: string;
  changed_at: string;
}

/** One plugin in catalog form, with what decides which `changes` answers hold it. */
export interface CatalogSlice {
  rowid: number;
  id: string;
  changedAt: string;
  firstSeenAt: string;
  json: string;
}

/** A feed entry: only what the RSS item needs. */
export interface NewestRow {
  full_name: string;
  url: string;
  description: string;
  categories: string;
  first_seen_at: string;
}

/** Matches listed in the time of one index lookup by rowid (measured 60 to 150 at 100,000 plugins). */
const PROBE_PER_MATCHES = 64;

/** A prefix of more terms than this stays an FTS5 prefix query rather than a long OR. */
const MAX_PREFIX_TERMS = 64;

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

export class Snapshot {
  readonly stats: SnapshotStats;
  /** Every id of the snapshot's category set: what the `category` filter accepts. */
  readonly categoryIds: ReadonlySet<string>;
  /** The category set with names and descriptions, in the editors' order. */
  readonly categories: readonly CategoryInfo[];
  private readonly orders: ListOrders;
  private readonly fts: FtsIndex;
  /** Scratch space of `pageInOrder`: one byte per rowid. */
  private marks: Uint8Array | null = null;
  private readonly byRowid: Statement<{ full_json: string }>;
  private readonly byId: Statement<{ full_json: string }>;
  private readonly byRowidWith: Statement<FullRow>;
  private readonly byIdWith: Statement<FullRow>;
  private readonly orderBlob: Statement<{ ids: Uint8Array }>;
  private readonly starsRange: Statement<{ short_json: string }>;
  private readonly newestRow: Statement<NewestRow>;
  private readonly termsByPrefix: Statement<{ term: string }, [string]>;
  private readonly exactId: Statement<{ rowid: number }, [string]>;
  private readonly exactName: Statement<{ rowid: number }, [string]>;
  private readonly exactOwner: Statement<{ rowid: number }, [string, string]>;
  private readonly ranker: Ranker;
  private readonly synonyms: Synonyms;
  /** The evidence and star floors the refresher applied to this snapshot's candidates. */
  readonly listingRules: ListingRules;
  private readonly candidateById: Statement<{ json: string }, [string]> | null;
  private catalogSlice: Statement<CatalogSliceRow, [number, number]> | null = null;
  private isClosed = false;
  /** The search's popularity by rowid (0 past the blob, an older snapshot's). */
  private readonly popularity: Float64Array;
  private readonly suggestRow: Statement<{ json: string }, [number]>;
  private readonly suggestRange: Statement<{ plugin: number }, [string, string]>;
  private readonly suggestFrom: Statement<{ plugin: number }, [string]>;
  private readonly suggestBest: Statement<{ ids: Uint8Array }, [string]>;
  /** The correction vocabulary, read on the first correction. */
  private words: Vocabulary | null = null;

  private constructor(private readonly db: Database) {
    const version = this.metaValue("schema_version");
    if (version !== String(SCHEMA_VERSION)) throw new SnapshotError(`unsupported schema version ${version}`);
    this.stats = JSON.parse(this.metaValue("stats")) as SnapshotStats;
    this.categoryIds = new Set(JSON.parse(this.metaValue("category_ids")) as string[]);
    this.categories = JSON.parse(this.metaValue("categories")) as CategoryInfo[];
    this.byRowid = db.prepare(`SELECT full_json FROM plugins WHERE rowid = ?`);
    this.byId = db.prepare(`SELECT full_json FROM plugins WHERE id = ?`);
    this.byRowidWith = db.prepare(`SELECT full_json, ${DETAIL_COLUMNS} FROM plugins WHERE rowid = ?`);
    this.byIdWith = db.prepare(`SELECT full_json, ${DETAIL_COLUMNS} FROM plugins WHERE id = ?`);
    this.orderBlob = db.prepare(`SELECT ids FROM orders WHERE key = ?`);
    this.starsRange = db.prepare(`SELECT short_json FROM plugins WHERE rowid > ? AND rowid <= ? ORDER BY rowid`);
    this.newestRow = db.prepare(
      `SELECT id AS full_name, url, description, categories, first_seen_at FROM plugins WHERE rowid = ?`,
    );
    this.fts = new FtsIndex(db);
    this.orders = new ListOrders((key) => this.orderBlob.get(key)?.ids ?? null, this.stats.total);
    this.termsByPrefix = db.prepare(
      `SELECT term FROM terms WHERE term GLOB ? ORDER BY term LIMIT ${MAX_PREFIX_TERMS + 1}`,
    );
    this.exactId = db.prepare(`SELECT rowid FROM plugins WHERE id = ?`);
    this.exactName = db.prepare(`SELECT rowid FROM plugins WHERE name = ? COLLATE NOCASE`);
    this.exactOwner = db.prepare(`SELECT rowid FROM plugins WHERE id >= ? AND id < ?`);
    const popularity = this.orderBlob.get(POPULARITY)?.ids;
    this.popularity = popularity ? new Float64Array(popularity.slice().buffer) : new Float64Array(0);
    const originals = this.orderBlob.get(ORIGINALS)?.ids;
    this.ranker = new Ranker(
      db,
      this.popularity,
      originals ? new Int32Array(originals.slice().buffer) : new Int32Array(0),
    );
    this.suggestRow = db.prepare(
      `SELECT json_object('id', id, 'name', name, 'description', description, 'stars', stars) AS json FROM plugins WHERE rowid = ?`,
    );
    this.suggestRange = db.prepare(
      `SELECT plugin FROM suggest_keys WHERE key >= ? AND key < ? LIMIT ${SCAN_LIMIT + 1}`,
    );
    this.suggestFrom = db.prepare(`SELECT plugin FROM suggest_keys WHERE key >= ? LIMIT ${SCAN_LIMIT + 1}`);
    this.suggestBest = db.prepare(`SELECT ids FROM suggest_best WHERE prefix = ?`);
    this.synonyms = synonymsOf(JSON.parse(this.metaValue("synonyms")) as string[][]);
    const rules = this.optionalMeta("listing_rules");
    // A snapshot from before a kind of evidence was kept lacks its list.
    this.listingRules = { ...NO_LISTING_RULES, ...(rules === null ? {} : (JSON.parse(rules) as ListingRules)) };
    const hasCandidates = db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'candidates'`).get();
    this.candidateById = hasCandidates ? db.prepare(`SELECT json FROM candidates WHERE id = ?`) : null;
  }

  /** Opens a published snapshot file read-only; throws SnapshotError when it is not one. */
  static open(path: string): Snapshot {
    let db: Database | undefined;
    try {
      db = new Database(path, { readonly: true, strict: true });
      return new Snapshot(db);
    } catch (error) {
      db?.close();
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError(`cannot open snapshot ${path}: ${(error as Error).message}`);
    }
  }

  get snapshotAt(): string {
    return this.stats.snapshotAt;
  }

  private optionalMeta(key: string): string | null {
    return this.db.query<{ value: string }, [string]>(`SELECT value FROM meta WHERE key = ?`).get(key)?.value ?? null;
  }

  /** The refresher's last decision about a repository (ids compare case-insensitively), or null. */
  candidate(id: string): CandidateDecision | null {
    const row = this.candidateById?.get(id);
    return row ? (JSON.parse(row.json) as CandidateDecision) : null;
  }

  private metaValue(key: string): string {
    const row = this.db.query<{ value: string }, [string]>(`SELECT value FROM meta WHERE key = ?`).get(key);
    if (!row) throw new SnapshotError(`snapshot metadata lacks ${key}`);
    return row.value;
  }

  /** The full-form JSON of one plugin (ids compare case-insensitively), or null. */
  plugin(id: string, include: readonly IncludePart[] = []): string | null {
    if (include.length === 0) return this.byId.get(id)?.full_json ?? null;
    const row = this.byIdWith.get(id);
    return row ? withParts(row.full_json, fragmentsOf(row), include) : null;
  }

  /**
   * A page of full-form plugin JSON for a list query. A search that finds nothing is tried once
   * more with its unknown words corrected to their nearest index terms.
   */
  list(query: ListQuery): Page<string> {
    if (query.q !== null) {
      const page = this.searchText(query, query.q);
      if (page.total > 0) return page;
      const corrected = this.corrected(query.q);
      if (corrected === null) return page;
      const retry = this.searchText(query, corrected);
      return retry.total > 0 ? { ...retry, corrected } : page;
    }
    const ids = this.orders.sorted(
      query.sort,
      query.category,
      query.curated,
      query.archived ?? null,
      detailMembers(query),
    );
    const slice = ids.subarray(query.offset, query.offset + query.limit);
    return { items: this.fullJson(slice, query.include), total: ids.length };
  }

  private searchText(query: ListQuery, q: string): Page<string> {
    const match = toMatchQuery(q, (prefix) => this.termsOf(prefix), this.synonyms);
    return match === null ? { items: [], total: 0 } : this.search(query, q, match);
  }

  /**
   * `q` with each word that matches nothing replaced by the nearest word of the index (see
   * Vocabulary.nearest: by edit distance, failing that by trigrams); null when nothing changed.
   */
  private corrected(q: string): string | null {
    let changed = false;
    const words = q
      .trim()
      .split(/\s+/)
      .map((word) => {
        const unknown = this.unknownToken(word);
        const nearest = unknown === null ? undefined : this.vocabulary().nearest(unknown, 1)[0];
        if (nearest === undefined) return word;
        changed = true;
        return nearest.word;
      });
    return changed ? words.join(" ") : null;
  }

  /** The word as the index reads it when it can be corrected and matches nothing, else null. */
  private unknownToken(word: string): string | null {
    const tokens = queryWords(word, this.synonyms)[0];
    if (tokens?.length !== 1 || !CORRECTABLE.test(tokens[0]!)) return null;
    return this.fts.count(prefixPhrase(tokens[0]!)) > 0 ? null : tokens[0]!;
  }

  /**
   * "Did you mean": for a search that found nothing, up to `limit` searches with one word that
   * matches nothing replaced by one of its nearest words of the index, nearest first. Empty when
   * every word of `q` is found on its own (the words together, or the filters, found nothing).
   */
  suggestions(q: string, limit = 3): string[] {
    const words = q.trim().split(/\s+/);
    const found = new Set<string>();
    const options = words.flatMap((word, i) => {
      const unknown = this.unknownToken(word);
      if (unknown === null) return [];
      return this.vocabulary()
        .nearest(unknown, limit)
        .map((nearest, rank) => ({ rank, text: words.map((w, j) => (j === i ? nearest.word : w)).join(" ") }));
    });
    options.sort((a, b) => a.rank - b.rank);
    for (const { text } of options) if (found.size < limit) found.add(text);
    return [...found];
  }

  /** Takes `words` (read elsewhere) as the correction vocabulary, or reads it now: the store does before serving. */
  prepareVocabulary(words?: Vocabulary): void {
    if (words !== undefined) this.words ??= words;
    this.vocabulary();
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
   * Rowids of plugins whose name or full name is exactly `q` (case aside), and of those whose
   * owner is. A `q` that is both a repository's name and an owner is taken both ways: the owner's
   * repositories are exact matches too, and popularity orders them with the one so named.
   */
  private exactMatches(q: string): ExactRows {
    const text = q.trim();
    if (/\s/.test(text)) return { exact: new Set(), owned: new Set() };
    if (text.includes("/")) return { exact: new Set(this.exactId.all(text).map((row) => row.rowid)), owned: new Set() };
    const owned = new Set(this.exactOwner.all(`${text}/`, `${text}0`).map((row) => row.rowid));
    const exact = new Set(this.exactName.all(text).map((row) => row.rowid));
    if (exact.size > 0) for (const rowid of owned) exact.add(rowid);
    return { exact, owned };
  }

  /** The index terms starting with `prefix` (ASCII letters and digits), or null past the bound. */
  private termsOf(prefix: string): string[] | null {
    const terms = this.termsByPrefix.all(`${prefix}*`).map((row) => row.term);
    return terms.length > MAX_PREFIX_TERMS ? null : terms;
  }

  private fullJson(rowids: ArrayLike<number>, include: readonly IncludePart[] = []): string[] {
    if (include.length === 0) return Array.from(rowids, (rowid) => this.byRowid.get(rowid)!.full_json);
    return Array.from(rowids, (rowid) => {
      const row = this.byRowidWith.get(rowid)!;
      return withParts(row.full_json, fragmentsOf(row), include);
    });
  }

  /**
   * Relevance pages come from the search's ranking (ranking.ts); stars pages stream from the index
   * in stars order; the other sorts mark the matches and walk the sort's precomputed order.
   */
  private search(query: ListQuery, q: string, match: MatchQuery): Page<string> {
    const matches = searchMatch(match, query);
    if (query.sort === "default") {
      const exact = q.trim().toLowerCase();
      const inName = `(${matches}) AND ({name fullname} : (${match.phrases.join(" OR ")}))`;
      const count = () => this.fts.count(matches);
      const ranking = this.ranker.ranking(
        matches,
        searchMatch({ ...match, all: match.scored }, query),
        count,
        inName,
        () => this.exactMatches(exact),
        `${matches}\u0000${exact}`,
      );
      // A ranking short of its bound holds every match: no count needed.
      const total = ranking.rowids.length < RANKED_MATCHES ? ranking.rowids.length : this.fts.count(matches);
      if (query.offset >= total) return { items: [], total };
      const rowids = this.ranker.page(matches, ranking, query.offset, query.limit);
      return { items: this.fullJson(rowids, query.include), total };
    }
    const total = this.fts.count(matches);
    if (query.offset >= total) return { items: [], total };
    if (query.sort === "stars")
      return { items: this.fullJson(this.fts.page(matches, query.offset, query.limit), query.include), total };
    const order = this.orders.sorted(query.sort, null, false);
    const rowids = this.sortedPage(matches, total, order, query.offset, query.limit);
    return { items: this.fullJson(rowids, query.include), total };
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
    this.marks ??= new Uint8Array(this.stats.total + 1);
    return pageInOrder(order, this.fts.all(matches), this.marks, offset, limit);
  }

  /** A page of the sync list: short-form JSON by stars desc, which is rowid order. */
  byStars(offset: number, limit: number): Page<string> {
    if (offset >= this.stats.total) return { items: [], total: this.stats.total };
    const rows = this.starsRange.all(offset, offset + limit);
    return { items: rows.map((r) => r.short_json), total: this.stats.total };
  }

  /** The newest plugins: most recently first seen, then created_at desc; within `category` when given. */
  newest(limit: number, category: string | null = null): NewestRow[] {
    const order = category === null ? this.orders.newest() : this.orders.sorted("newest", category, false);
    return Array.from(order.subarray(0, limit), (rowid) => this.newestRow.get(rowid)!);
  }

  /**
   * Rowids of the plugins whose name or full name starts with `prefix` (case aside), best first:
   * at most SCAN_LIMIT + 1 keys of the build's index read and ranked, or one prefix's stored best.
   */
  suggest(prefix: string): number[] {
    const p = prefix.toLowerCase();
    if (p === "") return [];
    const upper = prefixUpperBound(p);
    const rows = upper === null ? this.suggestFrom.all(p) : this.suggestRange.all(p, upper);
    const plugins = rows.map((r) => r.plugin);
    if (plugins.length <= SCAN_LIMIT) return rankRowids(plugins, this.popularity);
    const best = this.suggestBest.get(p)?.ids;
    if (best) return Array.from(new Int32Array(best.slice().buffer));
    return rankRowids(plugins.slice(0, SCAN_LIMIT), this.popularity);
  }

  /** A typeahead item: `{id, name, description, stars}` as JSON. */
  suggestItem(rowid: number): string {
    return this.suggestRow.get(rowid)!.json;
  }

  /** Every plugin in catalog form, by stars desc (rowid order). */
  catalogItems(): string[] {
    return this.db
      .query<CatalogRow, []>(`SELECT ${CATALOG_COLUMNS} FROM plugins ORDER BY rowid`)
      .all()
      .map(catalogRowJson);
  }

  /**
   * Up to `limit` plugins after `rowid` in catalog form, by stars desc (rowid order), with their
   * change and first-seen times: what the per-snapshot documents are written from, a slice at a time.
   */
  catalogRowsAfter(rowid: number, limit: number): CatalogSlice[] {
    this.catalogSlice ??= this.db.query<CatalogSliceRow, [number, number]>(
      `SELECT rowid, id, changed_at, ${CATALOG_COLUMNS} FROM plugins WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    );
    return this.catalogSlice.all(rowid, limit).map((row) => ({
      rowid: row.rowid,
      id: row.id,
      changedAt: row.changed_at,
      firstSeenAt: row.first_seen_at,
      json: catalogRowJson(row),
    }));
  }

  /** The snapshot times the history reaches, oldest first. */
  historySnapshots(): string[] {
    return this.db
      .query<{ at: string }, []>(`SELECT at FROM history_snapshots ORDER BY at`)
      .all()
      .map((row) => row.at);
  }

  /** Every removal and rename the history keeps, in the order they were published. */
  historyEvents(): HistoryEvent[] {
    return this.db.query<HistoryEvent, []>(`SELECT at, kind, id, to_id AS "to" FROM history_events ORDER BY seq`).all();
  }

  /** True once closed: a reader working in slices stops. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** The current id of a former id (a renamed plugin's old name), or null. */
  currentId(formerId: string): string | null {
    return this.db.query<{ id: string }, [string]>(`SELECT id FROM aliases WHERE old_id = ?`).get(formerId)?.id ?? null;
  }

  /**
   * What changed since the snapshot published at `since`; null when this snapshot's history does
   * not reach it (unknown, or older than the history kept). A plugin first seen after `since` is
   * added; any other whose catalog record changed after it is updated.
   */
  changesSince(since: string): Changes | null {
    if (since === this.snapshotAt) return { added: [], updated: [], removed: [], renamed: [] };
    const known = this.db.query<{ at: string }, [string]>(`SELECT at FROM history_snapshots WHERE at = ?`).get(since);
    if (!known) return null;
    const added: string[] = [];
    const updated: string[] = [];
    const changed = this.db.query<CatalogRow, [string]>(
      `SELECT ${CATALOG_COLUMNS} FROM plugins WHERE changed_at > ? ORDER BY rowid`,
    );
    for (const row of changed.all(since)) (row.first_seen_at > since ? added : updated).push(catalogRowJson(row));
    const events = this.db
      .query<HistoryEvent, [string]>(`SELECT at, kind, id, to_id AS "to" FROM history_events WHERE at > ? ORDER BY seq`)
      .all(since);
    const ids = this.db.query<{ id: string }, []>(`SELECT id FROM plugins`).all();
    const { removed, renamed } = composeEvents(events, since, new Set(ids.map((row) => row.id.toLowerCase())));
    return { added, updated, removed, renamed };
  }

  /**
   * The number of plugins per category id among those a list query (without paging) finds, as the
   * list's `category` filter counts them, from one match set: a category the search misses counts
   * the corrected spelling's matches, as its list page would, the correction made at most once.
   */
  categoryCounts(query: Omit<ListQuery, "category" | "sort" | "offset" | "limit">): Map<string, number> {
    const ids = this.categories.map((c) => c.id);
    if (query.q === null) {
      const archived = query.archived ?? null;
      const members = detailMembers(query);
      return new Map(ids.map((id) => [id, this.orders.sorted("stars", id, query.curated, archived, members).length]));
    }
    const counts = this.orders.countIn(this.matchesOf(query, query.q), ids);
    let corrected: Map<string, number> | null | undefined;
    for (const id of ids) {
      if (counts.get(id) !== 0) continue;
      if (corrected === undefined) {
        const spelling = this.corrected(query.q);
        corrected = spelling === null ? null : this.orders.countIn(this.matchesOf(query, spelling), ids);
      }
      if (corrected === null) break;
      counts.set(id, corrected.get(id) ?? 0);
    }
    return counts;
  }

  /** Every rowid a search for `q` finds under the query's filters but the category. */
  private matchesOf(query: Omit<ListQuery, "category" | "sort" | "offset" | "limit">, q: string): Int32Array {
    const match = toMatchQuery(q, (prefix) => this.termsOf(prefix), this.synonyms);
    if (match === null) return new Int32Array(0);
    return this.fts.all(searchMatch(match, { ...query, category: null }));
  }

  close(): void {
    this.isClosed = true;
    this.db.close(false);
  }
}
