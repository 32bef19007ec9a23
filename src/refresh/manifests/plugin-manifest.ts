/** A Claude Code plugin's `.claude-plugin/plugin.json`: its name (as the CLI checks it), inline hooks and servers. */

import { hookEvents } from "./hook-events";
import { type Gate, isObject, type Json } from "./manifest-gate";
import { serverNames } from "./mcp";
import { MANIFEST_FILES } from "./selection";

/**
 * Why Claude Code refuses `name` as a plugin's name, or null: the CLI requires a non-empty name
 * without spaces (other characters are only a warning); the catalog also needs it printable and short.
 */
export function pluginNameRefusal(name: unknown): string | null {
  if (typeof name !== "string" || name === "") return "plugin has no name";
  if (/\s/.test(name)) return "plugin name has spaces, which Claude Code refuses";
  if (name.length > 100 || !/^[\x21-\x7E]+$/.test(name)) return "plugin name not accepted";
  return null;
}

export interface PluginRead {
  /** Whether Claude Code would load it (its name passes the CLI's check). */
  loads: boolean;
  hooks: string[];
  mcpServers: string[];
}

/** The hooks and servers a plugin.json declares inline; a name the CLI refuses is counted. */
export function readPlugin(gate: Gate, manifest: Json, id: string): PluginRead {
  const file = MANIFEST_FILES.plugin;
  const refusal = pluginNameRefusal(manifest.name);
  if (refusal) gate.refuse(file, refusal, id);
  const hooks: string[] = [];
  const inline = Array.isArray(manifest.hooks) ? manifest.hooks : [manifest.hooks];
  for (const h of inline.slice(0, 20)) if (isObject(h)) hooks.push(...hookEvents(gate, h, file, id));
  const mcpServers = isObject(manifest.mcpServers) ? serverNames(gate, manifest.mcpServers, file, id) : [];
  return { loads: refusal === null, hooks, mcpServers };
}
