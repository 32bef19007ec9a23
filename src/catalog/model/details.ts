/**
 * What a plugin's manifests say about it: its contents, ready install instructions, the harnesses
 * it works with, and trust flags. The refresh reads them (src/refresh/manifests/); the builder
 * stores them beside the full form's fields (docs/api.md, Resources), and a client sees them only when it asks
 * (`include=contents,install,flags,works_with`) or in the catalog form (catalog.json, changes).
 */
import { type Static, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ContextSchema, PluginContextSummarySchema } from "./context-cost";
import {
  acceptableEnvName,
  acceptableServerName,
  commandProblem,
  configProblem,
  SAFE_COMMAND_PATTERN,
  SERVER_NAME_PATTERN,
} from "./install-rules";
import { HARNESSES, type Install, InstallSchema } from "./install-schema";
import { PluginEntrySchema } from "./plugin-entry";
import { PluginPartsSchema } from "./plugin-parts-schema";
import { McpRegistryDetailsSchema } from "./registry-inputs";
import { RemoteSchema, ToolsSchema } from "./remote";
import { RiskNotesSchema } from "./risk";
import { SecuritySchema } from "./security";
import { REPO_ID_PATTERN, SkillSchema } from "./skill-schema";

export { EnvSchema, HARNESSES, type Harness, type Install, InstallSchema, PACKAGE_PROOFS } from "./install-schema";
export type { SkillEntry } from "./skill-schema";

/** The content kinds of the `has=` filter: `install` is "has an install instruction". */
/** `tools`: its remote MCP server listed tools when the refresh asked it. */
export const HAS_KINDS = ["skills", "commands", "agents", "hooks", "mcp", "install", "tools"] as const;
export type HasKind = (typeof HAS_KINDS)[number];

/** The parts a client may ask for with `include=`. */
export const INCLUDE_PARTS = [
  "contents",
  "install",
  "flags",
  "works_with",
  "risk",
  "security",
  "tools",
  "context",
] as const;
export type IncludePart = (typeof INCLUDE_PARTS)[number];

/**
 * Items kept per contents list; the true number is in `counts`. Real catalogs stay under it (the
 * largest marketplaces list about 300 plugins), so a cut list is rare and `truncated` names it.
 */
export const MAX_LIST_ITEMS = 500;
/** Install instructions kept per plugin: one per plugin of a full marketplace list, its own, and a few more. */
export const MAX_INSTRUCTIONS = 520;

/** The lists `contents.truncated` may name. */
export const CUT_LISTS = ["skills", "commands", "agents", "hooks", "mcp_servers", "plugins", "install"] as const;

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Text = Type.Union([Type.String({ maxLength: 300 }), Type.Null()]);
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const ContentsSchema = Type.Object(
  {
    skills: Type.Array(SkillSchema, { maxItems: MAX_LIST_ITEMS }),
    commands: Type.Array(Name, { maxItems: MAX_LIST_ITEMS }),
    agents: Type.Array(Name, { maxItems: MAX_LIST_ITEMS }),
    hooks: Type.Array(Name, { maxItems: MAX_LIST_ITEMS, description: "Hook events (PreToolUse, Stop, …)." }),
    mcp_servers: Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: SERVER_NAME_PATTERN }), {
      maxItems: MAX_LIST_ITEMS,
    }),
    plugins: Type.Array(
      Type.Object({
        name: Name,
        source: Type.String({ minLength: 1, maxLength: 300 }),
        description: Text,
        refused: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: "Why Claude Code would refuse to install this entry; it then has no install instruction.",
          }),
        ),
        entry: Type.Optional(PluginEntrySchema),
        contents: Type.Optional(PluginPartsSchema),
        context: Type.Optional(PluginContextSummarySchema),
        install_command: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 1000,
            pattern: SAFE_COMMAND_PATTERN,
            description: "The line that installs this plugin from its marketplace (one of `install`).",
          }),
        ),
      }),
      { maxItems: MAX_LIST_ITEMS, description: "A marketplace's plugins." },
    ),
    marketplace: Type.Optional(
      Type.Object(
        {
          name: Name,
          refused: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], {
            description: "Why Claude Code would refuse to add this marketplace (no install instruction then), or null.",
          }),
        },
        { additionalProperties: false, description: "The marketplace a repository's marketplace.json names." },
      ),
    ),
    commit: Type.Optional(
      Type.String({
        pattern: "^[0-9a-f]{40}$",
        description: "The commit (the default branch's head) the manifests were read at; absent when not known.",
      }),
    ),
    truncated: Type.Optional(
      Type.Array(Type.Union(CUT_LISTS.map((k) => Type.Literal(k))), {
        description: "Lists cut at their limit (500 items, 520 install instructions): `counts` holds the true number.",
      }),
    ),
    counts: Type.Object(
      {
        skills: Count,
        commands: Count,
        agents: Count,
        hooks: Count,
        mcp_servers: Count,
        plugins: Count,
      },
      { description: "How many of each the manifests name; the lists keep at most 500." },
    ),
  },
  { additionalProperties: false },
);
export type Contents = Static<typeof ContentsSchema>;

const RepoId = Type.String({ pattern: REPO_ID_PATTERN });

