/**
 * GET /market/claude/managed-settings.json and /market/vscode/settings.json: the settings an
 * administrator deploys so Claude Code and VS Code keep to this catalog (managed-settings.ts).
 * Made for a catalog held to a policy (docs/operations.md, "A catalog held to a policy"), whose
 * manifest lists them; a public catalog answers them too, for what it serves.
 */
import { Type as t } from "@sinclair/typebox";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import { CACHE_CONTROL, JSON_TYPE, render } from "../http/cache";
import type { RouteDoc } from "../http/openapi";
import { claudeManagedSettings, vscodeSettings } from "./managed-settings";

const NO_POLICY = {
  404: { description: "This catalog is held to no policy.", message: "Managed settings not found." },
};

const Source = t.Object({ source: t.Literal("url"), url: t.String({ format: "uri" }) });

export const managedSettingsDocs = {
  claude: {
    tag: "Client sync",
    summary: "Claude Code managed settings holding its users to this catalog",
    description:
      "Deploy as Claude Code's `managed-settings.json` (`/etc/claude-code/managed-settings.json` on Linux): " +
      "`strictKnownMarketplaces` lets users add only this catalog's marketplaces, `extraKnownMarketplaces` adds " +
      "the marketplace of every plugin, `allowedMcpServers` lets only the MCP servers the catalog admits run (each " +
      "stdio command exactly as its install line gives it, each remote by its URL).",
    body: t.Object({
      strictKnownMarketplaces: t.Array(Source),
      extraKnownMarketplaces: t.Record(t.String(), t.Object({ source: Source })),
      allowedMcpServers: t.Array(
        t.Union([
          t.Object({ serverCommand: t.Array(t.String(), { minItems: 1 }) }),
          t.Object({ serverUrl: t.String() }),
        ]),
      ),
    }),
    cached: "snapshot",
  },
  vscode: {
    tag: "Client sync",
    summary: "VS Code settings naming this catalog as its MCP registry",
    description:
      "VS Code (GitHub Copilot's agent mode) settings: `chat.mcp.gallery.serviceUrl` is this catalog's registry " +
      "(its `/v0.1` API), `chat.mcp.access` `registry` runs only servers from it.",
    body: t.Object({
      "chat.mcp.gallery.serviceUrl": t.String({ format: "uri" }),
      "chat.mcp.access": t.Literal("registry"),
    }),
    cached: "snapshot",
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

export function managedSettingsHandlers(answer: Answer, baseUrl: string) {
  return {
    claude: answer.route(
      "managed-claude",
      () => undefined,
      (snapshot) => render(JSON.stringify(claudeManagedSettings(snapshot, baseUrl)), JSON_TYPE, CACHE_CONTROL),
    ),
    vscode: answer.route(
      "managed-vscode",
      () => undefined,
      () => render(JSON.stringify(vscodeSettings(baseUrl)), JSON_TYPE, CACHE_CONTROL),
    ),
  };
}
