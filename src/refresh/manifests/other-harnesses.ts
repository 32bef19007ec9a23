/**
 * Other harnesses' plugin manifests, read into the same contents and `works_with`: Codex
 * (`.codex-plugin/plugin.json`, the repository marketplace `.agents/plugins/marketplace.json`) and
 * Cursor (`.cursor-plugin/plugin.json`, `.cursor-plugin/marketplace.json`). A plugin manifest needs
 * a name the format takes; its inline `mcpServers` are servers. A marketplace needs a name and a
 * plugin list. No install line is given: the catalog writes only commands a format's documentation
 * defines for a repository, and these readers do not yet carry one.
 */
import type { Harness } from "../../catalog/model/details";
import { type Gate, isObject, type Json, MAX_ENTRIES, PLUGIN_NAME, str } from "./manifest-gate";
import { serverNames } from "./mcp";
import type { Found } from "./reading";
import { type FileKey, MANIFEST_FILES } from "./selection";

export interface OtherRead {
  works: Harness[];
  mcpServers: string[];
}

/** A plugin manifest of `harness`: whether it names itself as the format requires, and its inline servers. */
export function readOtherPlugin(gate: Gate, manifest: Json, file: string, harness: Harness, id: string): OtherRead {
  const name = str(manifest.name);
  if (!name || !PLUGIN_NAME.test(name))
    return gate.refuse(file, "name not accepted", id) ?? { works: [], mcpServers: [] };
  const mcpServers = isObject(manifest.mcpServers) ? serverNames(gate, manifest.mcpServers, file, id) : [];
  return { works: [harness], mcpServers };
}

/** A marketplace of `harness`: it counts when it has a name and a plugin list of named entries. */
export function readOtherMarketplace(
  gate: Gate,
  manifest: Json,
  file: string,
  harness: Harness,
  id: string,
): Harness[] {
  if (!Array.isArray(manifest.plugins)) return gate.refuse(file, "no plugin list", id) ?? [];
  const name = str(manifest.name);
  if (!name || !PLUGIN_NAME.test(name)) return gate.refuse(file, "name not accepted", id) ?? [];
  const named = manifest.plugins
    .slice(0, MAX_ENTRIES)
    .filter((p) => isObject(p) && typeof p.name === "string" && PLUGIN_NAME.test(p.name));
  return named.length > 0 ? [harness] : [];
}

const PLUGINS = [
  ["codexPlugin", "codex"],
  ["cursorPlugin", "cursor"],
] as const;
const MARKETPLACES = [
  ["codexMarketplace", "codex"],
  ["cursorMarketplace", "cursor"],
] as const;

/** Adds what Codex's and Cursor's manifests (read through the gate by `json`) say to `found`. */
export function otherHarnesses(gate: Gate, json: (key: FileKey) => Json | null, id: string, found: Found): void {
  for (const [key, harness] of PLUGINS) {
    const manifest = json(key);
    if (!manifest) continue;
    const read = readOtherPlugin(gate, manifest, MANIFEST_FILES[key], harness, id);
    for (const h of read.works) found.works.add(h);
    found.mcpServers.push(...read.mcpServers);
  }
  for (const [key, harness] of MARKETPLACES) {
    const manifest = json(key);
    if (manifest)
      for (const h of readOtherMarketplace(gate, manifest, MANIFEST_FILES[key], harness, id)) found.works.add(h);
  }
}