/** An owner's deprecation notice: why, and the catalog plugin to use instead (null when none or refused). */
export const DeprecationSchema = Type.Object(
  {
    // 300 characters as the reader counts them (code points): up to 600 UTF-16 units.
    message: Type.Union([Type.String({ minLength: 1, maxLength: 600 }), Type.Null()]),
    replacement: Type.Union([RepoId, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Deprecation = Static<typeof DeprecationSchema>;

/** What the refresh read for one plugin: stored in its checkpoint and in the snapshot. */
export const DetailsSchema = Type.Object(
  {
    contents: Type.Union([ContentsSchema, Type.Null()]),
    install: Type.Array(InstallSchema, { maxItems: MAX_INSTRUCTIONS }),
    works_with: Type.Array(Type.Union(HARNESSES.map((h) => Type.Literal(h)))),
    fork_of: Type.Union([RepoId, Type.Null()]),
    deprecated: Type.Boolean(),
    latest_release: Type.Union([
      Type.Object({ tag: Type.String({ minLength: 1, maxLength: 100 }), date: Type.String() }),
      Type.Null(),
    ]),
    risk: Type.Optional(RiskNotesSchema),
    /** deps.dev's Scorecard, advisories and provenance; absent when deps.dev was not asked. */
    security: Type.Optional(SecuritySchema),

    /** server.json's name and version, with its title, icons and inputs, kept for the MCP registry API; absent when none was accepted. */
    mcp_registry: Type.Optional(McpRegistryDetailsSchema),
    /** The owner file's deprecation (refresh/manifests/owner-file.ts): its message and replacement, each checked. */
    deprecation: Type.Optional(DeprecationSchema),
    /** The repository the owner file names as the one this is a copy of, once checked against the catalog. */
    canonical: Type.Optional(RepoId),
    /** The owner is an organization whose domain the platform verified; absent otherwise. */
    owner_verified: Type.Optional(Type.Literal(true)),
    /** What its remote MCP server said when last asked (src/refresh/checks/remotes/); absent when never asked. */
    remote: Type.Optional(RemoteSchema),
    tools: Type.Optional(ToolsSchema),
    /** What the plugin costs a session's context (context-cost.ts); absent when it is no Claude Code plugin. */
    context: Type.Optional(ContextSchema),
  },
  { additionalProperties: false },
);
export type PluginDetails = Static<typeof DetailsSchema>;

const checkDetails = TypeCompiler.Compile(DetailsSchema);

/** Why an instruction breaks the rules no stored instruction may break (install-rules.ts), or null. */
export function installProblem(install: Install): string | null {
  if (install.command === undefined && install.config === undefined) return "instruction has no command or config";
  if (install.command !== undefined) {
    const problem = commandProblem(install.command);
    if (problem !== null) return problem;
  }
  if (install.config !== undefined) {
    const problem = configProblem(install.config);
    if (problem !== null) return problem;
  }
  return install.env.every((e) => acceptableEnvName(e.name)) ? null : "environment name not accepted";
}

/**
 * Why a value is not a plugin's details as the stored schema has them, or null: the shape, and
 * the rules of every instruction and server name. A record read back (the snapshot file, a
 * previous snapshot, a checkpoint) passes this before it is trusted again.
 */
export function detailsProblem(value: unknown): string | null {
  if (!checkDetails.Check(value)) {
    const first = checkDetails.Errors(value).First();
    return `does not match the schema${first ? ` at ${first.path || "/"}` : ""}`;
  }
  for (const install of value.install) {
    const problem = installProblem(install);
    if (problem !== null) return `install: ${problem}`;
  }
  if (value.contents && !value.contents.mcp_servers.every(acceptableServerName)) return "server name not accepted";
  for (const plugin of value.contents?.plugins ?? []) {
    if (plugin.install_command !== undefined && commandProblem(plugin.install_command) !== null)
      return "plugin install line not accepted";
    if (plugin.contents && !plugin.contents.mcp_servers.every(acceptableServerName)) return "server name not accepted";
  }
  return null;
}

/** The details if they are what the stored schema says, rules included; null otherwise. */
export function validDetails(value: unknown): PluginDetails | null {
  return detailsProblem(value) === null ? (value as PluginDetails) : null;
}

/** A plugin whose manifests were never read: nothing known, nothing claimed. */
export function noDetails(): PluginDetails {
  return { contents: null, install: [], works_with: [], fork_of: null, deprecated: false, latest_release: null };
}

/** The `has=` kinds a plugin answers to. */
export function hasKinds(details: PluginDetails | null): HasKind[] {
  if (details === null) return [];
  const c = details.contents;
  const kinds: HasKind[] = [];
  if (c && c.counts.skills > 0) kinds.push("skills");
  if (c && c.counts.commands > 0) kinds.push("commands");
  if (c && c.counts.agents > 0) kinds.push("agents");
  if (c && c.counts.hooks > 0) kinds.push("hooks");
  if ((c && c.counts.mcp_servers > 0) || details.works_with.includes("mcp")) kinds.push("mcp");
  // A package not proven this repository's own (another's, or only claimed) is not this plugin's install line.
  if (details.install.some((i) => i.package_verified !== false)) kinds.push("install");
  if ((details.tools?.length ?? 0) > 0) kinds.push("tools");
  return kinds;
}
