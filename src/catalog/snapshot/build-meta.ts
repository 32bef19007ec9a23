/** What a snapshot file says about itself: its statistics, categories, history and the refresher's decisions. */
import type { Database } from "bun:sqlite";
import { NO_LISTING_RULES } from "../model/candidates";
import type { McpRegistryIdentity } from "../model/mcp-identity";
import { securityCoverage } from "../model/security";
import { SCHEMA_VERSION } from "../model/snapshot-schema";
import type { PluginRecord, SnapshotHistory, SnapshotInput, SnapshotStats } from "../model/types";

/** Statistics of a set of records, as the manifest reports them. */
export function statsOf(snapshotAt: string, plugins: PluginRecord[]): SnapshotStats {
  const used = new Set<string>();
  let curated = 0;
  let totalStars = 0;
  let skillCopies = 0;
  for (const p of plugins) {
    for (const c of p.categories) used.add(c);
    if (p.curated) curated++;
    totalStars += p.stars;
    skillCopies += p.details?.contents?.skills.filter((s) => s.copy_of).length ?? 0;
  }
  const security = securityCoverage(plugins.map((p) => p.details?.security));
  return { snapshotAt, total: plugins.length, curated, categories: used.size, totalStars, security, skillCopies };
}

export function writeMeta(db: Database, stats: SnapshotStats, input: SnapshotInput): void {
  const insert = db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?)`);
  insert.run("schema_version", String(SCHEMA_VERSION));
  insert.run("category_ids", JSON.stringify(input.categoryIds));
  const named = new Map((input.categories ?? []).map((c) => [c.id, c]));
  const categories = input.categoryIds.map((id) => named.get(id) ?? { id, name: id, name_zh: id, description: "" });
  insert.run("categories", JSON.stringify(categories));
  insert.run("synonyms", JSON.stringify(input.synonyms ?? []));
  insert.run("editorial_ids", JSON.stringify(input.editorialIds ?? {}));
  insert.run("snapshot_at", stats.snapshotAt);
  insert.run("stats", JSON.stringify(stats));
  // The server.json identities the MCP registry API names servers by, keyed by plugin id.
  const registry: Record<string, McpRegistryIdentity> = {};
  for (const p of input.plugins) if (p.details?.mcp_registry) registry[p.id] = p.details.mcp_registry;
  insert.run("mcp_registry", JSON.stringify(registry));
}

/** The removals, renames and earlier snapshot times a client may ask changes since. */
export function writeHistory(db: Database, history: SnapshotHistory): void {
  const event = db.prepare(`INSERT INTO history_events (at, kind, id, to_id) VALUES (?, ?, ?, ?)`);
  for (const e of history.events) event.run(e.at, e.kind, e.id, e.to);
  const snapshot = db.prepare(`INSERT OR IGNORE INTO history_snapshots (at) VALUES (?)`);
  for (const at of history.snapshots) snapshot.run(at);
}

/** The refresher's decisions, one row per repository, and the rules it applied. */
export function writeCandidates(db: Database, input: SnapshotInput): void {
  const insert = db.prepare(`INSERT OR REPLACE INTO candidates (id, checked_at, json) VALUES (?, ?, ?)`);
  for (const decision of input.candidates ?? []) insert.run(decision.id, decision.checked_at, JSON.stringify(decision));
  const kept = db.prepare(`INSERT OR REPLACE INTO policy_records (id, rule, json, newer) VALUES (?, ?, ?, ?)`);
  for (const { record, rule, newer } of input.policyRecords ?? []) {
    kept.run(record.id, rule, JSON.stringify(record), newer ? JSON.stringify(newer) : null);
  }
  if (input.policyRecords) {
    const held = input.policyRecords.filter((r) => r.rule !== null).length;
    const fingerprint = input.policyFingerprint ?? null;
    db.prepare(`INSERT INTO meta (key, value) VALUES ('policy', ?)`).run(JSON.stringify({ held, fingerprint }));
  }
  db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?)`).run(
    "listing_rules",
    JSON.stringify(input.listingRules ?? NO_LISTING_RULES),
  );
}

/** Each plugin's last update, under its id as published; an update of an id not published is dropped. */
export function writeUpdates(db: Database, input: SnapshotInput): void {
  if (!input.updates || input.updates.size === 0) return;
  const insert = db.prepare(`INSERT OR REPLACE INTO updates (id, json) VALUES (?, ?)`);
  for (const record of input.plugins) {
    const update = input.updates.get(record.id.toLowerCase());
    if (update !== undefined) insert.run(record.id, JSON.stringify(update));
  }
}
