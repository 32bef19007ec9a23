/**
 * One published snapshot, opened read-only: its plugins' rows, by the statements here, and which
 * rows a list query finds, by its Searcher (searcher.ts). Routes never see the database.
 */
import { Database, type Statement } from "bun:sqlite";
import type { Log } from "../../base/log";
import type { CandidateDecision, ListingRules } from "../model/candidates";
import type { IncludePart } from "../model/details";
import { type DetailFragments, withParts } from "../model/fragments";
import type { McpRegistryIdentity } from "../model/mcp-identity";
import { SCHEMA_VERSION } from "../model/snapshot-schema";
import { fragmentsProblem } from "../model/stored";
import type { CategoryInfo, HistoryEvent, Page, SnapshotStats } from "../model/types";
import { FtsIndex } from "../search/fts";
import { blobReader, decodeInt32, ListOrders } from "../search/orders";
import type { Query } from "../search/query";
import { synonymsOf } from "../search/search-text";
import { Searcher } from "../search/searcher";
import { prefixUpperBound, rankRowids, SCAN_LIMIT } from "../search/typeahead";
import type { Vocabulary } from "../search/vocabulary";
import { type CatalogQuery, CatalogRows, type CatalogSlice, DETAIL_COLUMNS } from "./catalog-rows";
import { DetailChecks, type DetailRow, rowFragments } from "./details-check";

export type { CatalogSlice } from "./catalog-rows";

interface FullRow extends DetailRow {
  full_json: string;
}

