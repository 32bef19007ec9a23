/**
 * A snapshot's plugins in catalog form (catalog.json, `changes`, the MCP registry's servers, the
 * Claude Code marketplaces), a slice at a time, each row's stored details checked.
 */
import type { Database, Statement } from "bun:sqlite";
import type { DetailFragments } from "../model/fragments";
import { validUpdate } from "../model/update-history";
import { catalogJson } from "../model/views";
import type { Query } from "../search/query";
import type { Searcher } from "../search/searcher";
import type { DetailRow } from "./details-check";

interface CatalogRow extends DetailRow {
  full_json: string;
  curated: number;
  first_seen_at: string;
  repo_id: number | null;
  previous_ids: string;
}

export const DETAIL_COLUMNS =
  "rowid, id, x_contents, x_install, x_flags, x_works_with, x_risk, x_security, x_tools, x_context";
const CATALOG_COLUMNS = `full_json, curated, first_seen_at, repo_id, previous_ids, ${DETAIL_COLUMNS}`;

interface CatalogSliceRow extends CatalogRow {
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

/** A filter-only query: which plugins, not their order or page. */
export type CatalogQuery = Omit<Query, "q" | "sort" | "offset" | "limit">;

export class CatalogRows {
  constructor(
    private readonly db: Database,
    private readonly searcher: Searcher,
    private readonly fragments: (row: DetailRow) => DetailFragments,
  ) {}

  /**
   * Up to `limit` plugins after `rowid` in catalog form, by stars desc (rowid order), with their
   * change and first-seen times: what the per-snapshot documents are written from, a slice at a time.
   */
  after(rowid: number, limit: number): CatalogSlice[] {
    this.slice ??= this.db.query<CatalogSliceRow, [number, number]>(
      `SELECT changed_at, ${CATALOG_COLUMNS} FROM plugins WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    );
    return this.slice.all(rowid, limit).map((row) => ({
      rowid: row.rowid,
      id: row.id,
      changedAt: row.changed_at,
      firstSeenAt: row.first_seen_at,
      json: this.json(row),
    }));
  }

  /**
   * Up to `limit` plugins a filter-only query finds, from the `offset`-th of them by stars, in
   * catalog form (as `after`): what the client documents of a kind of plugin (the MCP
   * registry's servers, Claude Code marketplaces) are written from, through the snapshot's
   * precomputed filter members rather than a scan.
   */
  of(query: CatalogQuery, offset: number, limit: number): CatalogSlice[] {
    const { items } = this.searcher.find({ ...query, q: null, sort: "stars", offset, limit });
    this.one ??= this.db.query<CatalogSliceRow, [number]>(
      `SELECT rowid, id, changed_at, ${CATALOG_COLUMNS} FROM plugins WHERE rowid = ?`,
    );
    return items.map((rowid) => {
      const row = this.one!.get(rowid)!;
      return {
        rowid,
        id: row.id,
        changedAt: row.changed_at,
        firstSeenAt: row.first_seen_at,
        json: this.json(row),
      };
    });
  }

  private one: Statement<CatalogSliceRow, [number]> | null = null;
  private slice: Statement<CatalogSliceRow, [number, number]> | null = null;

  /** A row in catalog form, its details checked (details-check.ts). */
  private json(row: CatalogSliceRow): string {
    const { full_json, curated, first_seen_at, repo_id, previous_ids } = row;
    return catalogJson(full_json, curated === 1, first_seen_at, repo_id, previous_ids, this.fragments(row));
  }

  /**
   * A plugin's last update (update-history.ts) as JSON, checked against its schema, or null: none
   * kept, a stored one that fails the check, or a file written before updates were kept.
   */
  lastUpdate(id: string): string | null {
    if (this.updateById === undefined) {
      const table = this.db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'updates'`).get();
      this.updateById = table ? this.db.prepare(`SELECT json FROM updates WHERE id = ?`) : null;
    }
    const json = this.updateById?.get(id)?.json;
    return json !== undefined && validUpdate(json) !== null ? json : null;
  }

  private updateById: Statement<{ json: string }, [string]> | null | undefined = undefined;

  /** When a plugin's catalog form last changed (as far as the history reaches), or null when it is not listed. */
  changedAt(id: string): string | null {
    this.changedById ??= this.db.prepare(`SELECT changed_at FROM plugins WHERE id = ?`);
    return this.changedById.get(id)?.changed_at ?? null;
  }

  private changedById: Statement<{ changed_at: string }, [string]> | null = null;
}
