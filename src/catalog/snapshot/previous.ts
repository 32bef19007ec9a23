/**
 * The published snapshot as the refresher sees it: every plugin's facts, first-seen time, ETag and
 * history, so a refresh can carry them over, send `If-None-Match`, and tell what changed.
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { Log } from "../../base/log";
import type { CandidateDecision } from "../model/candidates";
import { recordFacts } from "../model/classify";
import { type PluginDetails, validDetails } from "../model/details";
import { type DetailFragments, detailFragments, withoutEmptyParts } from "../model/fragments";
import type { PreviousHistory } from "../model/history";
import { fragmentsProblem } from "../model/stored";
import type { HistoryEvent, PluginRecord, RepoFacts } from "../model/types";
import type { LastUpdate } from "../model/update-diff";
import { catalogJson, catalogRecordJson, fullView } from "../model/views";
import type { PolicyRecord } from "./policy-apply";
import { editorialIds, lastUpdates, mcpIdentities, SELECT_EDITORIAL_IDS, SELECT_MCP_REGISTRY } from "./stored-tables";

export interface PreviousPlugin {
  id: string;
  /** The facts the published record was built from: what a `304 Not Modified` confirms. */
  facts: RepoFacts;
  /** The full-form JSON as published, to tell a changed plugin from an unchanged one. */
  json: string;
  firstSeenAt: string;
  etag: string | null;
  repoId: number | null;
  previousIds: string[];
  /** The catalog-form JSON as published, and when it last changed. */
  catalogJson: string;
  changedAt: string;
  /** What its manifests said as published; null when never read or the file has no detail columns. */
  details: PluginDetails | null;
  /** The last update it kept (update-history.ts); null when none, or a stored one fails its schema. */
  lastUpdate: LastUpdate | null;
}

export interface PreviousCatalog extends PreviousHistory {
  snapshotAt: string | null;
  /** Keyed by lowercased id: the platform's ids compare case-insensitively. */
  plugins: Map<string, PreviousPlugin>;
  /** The repository id each editors' entry was about, by lowercased name as written. */
  editorialIds: Record<string, number>;
  /** The refresher's decisions kept in the snapshot (none in a file without a `candidates` table). */
  candidates: CandidateDecision[];
  /**
   * Under a policy, every record the snapshot keeps (served or not) by lowercased id; empty
   * without one. `plugins` holds those kept out too: the policy narrows what is served, not what
   * the refresh knows. `served` are the keys of the plugins the file serves.
   */
  policyRecords: Map<string, PolicyRecord>;
  served: Set<string>;
}

/** The previous catalog as the change history sees it: only what was served. */
export function servedPrevious(previous: PreviousCatalog): PreviousCatalog {
  if (previous.served.size === previous.plugins.size) return previous;
  const plugins = new Map([...previous.plugins].filter(([key]) => previous.served.has(key)));
  return { ...previous, plugins };
}

/** A record the policy kept out, in the form the refresh carries a published plugin in. */
function heldPlugin(record: PluginRecord, snapshotAt: string): PreviousPlugin {
  return {
    id: record.id,
    facts: { database_id: record.repo_id, ...recordFacts(record) },
    json: JSON.stringify(fullView(record)),
    firstSeenAt: record.first_seen_at,
    etag: record.etag,
    repoId: record.repo_id,
    previousIds: record.previous_ids,
    catalogJson: catalogRecordJson(record),
    changedAt: snapshotAt,
    details: validDetails(record.details ?? null),
    // A plugin the policy kept out was not served: nothing a reader saw changed.
    lastUpdate: null,
  };
}

const HAS_POLICY_RECORDS = `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'policy_records'`;
const SELECT_POLICY_RECORDS = `SELECT rule, json, newer FROM policy_records`;

/** The rows of `policy_records`, by lowercased id; none in a file without the table. */
export function readPolicyRecords(db: Database): Map<string, PolicyRecord> {
  const out = new Map<string, PolicyRecord>();
  if (!db.prepare(HAS_POLICY_RECORDS).get()) return out;
  type Row = { rule: string | null; json: string; newer: string | null };
  for (const row of db.prepare<Row, []>(SELECT_POLICY_RECORDS).all()) {
    const record = JSON.parse(row.json) as PluginRecord;
    const kept: PolicyRecord = { record, rule: row.rule };
    if (row.newer !== null) kept.newer = JSON.parse(row.newer) as PluginRecord;
    out.set(record.id.toLowerCase(), kept);
  }
  return out;
}

interface Row {
  id: string;
  homepage: string | null;
  description: string;
  stars: number;
  forks: number;
  language: string;
  license: string;
  archived: number;
  created_at: string;
  pushed_at: string;
  topics: string;
  full_json: string;
  first_seen_at: string;
  etag: string | null;
  curated: number;
  repo_id: number | null;
  previous_ids: string;
  changed_at: string;
  x_contents?: string;
  x_install?: string;
  x_flags?: string;
  x_works_with?: string;
  x_risk?: string;
  x_security?: string;
  x_tools?: string;
  x_context?: string;
}

const COLUMNS =
  "id, homepage, description, stars, forks, language, license, archived, created_at, pushed_at, topics, " +
  "full_json, first_seen_at, etag, curated, repo_id, previous_ids, changed_at";
