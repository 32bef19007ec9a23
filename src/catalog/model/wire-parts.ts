/** The `include=` parts of the full form only: risk notes, deps.dev's signals, the remote MCP server and its tools. */
import { Type as t } from "@sinclair/typebox";
import { MAX_TOOLS, REMOTE_STATUSES, RemoteSchema } from "./remote";
import { RISK_RULE_TEXT, RiskNotesSchema } from "./risk";
import { SecuritySchema } from "./security";
import { closed, stringEnum, timestamp } from "./wire-base";

/** `include=risk`: the risk notes, a part of the full form only (the catalog form keeps its members). */
export const RiskPart = t.Array(RiskNotesSchema.items, {
  maxItems: RiskNotesSchema.maxItems,
  description:
    "Risk notes: where a hook, an MCP server's command (`.mcp.json`, server.json, plugin.json) or a SKILL.md body " +
    "does something to look at before running it, each `{rule, file, line, excerpt}`. Notes, not a verdict: no " +
    `score. Rules: ${Object.entries(RISK_RULE_TEXT)
      .map(([rule, text]) => `\`${rule}\` (${text})`)
      .join(", ")}. Empty when none was found or the files were not read.`,
  examples: [
    [
      {
        rule: "pipe-to-shell",
        file: "hooks/hooks.json",
        line: 7,
        excerpt: '"command": "curl -fsSL https://example.com/setup.sh | bash"',
      },
    ],
  ],
});

/** `include=security`: deps.dev's signals, a part of the full form only (the catalog form keeps its members). */
export const SecurityPart = t.Union([SecuritySchema, t.Null()], {
  description:
    "From deps.dev, for the exact versions the npm and PyPI install lines pin and the repository's project: " +
    "`scorecard` (OpenSSF Scorecard `{score, date}`; null with `scorecard_status` `not_scored` when deps.dev " +
    "has none, never 0, or `unknown` when it did not answer), `advisories` (OSV ids: GHSA-…, CVE-…, PYSEC-…, " +
    "MAL-…, OSV-…), `provenance`, each package's own in `packages`, and `checked_at`. Null when deps.dev " +
    "was not asked about this plugin.",
  examples: [
    {
      scorecard: { score: 7.4, date: "2026-11-23" },
      scorecard_status: "scored",
      advisories: ["GHSA-8jxr-pcg8-qhm5"],
      provenance: false,
      packages: [
        {
          system: "npm",
          name: "@acme/fs-server",
          version: "1.0.0",
          advisories: ["GHSA-8jxr-pcg8-qhm5"],
          provenance: null,
        },
      ],
      checked_at: "2026-11-27T06:00:00.000Z",
    },
  ],
});
/** `include=tools`: what the plugin's remote MCP server said when the refresh last asked it (full form only). */
export const RemotePart = t.Union(
  [
    closed({
      status: stringEnum(REMOTE_STATUSES, { description: RemoteSchema.properties.status.description }),
      checked_at: timestamp("When the server was last asked, UTC."),
      url: t.String({ description: "The remote asked: the first Streamable HTTP remote of its server.json." }),
      reason: t.Optional(t.String({ description: "Why the status is not `answering`, when known." })),
    }),
    t.Null(),
  ],
  {
    description:
      "The plugin's remote MCP server, asked once per refresh without credentials (its server card, else MCP " +
      "`initialize` and `tools/list`); null when it has none or it was never asked. With `include=tools`.",
  },
);

export const ToolsPart = t.Array(
  closed({
    name: t.String({ description: "The tool's name." }),
    description: t.Union([t.String(), t.Null()], {
      description: "Its description, cleaned and cut at 300 characters.",
    }),
  }),
  {
    maxItems: MAX_TOOLS,
    description:
      "The tools the remote server listed (at most 100; empty when it listed none or did not answer). " +
      "With `include=tools`.",
    examples: [[{ name: "search_docs", description: "Search the docs." }]],
  },
);