/** A feed entry: only what the RSS item needs. */
export interface NewestRow {
  full_name: string;
  url: string;
  description: string;
  categories: string;
  first_seen_at: string;
}

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
  /** Every query's rowids: the orders, the full-text search, the corrections. */
  private readonly searcher: Searcher;
  private readonly byRowid: Statement<{ full_json: string }>;
  private readonly byId: Statement<{ full_json: string }>;
  private readonly byRowidWith: Statement<FullRow>;
  private readonly byIdWith: Statement<FullRow>;
  private readonly starsRange: Statement<{ short_json: string }>;
  private readonly newestRow: Statement<NewestRow>;
  /** The evidence and star floors the refresher applied to this snapshot's candidates. */
  readonly listingRules: ListingRules;
  private readonly candidateById: Statement<{ json: string }, [string]>;
  private readonly rows: CatalogRows;
  private isClosed = false;
  private readonly suggestRow: Statement<{ json: string }, [number]>;
  private readonly suggestRange: Statement<{ plugin: number }, [string, string]>;
  private readonly suggestFrom: Statement<{ plugin: number }, [string]>;
  private readonly suggestBest: Statement<{ ids: Uint8Array }, [string]>;
  /** Each row's stored details, checked once on first use (details-check.ts). */
  private readonly checks: DetailChecks;

  private constructor(
    private readonly db: Database,
    log: Log | null,
  ) {
    const version = this.metaValue("schema_version");
    if (version !== String(SCHEMA_VERSION)) throw new SnapshotError(`unsupported schema version ${version}`);
    this.stats = JSON.parse(this.metaValue("stats")) as SnapshotStats;
    this.categoryIds = new Set(JSON.parse(this.metaValue("category_ids")) as string[]);
    this.categories = JSON.parse(this.metaValue("categories")) as CategoryInfo[];
    this.byRowid = db.prepare(`SELECT full_json FROM plugins WHERE rowid = ?`);
    this.byId = db.prepare(`SELECT full_json FROM plugins WHERE id = ?`);
    this.byRowidWith = db.prepare(`SELECT full_json, ${DETAIL_COLUMNS} FROM plugins WHERE rowid = ?`);
    this.byIdWith = db.prepare(`SELECT full_json, ${DETAIL_COLUMNS} FROM plugins WHERE id = ?`);
    this.starsRange = db.prepare(`SELECT short_json FROM plugins WHERE rowid > ? AND rowid <= ? ORDER BY rowid`);
    this.newestRow = db.prepare(
      `SELECT id AS full_name, url, description, categories, first_seen_at FROM plugins WHERE rowid = ?`,
    );
    const blob = blobReader(db);
    this.orders = new ListOrders(blob, this.stats.total);
    const synonyms = synonymsOf(JSON.parse(this.metaValue("synonyms")) as string[][]);
    this.searcher = new Searcher(db, new FtsIndex(db), this.orders, blob, synonyms, this.stats.total);
    this.suggestRow = db.prepare(
      `SELECT json_object('id', id, 'name', name, 'description', description, 'stars', stars) AS json FROM plugins WHERE rowid = ?`,
    );
    this.suggestRange = db.prepare(
      `SELECT plugin FROM suggest_keys WHERE key >= ? AND key < ? LIMIT ${SCAN_LIMIT + 1}`,
    );
    this.suggestFrom = db.prepare(`SELECT plugin FROM suggest_keys WHERE key >= ? LIMIT ${SCAN_LIMIT + 1}`);
    this.suggestBest = db.prepare(`SELECT ids FROM suggest_best WHERE prefix = ?`);
    this.listingRules = JSON.parse(this.metaValue("listing_rules")) as ListingRules;
    this.candidateById = db.prepare(`SELECT json FROM candidates WHERE id = ?`);
    this.checks = new DetailChecks(this.stats.total, log);
    this.rows = new CatalogRows(db, this.searcher, (row) => this.checks.of(row));
  }

  /**
   * Opens a published snapshot file read-only; throws SnapshotError when it is not one. `log`
   * hears of every row whose stored details fail their schema and are served without them.
   */
  static open(path: string, log: Log | null = null): Snapshot {
    let db: Database | undefined;
    try {
      db = new Database(path, { readonly: true, strict: true });
      return new Snapshot(db, log);
    } catch (error) {
      db?.close();
      if (error instanceof SnapshotError) throw error;
      throw new SnapshotError(`cannot open snapshot ${path}: ${(error as Error).message}`);
    }
  }

  /** Checks every row's stored details now; the ids (at most `keep`) and number of rows that fail. */
  checkAllDetails(keep = 5): { dropped: number; first: Array<{ id: string; problem: string }> } {
    const first: Array<{ id: string; problem: string }> = [];
    let dropped = 0;
    for (const row of this.db.query<FullRow, []>(`SELECT full_json, ${DETAIL_COLUMNS} FROM plugins`).iterate()) {
      const problem = fragmentsProblem(rowFragments(row));
      if (problem === null) continue;
      dropped++;
      if (first.length < keep) first.push({ id: row.id.slice(0, 140), problem: problem.slice(0, 200) });
    }
    return { dropped, first };
  }

  /** What a snapshot file records: its time and its number of plugins; throws SnapshotError when it is not one. */
  static recorded(path: string): { snapshotAt: string; total: number } {
    const snapshot = Snapshot.open(path);
    try {
      return { snapshotAt: snapshot.snapshotAt, total: snapshot.stats.total };
    } finally {
      snapshot.close();
    }
  }

  get snapshotAt(): string {
    return this.stats.snapshotAt;
  }

  /** The refresher's last decision about a repository (ids compare case-insensitively), or null. */
  candidate(id: string): CandidateDecision | null {
    const row = this.candidateById.get(id);
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
    return row ? withParts(row.full_json, this.checks.of(row), include) : null;
  }

  /** A page of full-form plugin JSON for a list query (see Searcher.find). */
  list(query: Query): Page<string> {
    const found = this.searcher.find(query);
    return { ...found, items: this.fullJson(found.items, query.include) };
  }

  /** "Did you mean": see Searcher.suggestions. */
  suggestions(q: string, limit = 3): string[] {
    return this.searcher.suggestions(q, limit);
  }

  /** Takes `words` (read elsewhere) as the correction vocabulary, or reads it now: the store does before serving. */
  prepareVocabulary(words?: Vocabulary): void {
    this.searcher.prepareVocabulary(words);
  }

  private fullJson(rowids: ArrayLike<number>, include: readonly IncludePart[] = []): string[] {
    if (include.length === 0) return Array.from(rowids, (rowid) => this.byRowid.get(rowid)!.full_json);
    return Array.from(rowids, (rowid) => {
      const row = this.byRowidWith.get(rowid)!;
      return withParts(row.full_json, this.checks.of(row), include);
    });
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
    if (plugins.length <= SCAN_LIMIT) return rankRowids(plugins, this.searcher.popularity);
    const best = this.suggestBest.get(p)?.ids;
    if (best) return Array.from(decodeInt32(best));
    return rankRowids(plugins.slice(0, SCAN_LIMIT), this.searcher.popularity);
  }

  /** A typeahead item: `{id, name, description, stars}` as JSON. */
  suggestItem(rowid: number): string {
    return this.suggestRow.get(rowid)!.json;
  }

  /** Plugins in catalog form after `rowid`, by stars: see CatalogRows.after. */
  catalogRowsAfter(rowid: number, limit: number): CatalogSlice[] {
    return this.rows.after(rowid, limit);
  }

  /** Plugins in catalog form a filter-only query finds: see CatalogRows.of. */
  catalogRowsOf(query: CatalogQuery, offset: number, limit: number): CatalogSlice[] {
    return this.rows.of(query, offset, limit);
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

  /** True when built under an organization's policy (policy-apply.ts): the managed settings are served then. */
  underPolicy = (): boolean => this.db.query(`SELECT 1 FROM meta WHERE key = 'policy'`).get() !== null;
  /** True once closed: a reader working in slices stops. */
  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * The server.json identity (name, version) of each plugin that states one, by lowercased id; none
   * in a snapshot written before they were kept.
   */
  mcpRegistry(): Map<string, McpRegistryIdentity> {
    const row = this.db.query<{ value: string }, [string]>(`SELECT value FROM meta WHERE key = ?`).get("mcp_registry");
    const stored = row ? (JSON.parse(row.value) as Record<string, McpRegistryIdentity>) : {};
    return new Map(Object.entries(stored).map(([id, identity]) => [id.toLowerCase(), identity]));
  }

  /**
   * The ids of up to `limit` installable MCP servers a search for `text` finds, by stars: what the
   * MCP registry API's `search` is answered from.
   */
  mcpSearch(text: string, limit: number): string[] {
    const found = this.searcher.find({ q: text, has: ["install"], harness: "mcp", sort: "stars", offset: 0, limit });
    this.idByRowid ??= this.db.prepare(`SELECT id FROM plugins WHERE rowid = ?`);
    return found.items.map((rowid) => this.idByRowid!.get(rowid)!.id);
  }

  private idByRowid: Statement<{ id: string }, [number]> | null = null;

  /** When a plugin's catalog form last changed: see CatalogRows.changedAt. */
  readonly changedAt = (id: string): string | null => this.rows.changedAt(id);
  /** A plugin's last update as checked JSON, or null: see CatalogRows.lastUpdate. */
  readonly lastUpdate = (id: string): string | null => this.rows.lastUpdate(id);

  /** The current id of a former id (a renamed plugin's old name), or null. */
  currentId(formerId: string): string | null {
    return this.db.query<{ id: string }, [string]>(`SELECT id FROM aliases WHERE old_id = ?`).get(formerId)?.id ?? null;
  }

  /** The number of plugins per category id among those a query finds (see Searcher.categoryCounts). */
  categoryCounts(query: Query): Map<string, number> {
    const ids = this.categories.map((c) => c.id);
    return this.searcher.categoryCounts(query, ids);
  }

  close(): void {
    this.isClosed = true;
    this.db.close(false);
  }
}