const DETAIL_COLUMNS = "x_contents, x_install, x_flags, x_works_with";
/** A file of an earlier schema may lack the risk column: its plugins have no notes yet. */
const NO_RISK = `"risk":[]`;
/** Nor the security column: deps.dev was not asked about them yet. */
const NO_SECURITY = `"security":null`;
/** Nor the tools column: no remote was asked yet. */
const NO_TOOLS = `"remote":null,"tools":[]`;
/** Nor the context column: its plugins are not measured yet. */
const NO_CONTEXT = `"context":null`;

/** The stored parts of a row, or those of a plugin never read when the file has no detail columns. */
function fragmentsOfRow(row: Row): DetailFragments {
  if (row.x_contents === undefined) return detailFragments(null, null);
  return {
    contents: row.x_contents,
    install: row.x_install!,
    flags: row.x_flags!,
    works_with: row.x_works_with!,
    risk: row.x_risk ?? NO_RISK,
    security: row.x_security ?? NO_SECURITY,
    tools: row.x_tools ?? NO_TOOLS,
    context: row.x_context ?? NO_CONTEXT,
  };
}

/** A record's repository facts back from its columns. */
function factsOfRow(row: Row): RepoFacts {
  return recordFacts({ ...row, archived: row.archived === 1, topics: JSON.parse(row.topics) as string[] });
}

/**
 * The details back from their stored parts, checked again with the stored schema's rules: a
 * stored value is not trusted blindly. Those that fail are dropped, as if never read, and logged.
 */
function detailsOfRow(row: Row, log: Log | null): PluginDetails | null {
  if (row.x_contents === undefined) return null;
  const fragments = fragmentsOfRow(row);
  const problem = fragmentsProblem(fragments);
  if (problem !== null) {
    log?.("previous.details_dropped", { id: row.id.slice(0, 140), problem: problem.slice(0, 200) });
    return null;
  }
  const parts = JSON.parse(
    `{${fragments.contents},${fragments.install},${fragments.works_with},${fragments.flags},${fragments.risk},${fragments.security},${fragments.tools},${fragments.context}}`,
  ) as Record<string, unknown>;
  return validDetails(withoutEmptyParts(parts));
}
const SELECT_SNAPSHOT_AT = `SELECT value FROM meta WHERE key = 'snapshot_at'`;
const SELECT_EVENTS = `SELECT at, kind, id, to_id AS "to" FROM history_events ORDER BY seq`;
const SELECT_SNAPSHOTS = `SELECT at FROM history_snapshots ORDER BY at`;
const HAS_CANDIDATES = `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'candidates'`;
const SELECT_CANDIDATES = `SELECT json FROM candidates`;
/** The plugins of a snapshot file, by lowercased id, each with its details, identity and last update. */
function pluginRows(db: Database, log: Log | null): Map<string, PreviousPlugin> {
  const plugins = new Map<string, PreviousPlugin>();
  // A file without the detail columns still hands its facts on.
  const columns = new Set(
    db
      .prepare<{ name: string }, []>(`PRAGMA table_info(plugins)`)
      .all()
      .map((c) => c.name),
  );
  const optional = ["x_risk", "x_security", "x_tools", "x_context"].filter((c) => columns.has(c)).map((c) => `, ${c}`);
  const details = columns.has("x_contents") ? `, ${DETAIL_COLUMNS}${optional.join("")}` : "";
  const select = `SELECT ${COLUMNS}${details} FROM plugins ORDER BY rowid`;
  const updates = lastUpdates(db, log);
  const identities = mcpIdentities(db.prepare<{ value: string }, []>(SELECT_MCP_REGISTRY).get()?.value);
  for (const row of db.prepare<Row, []>(select).all()) {
    const stored = detailsOfRow(row, log);
    const identity = identities.get(row.id.toLowerCase());
    // A plugin read again unchanged (a 304) keeps its server.json identity and the registry's mark on it.
    const details = stored && identity ? (validDetails({ ...stored, mcp_registry: identity }) ?? stored) : stored;
    plugins.set(row.id.toLowerCase(), {
      id: row.id,
      facts: factsOfRow(row),
      json: row.full_json,
      firstSeenAt: row.first_seen_at,
      etag: row.etag,
      repoId: row.repo_id,
      previousIds: JSON.parse(row.previous_ids) as string[],
      catalogJson: catalogJson(
        row.full_json,
        row.curated === 1,
        row.first_seen_at,
        row.repo_id,
        row.previous_ids,
        fragmentsOfRow(row),
      ),
      changedAt: row.changed_at,
      details,
      lastUpdate: updates.get(row.id.toLowerCase()) ?? null,
    });
  }
  return plugins;
}

/** Reads the snapshot at `path`; an empty catalog when there is no file yet. */
export function readPrevious(path: string, log: Log | null = null): PreviousCatalog {
  if (!existsSync(path)) {
    return {
      snapshotAt: null,
      plugins: new Map(),
      events: [],
      snapshots: [],
      editorialIds: {},
      candidates: [],
      policyRecords: new Map(),
      served: new Set(),
    };
  }
  const db = new Database(path, { readonly: true, strict: true });
  try {
    const plugins = pluginRows(db, log);
    const snapshotAt = db.prepare<{ value: string }, []>(SELECT_SNAPSHOT_AT).get()?.value ?? null;
    const served = new Set(plugins.keys());
    const policyRecords = readPolicyRecords(db);
    for (const [key, kept] of policyRecords) {
      if (kept.rule !== null && !plugins.has(key)) plugins.set(key, heldPlugin(kept.record, snapshotAt ?? ""));
    }
    return {
      snapshotAt,
      policyRecords,
      served,
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
