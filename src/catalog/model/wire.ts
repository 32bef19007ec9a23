/**
 * A plugin on the wire, as TypeBox schemas: the full, short and catalog forms. The TypeScript
 * types are derived from them, and the OpenAPI document and the tests' response checks are made
 * from them (src/http/wireschemas.ts), so the code, the document and the wire cannot drift apart.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { ContentsSchema, DetailsSchema, HARNESSES, InstallSchema } from "./details";
import { MAX_TOOLS, REMOTE_STATUSES, RemoteSchema } from "./remote";
import { RISK_RULE_TEXT, RiskNotesSchema } from "./risk";
import { SecuritySchema } from "./security";

/** A string of a fixed set, as a plain `enum` (TypeBox would write a union of constants). */
export function stringEnum<const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) {
  return t.Unsafe<V[number]>({ type: "string", enum: [...values], ...options });
}

export const timestamp = (description: string) => t.String({ format: "date-time", description });
export const count = (description: string) => t.Integer({ minimum: 0, description });

/** Closed objects: a field added to a response without its schema fails the tests. */
export function closed<P extends Parameters<typeof t.Object>[0]>(properties: P, description?: string) {
  return t.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
}

/** The parts `include=` adds to a plugin, and the catalog form always carries. */
export const DetailParts = {
  contents: t.Union([ContentsSchema, t.Null()], {
    description:
      "What the manifests name: skills (SKILL.md front matter), commands and agents (Markdown files in " +
      "`commands/`, `agents/`, `.claude/commands/`, `.claude/agents/`), hook events (`hooks/hooks.json`, " +
      "plugin.json), MCP servers (server.json, `.mcp.json`, plugin.json, gemini-extension.json) and a " +
      "marketplace's plugins; at most 100 of each, `counts` has the true numbers. Null when none was read.",
    examples: [
      {
        skills: [{ name: "brainstorming", description: "Turns a rough idea into a design." }],
        commands: ["plan"],
        agents: ["code-reviewer"],
        hooks: ["SessionStart"],
        mcp_servers: [],
        plugins: [{ name: "superpowers", source: "./", description: "Skills for software work." }],
        counts: { skills: 1, commands: 1, agents: 1, hooks: 1, mcp_servers: 0, plugins: 1 },
      },
    ],
  }),
  install: t.Array(InstallSchema, {
    description:
      "Ready install instructions, each derived from one file (`from`): a marketplace and its plugins " +
      "(`/plugin marketplace add`, `/plugin install name@marketplace`, in that order), an MCP package of " +
      "server.json (npm, PyPI, OCI with the exact version named) as `claude mcp add` (`command`) and as the " +
      "`mcpServers` JSON most MCP clients read (`config`), an https MCP remote, a root SKILL.md, each skill of " +
      "skills/<folder>/SKILL.md (`npx -y skills@1.7.4 add owner/repo --skill name`), a Gemini CLI extension. `env` lists the variables the server reads; values appear only as `<NAME>` placeholders. " +
      "npm, PyPI and OCI lines carry `package_verified` and `package_note` once the package registries were asked; " +
      "an npm or PyPI line `from` package.json or pyproject.toml was derived from the package the registry ties to the repository.",
    examples: [
      [
        {
          harness: "claude-code",
          kind: "npm",
          command: "claude mcp add example --env API_KEY=<API_KEY> -- npx -y @example/mcp@1.2.3",
          env: [{ name: "API_KEY", secret: true, required: true }],
          from: "server.json",
        },
        {
          harness: "mcp",
          kind: "npm",
          config: {
            mcpServers: {
              example: { command: "npx", args: ["-y", "@example/mcp@1.2.3"], env: { API_KEY: "<API_KEY>" } },
            },
          },
          env: [{ name: "API_KEY", secret: true, required: true }],
          from: "server.json",
        },
      ],
      [
        {
          harness: "claude-code",
          kind: "skill",
          command: "npx -y skills@1.7.4 add example/skills --skill pdf --agent claude-code",
          env: [],
          from: "skills/pdf/SKILL.md",
        },
      ],
    ],
  }),
  fork_of: t.Union([t.String(), t.Null()], {
    description: "The repository this one is a fork of, as the platform says; with `include=flags`.",
  }),
  deprecated: t.Boolean({
    description:
      'server.json says `"status": "deprecated"`, or the owner file deprecates it (`deprecation`); with `include=flags`.',
  }),
  lookalike_of: t.Union([t.String(), t.Null()], {
    description:
      "A catalog plugin of another owner with at least 10× the stars whose name is this name without a random " +
      "`-x7k2q` suffix, the same name, or within edit distance 2 inside one of the project's own words; " +
      "or, for a marketplace, another owner's marketplace with more stars under the same marketplace name " +
      "(Claude Code knows a marketplace by its name alone); with `include=flags`.",
  }),
  latest_release: t.Union([DetailsSchema.properties.latest_release.anyOf[0]!, t.Null()], {
    description: "The latest release's tag and publication time; with `include=flags`.",
  }),
  works_with: t.Array(stringEnum(HARNESSES), {
    description:
      "Harnesses the evidence supports: `claude-code` (plugin or marketplace manifest, `.claude/` commands or " +
      "agents), `mcp` (server.json or an MCP SDK dependency), `gemini-cli` (gemini-extension.json), " +
      "`agent-skills` (SKILL.md at the root or in `skills/<name>/`).",
    examples: [["claude-code", "agent-skills"]],
  }),
};

