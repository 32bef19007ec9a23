/**
 * The published snapshot as the refresher sees it: every plugin's facts, first-seen time and ETag,
 * so a refresh can carry `first_seen_at` over, send `If-None-Match`, and tell what changed.
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { PluginView } from "./views";

export interface PreviousPlugin {
  view: PluginView;
  /** The full-form JSON as published, to tell a changed plugin from an unchanged one. */
  json: string;
  firstSeenAt: string;
  etag: string | null;
}

export interface PreviousCatalog {
  snapshotAt: string | null;
  /** Keyed by lowercased id: the platform's ids compare case-insensitively. */
  plugins: Map<string, PreviousPlugin>;
}

const SELECT_PLUGINS = `SELECT full_json, first_seen_at, etag FROM plugins ORDER BY rowid`;
const SELECT_SNAPSHOT_AT = `SELECT value FROM meta WHERE key = 'snapshot_at'`;

/** Reads the snapshot at `path`; an empty catalog when there is no file yet. */
export function readPrevious(path: string): PreviousCatalog {
  if (!existsSync(path)) return { snapshotAt: null, plugins: new Map() };
  const db = new Database(path, { readonly: true, strict: true });
  try {
    const allPlugins = db.prepare<{ full_json: string; first_seen_at: string; etag: string | null }, []>(SELECT_PLUGINS);
    const snapshotAt = db.prepare<{ value: string }, []>(SELECT_SNAPSHOT_AT);
    const plugins = new Map<string, PreviousPlugin>();
    for (const row of allPlugins.all()) {
      const view = JSON.parse(row.full_json) as PluginView;
      plugins.set(view.id.toLowerCase(), { view, json: row.full_json, firstSeenAt: row.first_seen_at, etag: row.etag });
    }
    return { snapshotAt: snapshotAt.get()?.value ?? null, plugins };
  } finally {
    db.close();
  }
}
