/**
 * `.mcp.json` in both forms Claude Code loads: `{"mcpServers": {…}}` (what `claude plugin init`
 * writes) and the plugin form with the server entries at the top level. Only the names are kept.
 */
import { acceptableServerName } from "../../catalog/model/install-rules";
import { cleanText } from "../upstream/gate";
import { ENTRY_NAME, type Gate, isObject, type Json, MAX_ENTRIES } from "./manifest-gate";

/** A server entry as the loader reads it: a `command` to start, or a `url`/`type` to reach. */
const isServer = (v: unknown) =>
  isObject(v) && (typeof v.command === "string" || typeof v.url === "string" || typeof v.type === "string");

/** The names of `servers`' entries that are names a user can read; the others counted. */
export function serverNames(gate: Gate, servers: Json, file: string, id: string): string[] {
  const names: string[] = [];
  for (const name of Object.keys(servers).slice(0, MAX_ENTRIES)) {
    const clean = cleanText(name, 100);
    if (clean !== name || !ENTRY_NAME.test(name)) gate.refuse(file, "server name not accepted", id);
    // The stored rule (install-rules.ts), applied here so a sentence costs only its own entry.
    else if (!acceptableServerName(name)) gate.refuse(file, "server name is a sentence, not a name", id);
    else names.push(name);
  }
  return names;
}

/** The server names of a `.mcp.json`, either form; an object of neither form is counted. */
export function mcpJson(gate: Gate, manifest: Json, file: string, id: string): string[] {
  if (isObject(manifest.mcpServers)) return serverNames(gate, manifest.mcpServers, file, id);
  const entries = Object.values(manifest);
  if (entries.length === 0) return [];
  if (!entries.every(isServer)) return gate.refuse(file, "neither mcpServers nor server entries", id) ?? [];
  return serverNames(gate, manifest, file, id);
}
