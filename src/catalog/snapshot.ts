/**
 * One published snapshot, opened read-only. Every SQL statement the server runs is a named,
 * prepared statement here; routes never see the database.
 */
import { Database, type Statement } from "bun:sqlite";
import { FtsIndex } from "./fts";
import { ListOrders, type Sort } from "./orders";
import { pageInOrder, pageOfSet, probedPage, tieredPage } from "./ranking";
import { BroadSets } from "./broadsets";
import { SCHEMA_VERSION } from "./schema";
import { searchExpressions, toMatchQuery, type MatchQuery } from "./search";
import type { SnapshotStats } from "./types";

export interface Page<T> {
  items: T[];
  total: number;
}

export interface ListQuery {
  /** The search text; null for no search. */
  q: string | null;
  category: string | null;
  curated: boolean;
  sort: Sort;
  offset: number;
  limit: number;
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
  private readonly orders: ListOrders;
  private readonly fts: FtsIndex;
  private readonly broad: BroadSets;
  /** Scratch space of `pageInOrder`: one byte per rowid. */
  private marks: Uint8Array | null = null;
  private readonly byRowid: Statement<{ full_json: string }>;
  private readonly byId: Statement<{ full_json: string }>;
  private readonly orderBlob: Statement<{ ids: Uint8Array }>;
  private readonly starsRange: Statement<{ short_json: string }>;
  private readonly newestRow: Statement<NewestRow>;
  private readonly termsByPrefix: Statement<{ term: string }, [string]>;

  private constructor(private readonly db: Database) {
    const version = this.metaValue("schema_version");
    if (version !== String(SCHEMA_VERSION)) throw new SnapshotError(`unsupported schema version ${version}`);
    this.stats = JSON.parse(this.metaValue("stats")) as SnapshotStats;
    this.categoryIds = new Set(JSON.parse(this.metaValue("category_ids")) as string[]);
    this.byRowid = db.prepare(`SELECT full_json FROM plugins WHERE rowid = ?`);
    this.byId = db.prepare(`SELECT full_json FROM plugins WHERE id = ?`);
    this.orderBlob = db.prepare(`SELECT ids FROM orders WHERE key = ?`);
    this.starsRange = db.prepare(`SELECT short_json FROM plugins WHERE rowid > ? AND rowid <= ? ORDER BY rowid`);
    this.newestRow = db.prepare(`SELECT id AS full_name, url, description, categories, first_seen_at FROM plugins WHERE rowid = ?`);
    this.fts = new FtsIndex(db);
    this.broad = new BroadSets(db);
    this.orders = new ListOrders((key) => this.orderBlob.get(key)?.ids ?? null, this.stats.total);
    this.termsByPrefix = db.prepare(`SELECT term FROM terms WHERE term GLOB ? ORDER BY term LIMIT ${MAX_PREFIX_TERMS + 1}`);
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

  private metaValue(key: string): string {
    const row = this.db.query<{ value: string }, [string]>(`SELECT value FROM meta WHERE key = ?`).get(key);
    if (!row) throw new SnapshotError(`snapshot metadata lacks ${key}`);
    return row.value;
  }

  /** The full-form JSON of one plugin (ids compare case-insensitively), or null. */
  plugin(id: string): string | null {
    return this.byId.get(id)?.full_json ?? null;
  }

  /** A page of full-form plugin JSON for a list query. */
  list(query: ListQuery): Page<string> {
    if (query.q !== null) {
      const match = toMatchQuery(query.q, (prefix) => this.termsOf(prefix));
      return match === null ? { items: [], total: 0 } : this.search(query, match);
    }
    const ids = this.orders.sorted(query.sort, query.category, query.curated);
    const slice = ids.subarray(query.offset, query.offset + query.limit);
    return { items: this.fullJson(slice), total: ids.length };
  }

  /** The index terms starting with `prefix` (ASCII letters and digits), or null past the bound. */
  private termsOf(prefix: string): string[] | null {
    const terms = this.termsByPrefix.all(`${prefix}*`).map((row) => row.term);
    return terms.length > MAX_PREFIX_TERMS ? null : terms;
  }

  private fullJson(rowids: ArrayLike<number>): string[] {
    return Array.from(rowids, (rowid) => this.byRowid.get(rowid)!.full_json);
  }

  /**
   * Relevance and stars pages stream from the index in stars order; the other sorts mark the
   * matches and walk the sort's precomputed order. Neither sorts the matches.
   */
  private search(query: ListQuery, match: MatchQuery): Page<string> {
    const { matches, tiers } = searchExpressions(match, query);
    // Words whose rows are stored as sets (the broadest) are counted from them, unfiltered.
    const broad = query.category === null && !query.curated ? this.broad.all(match.phrases) : null;
    const total = broad?.size ?? this.fts.count(matches);
    if (query.offset >= total) return { items: [], total };
    if (query.sort === "default" || query.sort === "stars") {
      const rowids = query.sort === "default"
        ? tieredPage(this.fts, tiers, query.offset, query.limit)
        : this.fts.page(matches, query.offset, query.limit);
      return { items: this.fullJson(rowids), total };
    }
    const order = this.orders.sorted(query.sort, null, false);
    const rowids = broad === null
      ? this.sortedPage(matches, total, order, query.offset, query.limit)
      : pageOfSet(order, broad.bits, query.offset, query.limit);
    return { items: this.fullJson(rowids), total };
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

  /** The newest plugins: most recently first seen, then created_at desc. */
  newest(limit: number): NewestRow[] {
    return Array.from(this.orders.newest().subarray(0, limit), (rowid) => this.newestRow.get(rowid)!);
  }

  close(): void {
    this.db.close(false);
  }
}
