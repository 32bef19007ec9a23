/**
 * One published snapshot, opened read-only. Every SQL statement the server runs is a named,
 * prepared statement here; routes never see the database.
 */
import { Database, type Statement } from "bun:sqlite";
import { orderKey, type Sort } from "./orders";
import { SCHEMA_VERSION } from "./schema";
import { toMatchQuery, type MatchQuery } from "./search";
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

/** The order column of each sort inside a search result; `default` there means relevance. */
const SEARCH_ORDER: Record<Sort, string> = {
  default: "tier, p.rowid",
  name: "p.rank_name",
  stars: "p.rowid",
  forks: "p.rank_forks",
  updated: "p.rank_updated",
  heat: "p.rank_heat",
};

export class SnapshotError extends Error {
  override name = "SnapshotError";
}

export class Snapshot {
  readonly stats: SnapshotStats;
  /** Every id of the snapshot's category set: what the `category` filter accepts. */
  readonly categoryIds: ReadonlySet<string>;
  private readonly orders = new Map<string, Int32Array>();
  private readonly searches = new Map<string, { page: Statement; count: Statement }>();
  private readonly byRowid: Statement<{ full_json: string }>;
  private readonly byId: Statement<{ full_json: string }>;
  private readonly orderBlob: Statement<{ ids: Uint8Array }>;
  private readonly starsRange: Statement<{ short_json: string }>;
  private readonly newestRows: Statement<NewestRow>;

  private constructor(private readonly db: Database) {
    const version = this.metaValue("schema_version");
    if (version !== String(SCHEMA_VERSION)) throw new SnapshotError(`unsupported schema version ${version}`);
    this.stats = JSON.parse(this.metaValue("stats")) as SnapshotStats;
    this.categoryIds = new Set(JSON.parse(this.metaValue("category_ids")) as string[]);
    this.byRowid = db.prepare(`SELECT full_json FROM plugins WHERE rowid = ?`);
    this.byId = db.prepare(`SELECT full_json FROM plugins WHERE id = ?`);
    this.orderBlob = db.prepare(`SELECT ids FROM orders WHERE key = ?`);
    this.starsRange = db.prepare(`SELECT short_json FROM plugins WHERE rowid > ? AND rowid <= ? ORDER BY rowid`);
    this.newestRows = db.prepare(
      `SELECT id AS full_name, url, description, categories, first_seen_at FROM plugins
       ORDER BY first_seen_at DESC, created_at DESC, id LIMIT ?`,
    );
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

  /** A precomputed order as rowids; decoded once per snapshot. */
  private order(key: string): Int32Array {
    let ids = this.orders.get(key);
    if (!ids) {
      const blob = this.orderBlob.get(key)?.ids;
      ids = blob ? new Int32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)) : new Int32Array(0);
      this.orders.set(key, ids);
    }
    return ids;
  }

  /** A page of full-form plugin JSON for a list query. */
  list(query: ListQuery): Page<string> {
    if (query.q !== null) {
      const match = toMatchQuery(query.q);
      return match === null ? { items: [], total: 0 } : this.search(query, match);
    }
    const ids = this.order(orderKey(query.sort, query.category, query.curated));
    const slice = ids.subarray(query.offset, query.offset + query.limit);
    return { items: Array.from(slice, (rowid) => this.byRowid.get(rowid)!.full_json), total: ids.length };
  }

  private searchStatements(query: ListQuery): { page: Statement; count: Statement } {
    const key = `${query.sort}|${query.category !== null}|${query.curated}`;
    let statements = this.searches.get(key);
    if (!statements) {
      const where = [
        "plugins_fts MATCH $all",
        query.curated ? "p.curated = 1" : "",
        query.category !== null ? "p.rowid IN (SELECT plugin FROM plugin_categories WHERE category = $category)" : "",
      ].filter(Boolean).join(" AND ");
      const from = `FROM plugins_fts f JOIN plugins p ON p.rowid = f.rowid WHERE ${where}`;
      const tier = query.sort === "default"
        ? `, CASE WHEN p.rowid IN (SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH $name) THEN 0
             WHEN p.rowid IN (SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH $topics) THEN 1 ELSE 2 END AS tier`
        : "";
      statements = {
        page: this.db.prepare(`SELECT p.full_json${tier} ${from} ORDER BY ${SEARCH_ORDER[query.sort]} LIMIT $limit OFFSET $offset`),
        count: this.db.prepare(`SELECT count(*) AS n ${from}`),
      };
      this.searches.set(key, statements);
    }
    return statements;
  }

  private search(query: ListQuery, match: MatchQuery): Page<string> {
    const statements = this.searchStatements(query);
    const filters: Record<string, string | number> = { all: match.all };
    if (query.category !== null) filters.category = query.category;
    const total = (statements.count.get(filters) as { n: number }).n;
    if (query.offset >= total) return { items: [], total };
    const params = { ...filters, limit: query.limit, offset: query.offset };
    if (query.sort === "default") Object.assign(params, { name: match.name, topics: match.topics });
    const rows = statements.page.all(params) as Array<{ full_json: string }>;
    return { items: rows.map((r) => r.full_json), total };
  }

  /** A page of the sync list: short-form JSON by stars desc, which is rowid order. */
  byStars(offset: number, limit: number): Page<string> {
    if (offset >= this.stats.total) return { items: [], total: this.stats.total };
    const rows = this.starsRange.all(offset, offset + limit);
    return { items: rows.map((r) => r.short_json), total: this.stats.total };
  }

  /** The newest plugins: most recently first seen, then created_at desc. */
  newest(limit: number): NewestRow[] {
    return this.newestRows.all(limit);
  }

  close(): void {
    this.db.close(false);
  }
}
