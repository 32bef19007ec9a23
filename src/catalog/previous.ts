/**
 * The published snapshot as the refresher sees it: every plugin's facts, first-seen time, ETag and
 * history, so a refresh can carry them over, send `If-None-Match`, and tell what changed.
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { CandidateDecision } from "./candidates";
import type { PreviousHistory } from "./history";
import type { HistoryEvent } from "./types";
import { catalogJson, type PluginView } from "./views";

export interface PreviousPlugin {
  view: PluginView;
  /** The full-form JSON as published, to tell a changed plugin from an unchanged one. */
  json: string;
  firstSeenAt: string;
  etag: string | null;
  repoId: number | null;
  previousIds: string[];
  /** The catalog-form JSON as published, and when it last changed. */
  catalogJson: string;
  changedAt: string;
}

export interface PreviousCatalog extends PreviousHistory {
  snapshotAt: string | null;
  /** Keyed by lowercased id: the platform's ids compare case-insensitively. */
  plugins: Map<string, PreviousPlugin>;
  /** The repository id each editors' entry was about, by lowercased name as written. */
  editorialIds: Record<string, number>;
  /** The refresher's earlier decisions (none in a snapshot written before they were kept). */
  candidates: CandidateDecision[];
}

interface Row {
  full_json: string;
  first_seen_at: string;
  etag: string | null;
  curated: number;
  repo_id: number | null;
  previous_ids: string;
  changed_at: string;
}

const SELECT_PLUGINS = `SELECT full_json, first_seen_at, etag, curated, repo_id, previous_ids, changed_at
  FROM plugins ORDER BY rowid`;
const SELECT_SNAPSHOT_AT = `SELECT value FROM meta WHERE key = 'snapshot_at'`;
const SELECT_EDITORIAL_IDS = `SELECT value FROM meta WHERE key = 'editorial_ids'`;
const SELECT_EVENTS = `SELECT at, kind, id, to_id AS "to" FROM history_events ORDER BY seq`;
const SELECT_SNAPSHOTS = `SELECT at FROM history_snapshots ORDER BY at`;
const HAS_CANDIDATES = `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'candidates'`;
const SELECT_CANDIDATES = `SELECT json FROM candidates`;

/** The stored map of names to repository ids, keeping only well-formed entries. */
function editorialIds(json: string | undefined): Record<string, number> {
  const ids: Record<string, number> = {};
  try {
    for (const [name, id] of Object.entries(JSON.parse(json ?? "{}") as Record<string, unknown>)) {
      if (Number.isSafeInteger(id) && (id as number) > 0) ids[name] = id as number;
    }
  } catch {
    // A snapshot from before the map, or a damaged value: the names decide this once.
  }
  return ids;
}

/** Reads the snapshot at `path`; an empty catalog when there is no file yet. */
export function readPrevious(path: string): PreviousCatalog {
  if (!existsSync(path)) {
    return { snapshotAt: null, plugins: new Map(), events: [], snapshots: [], editorialIds: {}, candidates: [] };
  }
  const db = new Database(path, { readonly: true, strict: true });
  try {
    const plugins = new Map<string, PreviousPlugin>();
    for (const row of db.prepare<Row, []>(SELECT_PLUGINS).all()) {
      const view = JSON.parse(row.full_json) as PluginView;
      plugins.set(view.id.toLowerCase(), {
        view,
        json: row.full_json,
        firstSeenAt: row.first_seen_at,
        etag: row.etag,
        repoId: row.repo_id,
        previousIds: JSON.parse(row.previous_ids) as string[],
        catalogJson: catalogJson(row.full_json, row.curated === 1, row.first_seen_at, row.repo_id, row.previous_ids),
        changedAt: row.changed_at,
      });
    }
    return {
      snapshotAt: db.prepare<{ value: string }, []>(SELECT_SNAPSHOT_AT).get()?.value ?? null,
      editorialIds: editorialIds(db.prepare<{ value: string }, []>(SELECT_EDITORIAL_IDS).get()?.value),
      plugins,
      events: db.prepare<HistoryEvent, []>(SELECT_EVENTS).all(),
      snapshots: db
        .prepare<{ at: string }, []>(SELECT_SNAPSHOTS)
        .all()
        .map((row) => row.at),
      candidates: db.prepare(HAS_CANDIDATES).get()
        ? db
            .prepare<{ json: string }, []>(SELECT_CANDIDATES)
            .all()
            .map((row) => JSON.parse(row.json) as CandidateDecision)
        : [],
    };
  } finally {
    db.close();
  }
}
