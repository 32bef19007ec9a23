/**
 * The bodies the service sends, as TypeBox schemas (Elysia's `t`): the OpenAPI document is made
 * from them and the tests check every response against them, so neither can drift from the wire.
 */
import { Type as t } from "@sinclair/typebox";
import { ContentsSchema, DetailsSchema, HARNESSES, InstallSchema } from "../catalog/details";

/** A string of a fixed set, as a plain `enum` (TypeBox would write a union of constants). */
export function stringEnum<const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) {
  return t.Unsafe<V[number]>({ type: "string", enum: [...values], ...options });
}

const timestamp = (description: string) => t.String({ format: "date-time", description });
const count = (description: string) => t.Integer({ minimum: 0, description });

/** Closed objects: a field added to a response without its schema fails the tests. */
function closed<P extends Parameters<typeof t.Object>[0]>(properties: P, description?: string) {
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
      "skills/<folder>/SKILL.md (`npx -y skills@1.7.4 add owner/repo --skill name`), a Gemini CLI extension. `env` lists the variables the server reads; values appear only as `<NAME>` placeholders.",
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
  deprecated: t.Boolean({ description: 'server.json says `"status": "deprecated"`; with `include=flags`.' }),
  lookalike_of: t.Union([t.String(), t.Null()], {
    description:
      "A catalog plugin of another owner with at least 10× the stars whose name is this name without a random " +
      "`-x7k2q` suffix, the same name, or within edit distance 2 inside one of the project's own words; " +
      "with `include=flags`.",
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
    works_with: t.Optional(DetailParts.works_with),
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

export const CatalogPluginSchema = closed(
  {
    ...PluginSchema.properties,
    curated: t.Boolean({ description: "Editor-curated." }),
    first_seen_at: timestamp("When the catalog first had it, UTC, millisecond precision."),
    repo_id: t.Union([t.Integer(), t.Null()], { description: "The platform's repository id; null when unknown." }),
    previous_ids: t.Array(t.String(), { description: "Former `owner/repo` ids, from renames." }),
    ...DetailParts,
  },
  "A plugin in catalog form: the full form, what a mirror keeps, and every `include=` part.",
);

export const CategorySchema = closed(
  {
    id: t.String(),
    name: t.String(),
    name_zh: t.String({ description: "Chinese name." }),
    description: t.String(),
    count: t.Integer({ minimum: 0, description: "Plugins in it (within the filters, where given)." }),
  },
  "A category with its plugin count.",
);

const generatedAt = timestamp("Time of the snapshot that served the response, UTC, millisecond precision.");

/** The paging object of a list: the page's items and where it stands. */
export function pageSchema<T extends Parameters<typeof t.Array>[0]>(item: T, description: string) {
  return closed(
    {
      items: t.Array(item, { description: "The current page." }),
      total: count("Matching plugins over all pages."),
      page: t.Integer({ minimum: 1, description: "Page number served." }),
      pageSize: t.Integer({ minimum: 1, description: "Page size applied (after the cap)." }),
      generatedAt,
    },
    description,
  );
}

/** `{code: 0, message: "ok", data}`: the success envelope of /api/v1. */
export function envelopeSchema<T extends Parameters<typeof t.Object>[0]>(data: T) {
  return closed({ code: t.Literal(0), message: t.Literal("ok"), data: closed(data) }, "The /api/v1 success envelope.");
}

export const ManifestSchema = closed(
  {
    name: t.String(),
    id: t.String({ description: "Source identifier." }),
    apiVersion: t.Literal("v1"),
    description: t.String(),
    baseUrl: t.String({ format: "uri", description: "Absolute base address of the service." }),
    stats: closed({
      total: count("Plugins in the catalog."),
      curated: count("Editor-curated plugins."),
      categories: count("Categories."),
      totalStars: count("Stars over all plugins."),
    }),
    snapshotAt: timestamp("Time of the catalog snapshot, UTC, millisecond precision."),
    endpoints: t.Array(
      closed({
        id: t.String(),
        method: t.Literal("GET"),
        url: t.String({ format: "uri" }),
        description: t.String(),
      }),
    ),
  },
  "The source manifest: what a sync client reads first.",
);

export const CatalogSchema = closed(
  {
    snapshotAt: timestamp("Time of the catalog snapshot, UTC, millisecond precision."),
    total: count("Plugins in the catalog."),
    categories: t.Array(CategorySchema),
    items: t.Array(CatalogPluginSchema, { description: "Every plugin, by stars descending." }),
  },
  "The whole snapshot in one document.",
);

export const ChangesSchema = closed(
  {
    snapshotAt: timestamp("The snapshot the changes lead to."),
    since: timestamp("The snapshot they start from."),
    added: t.Array(CatalogPluginSchema),
    updated: t.Array(CatalogPluginSchema),
    removed: t.Array(t.String(), { description: "Ids no longer in the catalog." }),
    renamed: t.Array(closed({ from: t.String(), to: t.String() })),
  },
  "What changed from `since` to the snapshot served.",
);

export const ErrorSchema = t.Object(
  {
    code: t.Integer({ minimum: 300, maximum: 599, description: "The HTTP status." }),
    message: t.String({ description: "The problem in one sentence (for 400: the parameter and what is allowed)." }),
    data: t.Optional(t.Null({ description: "Present, null, under /api/v1 only." })),
  },
  {
    additionalProperties: false,
    description: "An error (or a redirect): `{code, message}`, with `data: null` under /api/v1.",
  },
);

export const LiveSchema = closed({ status: t.Literal("ok") }, "The process is alive.");

export const ReadySchema = closed(
  {
    status: stringEnum(["ready", "no-snapshot", "stale", "stopping"]),
    snapshotAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    ageSeconds: t.Union([t.Integer({ minimum: 0 }), t.Null()]),
    maxAgeSeconds: t.Union([t.Integer({ minimum: 1 }), t.Null()], { description: "READY_MAX_AGE_S; null: no bound." }),
    redis: t.Optional(
      closed(
        {
          status: stringEnum(["up", "down", "degraded"], {
            description:
              "`degraded`: connected, but commands missed their deadline; treated as down until a probe answers.",
          }),
          downSince: t.Union([t.String({ format: "date-time" }), t.Null()]),
          limiter: stringEnum(["shared", "in-process"]),
        },
        "With REDIS_URL only: the shared store, and which rate limit answers while it is down.",
      ),
    ),
  },
  "Readiness: 200 when a snapshot is loaded and fresh enough, 503 otherwise.",
);

/** A body that is not JSON (RSS, HTML, assets): documented by its media type alone. */
export const TextSchema = t.String();

export const OpenApiSchema = t.Object(
  { openapi: t.String({ pattern: "^3\\.1\\." }), info: t.Object({}), paths: t.Object({}) },
  { description: "An OpenAPI 3.1 document." },
);
