/**
 * The snapshot's side tables and meta rows a refresh reads back beside its plugin rows: each
 * plugin's last update, server.json identities kept apart from the rows, the editors' name map.
 * Each entry is checked again; a damaged one is left out, never trusted.
 */
import type { Database } from "bun:sqlite";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { Log } from "../../base/log";
import { type McpRegistryDetails, McpRegistryDetailsSchema } from "../model/registry-inputs";
import type { LastUpdate } from "../model/update-diff";
import { validUpdate } from "../model/update-history";

export const SELECT_EDITORIAL_IDS = `SELECT value FROM meta WHERE key = 'editorial_ids'`;

const HAS_UPDATES = `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'updates'`;
const SELECT_UPDATES = `SELECT id, json FROM updates`;

/** The stored last updates by lowercased id, each checked against its schema (a file without the table has none). */
export function lastUpdates(db: Database, log: Log | null): Map<string, LastUpdate> {
  const updates = new Map<string, LastUpdate>();
  if (!db.prepare(HAS_UPDATES).get()) return updates;
  for (const row of db.prepare<{ id: string; json: string }, []>(SELECT_UPDATES).all()) {
    const update = validUpdate(row.json);
    if (update !== null) updates.set(row.id.toLowerCase(), update);
    else log?.("previous.update_dropped", { id: row.id.slice(0, 140) });
  }
  return updates;
}

export const SELECT_MCP_REGISTRY = `SELECT value FROM meta WHERE key = 'mcp_registry'`;
const checkIdentity = TypeCompiler.Compile(McpRegistryDetailsSchema);

/** server.json's identities as the snapshot kept them apart from the rows (build-meta.ts), by lowercased id; the valid ones. */
export function mcpIdentities(json: string | undefined): Map<string, McpRegistryDetails> {
  const identities = new Map<string, McpRegistryDetails>();
  try {
    for (const [id, identity] of Object.entries(JSON.parse(json ?? "{}") as Record<string, unknown>))
      if (checkIdentity.Check(identity)) identities.set(id.toLowerCase(), identity);
  } catch {
    // None kept, or a damaged map: the details stand without them.
  }
  return identities;
}

/** The stored map of names to repository ids, keeping only well-formed entries. */
export function editorialIds(json: string | undefined): Record<string, number> {
  const ids: Record<string, number> = {};
  try {
    for (const [name, id] of Object.entries(JSON.parse(json ?? "{}") as Record<string, unknown>)) {
      if (Number.isSafeInteger(id) && (id as number) > 0) ids[name] = id as number;
    }
  } catch {
    // No map, or a damaged one: the names decide this once.
  }
  return ids;
}
