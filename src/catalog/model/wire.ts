/**
 * A plugin on the wire, as TypeBox schemas: the full, short and catalog forms. The TypeScript
 * types are derived from them, and the OpenAPI document and the tests' response checks are made
 * from them (src/http/wire-schemas.ts), so the code, the document and the wire cannot drift apart.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { ContextSchema } from "./context-cost";
import { ContentsSchema, DetailsSchema, HARNESSES, InstallSchema } from "./details";
import { closed, count, stringEnum, timestamp } from "./wire-base";
import { RemotePart, RiskPart, SecurityPart, ToolsPart } from "./wire-parts";

export { closed, count, stringEnum, timestamp };

/** The parts `include=` adds to a plugin, and the catalog form always carries. */
export const DetailParts = {
  contents: t.Union([ContentsSchema, t.Null()], {
    description:
      "What the manifests name: skills (SKILL.md front matter of a root SKILL.md, `skills/*`, `.agents/skills/*`, " +
      "`.claude/skills/*` and the `skills/*` of each plugin folder a marketplace names; each with its folder `path`, " +
      "its folder's git `tree` id, `copy_of` an earlier-created other repository holding the same tree, and " +
      "`no_install` saying why it has no install line), commands and agents (Markdown files in " +
      "`commands/`, `agents/`, `.claude/commands/`, `.claude/agents/`), hook events (`hooks/hooks.json`, " +
      "plugin.json), MCP servers (server.json, `.mcp.json`, plugin.json, gemini-extension.json) and a " +
      "marketplace's plugins; at most 100 of each, `counts` has the true numbers. Null when none was read.",
    examples: [
      {
        skills: [
          {
            name: "brainstorming",
            description: "Turns a rough idea into a design.",
            path: "skills/brainstorming",
            tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
          },
        ],
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
      "`mcpServers` JSON most MCP clients read (`config`), an https MCP remote, a root SKILL.md, each skill the skills installer " +
      "finds and installs by its name (`skills/`, `.agents/skills/`, `.claude/skills/`, a marketplace plugin's `skills/`: " +
      "`npx -y skills@1.7.4 add owner/repo --skill name`), a Gemini CLI extension. `env` lists the variables the server reads; values appear only as `<NAME>` placeholders. " +
      "npm, PyPI and OCI lines carry `package_verified`, `package_note` and, when proven or only claimed, `package_proof` " +
      "once the package registries were asked; an npm or PyPI line `from` package.json or pyproject.toml was derived from " +
      "the package the file names, proven by signed provenance or the MCP registry's record (`package_proof`).",
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
      "`agent-skills` (SKILL.md at the root or in `skills/<name>/`), `codex` (.codex-plugin/plugin.json or " +
      "`.agents/plugins/marketplace.json`), `cursor` (.cursor-plugin/plugin.json or marketplace.json).",
    examples: [["claude-code", "agent-skills"]],
  }),
  context: t.Union([ContextSchema, t.Null()], {
    description:
      "What the plugin adds to a Claude Code session's context, counted as `claude plugin details` counts it " +
      "offline (docs/api.md, *Context cost*): each skill, command and agent with its always-on and on-invoke " +
      "tokens, the always-on total, and MCP tools (`not measured` when it declares servers). Null when the " +
      "repository is no Claude Code plugin or its files were not read.",
    examples: [
      {
        components: [
          { kind: "skill", name: "demo:review", always_on: 32, on_invoke: 410 },
          { kind: "agent", name: "reviewer", always_on: 17, on_invoke: 250 },
        ],
        always_on: 49,
        mcp_tools: 0,
        complete: true,
        method: "claude-code-2.1.197-offline: tokens = Math.round(chars / 4), …",
      },
    ],
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
    context: t.Optional(DetailParts.context),
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