/** The flags an owner sets (the owner file) or the platform verifies, present only when set; with `include=flags`. */
export const OwnerParts = {
  deprecation: t.Optional(
    t.Object(
      {
        message: t.Union([t.String(), t.Null()], { description: "The owner's message, cleaned; null when none." }),
        replacement: t.Union([t.String(), t.Null()], {
          description:
            "The catalog plugin to use instead (`owner/repo`); null when none was named or it was refused " +
            "(missing from the catalog, a look-alike, this plugin itself, a fork of it, or a copy).",
        }),
      },
      {
        additionalProperties: false,
        description: "The owner file deprecates this plugin (`deprecated` is then true); with `include=flags`.",
      },
    ),
  ),
  canonical: t.Optional(
    t.String({
      description:
        "The owner file says this repository is a copy of that catalog plugin: it ranks just below it and " +
        "`original=true` leaves it out; with `include=flags`.",
    }),
  ),
  owner_verified: t.Optional(
    t.Literal(true, {
      description:
        "The owner is an organization whose domain the platform verified (a verified owner, not an endorsement); " +
        "absent otherwise; with `include=flags`.",
    }),
  ),
};

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

export const PluginSchema = closed(
  {
    id: t.String({ description: "`<owner>/<repo>`", examples: ["modelcontextprotocol/servers"] }),
    name: t.String({ description: "Repository name." }),
    full_name: t.String({ description: "`<owner>/<repo>`." }),
    url: t.String({ description: "The repository on the hosting platform (an absolute URL)." }),
    homepage: t.Union([t.String(), t.Null()], { description: "Project homepage; null when absent." }),
    description: t.String({ description: 'The repository\'s description (`""` when it has none).' }),
    description_zh: t.Union([t.String(), t.Null()], { description: "Chinese description; null when absent." }),
    category: t.String({ description: "Primary category id (one of /market/manifest.json's categories)." }),
    categories: t.Array(t.String(), { description: "Every category id, primary first." }),
    stars: count("Star count."),
    forks: count("Fork count."),
    language: t.String({ description: 'Primary programming language (`""` when unknown).' }),
    license: t.String({ description: 'License identifier (`""` when unknown).' }),
    archived: t.Boolean({ description: "Whether the repository is archived." }),
    created_at: timestamp("Creation time, UTC, second precision."),
    pushed_at: timestamp("Last push, UTC, second precision."),
    topics: t.Array(t.String(), { description: "Repository topics." }),
    contents: t.Optional(DetailParts.contents),
    install: t.Optional(DetailParts.install),
    fork_of: t.Optional(DetailParts.fork_of),
    deprecated: t.Optional(DetailParts.deprecated),
    lookalike_of: t.Optional(DetailParts.lookalike_of),
    latest_release: t.Optional(DetailParts.latest_release),
    ...OwnerParts,
    works_with: t.Optional(DetailParts.works_with),
    risk: t.Optional(RiskPart),
    security: t.Optional(SecurityPart),
    remote: t.Optional(RemotePart),
    tools: t.Optional(ToolsPart),
  },
  "A plugin in full form; the parts `include=` asks for follow its fields.",
);

export const ShortPluginSchema = closed(
  {
    id: PluginSchema.properties.id,
    name: PluginSchema.properties.name,
    full_name: PluginSchema.properties.full_name,
    url: PluginSchema.properties.url,
    description: PluginSchema.properties.description,
    category: PluginSchema.properties.category,
    stars: PluginSchema.properties.stars,
    pushed_at: PluginSchema.properties.pushed_at,
  },
  "A plugin in short form, for client sync.",
);

const { risk: _risk, security: _security, remote: _remote, tools: _tools, ...catalogFields } = PluginSchema.properties;

export const CatalogPluginSchema = closed(
  {
    ...catalogFields,
    curated: t.Boolean({ description: "Editor-curated." }),
    first_seen_at: timestamp("When the catalog first had it, UTC, millisecond precision."),
    repo_id: t.Union([t.Integer(), t.Null()], { description: "The platform's repository id; null when unknown." }),
    previous_ids: t.Array(t.String(), { description: "Former `owner/repo` ids, from renames." }),
    ...DetailParts,
    ...OwnerParts,
  },
  "A plugin in catalog form: the full form, what a mirror keeps, and every `include=` part.",
);

/** Full form, returned by /api/v1/*; the `include=` parts follow when asked for. */
export type PluginView = Static<typeof PluginSchema>;

/** Short form, returned by /market/v1/plugins. */
export type PluginShortView = Static<typeof ShortPluginSchema>;

/** The catalog form (catalog.json, changes): the full form plus what a mirror keeps and every `include=` part. */
export type PluginCatalogView = Static<typeof CatalogPluginSchema>;
