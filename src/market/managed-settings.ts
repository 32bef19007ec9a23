/**
 * The settings documents an administrator deploys so the clients keep to this catalog, made from
 * the snapshot a policy built (catalog/model/policy.ts): Claude Code's managed settings (only the
 * catalog's own marketplaces may be added, only the MCP servers it admits may run) and VS Code's
 * (its MCP gallery is this catalog's registry, `/v0.1`). Shapes as the Claude Code client's own
 * settings schema reads them: `strictKnownMarketplaces` entries are marketplace sources,
 * `allowedMcpServers` entries each hold exactly one of `serverName`, `serverCommand`, `serverUrl`.
 */
import type { PluginCatalogView } from "../catalog/model/wire";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import { MARKETPLACE_NAME, PICKS } from "./claude/marketplaces";

/** Rows read per step. */
const ROWS_PER_READ = 200;
const MCP_LINES = { has: ["install"], harness: "mcp" };

export type AllowedServer = { serverCommand: string[] } | { serverUrl: string };

export interface ClaudeManagedSettings {
  strictKnownMarketplaces: Array<{ source: "url"; url: string }>;
  extraKnownMarketplaces: Record<string, { source: { source: "url"; url: string } }>;
  allowedMcpServers: AllowedServer[];
}

/** The catalog's own marketplaces: every plugin's, the picks' and each category's. */
export function catalogMarketplaces(snapshot: Snapshot, baseUrl: string): Array<{ source: "url"; url: string }> {
  const url = (path: string) => ({ source: "url" as const, url: `${baseUrl}/market/claude/${path}marketplace.json` });
  const categories = [...snapshot.categoryIds].sort().map((id) => url(`categories/${encodeURIComponent(id)}/`));
  return [url(""), url(`${PICKS}/`), ...categories];
}

/** The servers one plugin's MCP install lines configure: each stdio command exactly, each remote by its URL. */
function serversOf(plugin: PluginCatalogView): AllowedServer[] {
  const out: AllowedServer[] = [];
  for (const line of plugin.install ?? []) {
    // A package the registries tie to another repository is never one the catalog vouches for.
    if (line.harness !== "mcp" || line.package_verified === false) continue;
    const servers = (line.config as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers ?? {};
    for (const value of Object.values(servers)) {
      const server = value as { command?: unknown; args?: unknown; url?: unknown };
      if (typeof server.url === "string") out.push({ serverUrl: server.url });
      else if (typeof server.command === "string") {
        const args = Array.isArray(server.args) ? server.args.filter((a) => typeof a === "string") : [];
        out.push({ serverCommand: [server.command, ...args] });
      }
    }
  }
  return out;
}

/** Claude Code's managed-settings.json for the catalog `snapshot` serves. */
export function claudeManagedSettings(snapshot: Snapshot, baseUrl: string): ClaudeManagedSettings {
  const allowed = new Map<string, AllowedServer>();
  for (let offset = 0; ; offset += ROWS_PER_READ) {
    const rows = snapshot.catalogRowsOf(MCP_LINES, offset, ROWS_PER_READ);
    for (const row of rows) {
      for (const server of serversOf(JSON.parse(row.json) as PluginCatalogView)) {
        allowed.set(JSON.stringify(server), server);
      }
    }
    if (rows.length < ROWS_PER_READ) break;
  }
  const all = { source: "url" as const, url: `${baseUrl}/market/claude/marketplace.json` };
  return {
    strictKnownMarketplaces: catalogMarketplaces(snapshot, baseUrl),
    extraKnownMarketplaces: { [MARKETPLACE_NAME]: { source: all } },
    allowedMcpServers: [...allowed.values()],
  };
}

/** VS Code's settings: its MCP gallery is this catalog's registry, and only the registry's servers run. */
export function vscodeSettings(baseUrl: string): Record<string, string> {
  return { "chat.mcp.gallery.serviceUrl": `${baseUrl}/`, "chat.mcp.access": "registry" };
}
