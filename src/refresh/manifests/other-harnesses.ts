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
