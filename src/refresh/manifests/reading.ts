/** What reading one repository's manifests yields, before the follow-up query completes its skills. */
import type { Contents, Harness, Install, PluginDetails } from "../../catalog/model/details";
import type { McpRegistryIdentity } from "../../catalog/model/mcp-identity";
import type { Json } from "./manifest-gate";
import type { readMarketplace } from "./marketplace";
import type { PluginFolder } from "./plugin-folders";
import type { SkillFolder } from "./skill-places";

/** The evidence a repository's manifests add, and what a follow-up query must still read. */
export interface ManifestReading {
  details: PluginDetails;
  /** The owner file says `exclude: true`: the plugin leaves the catalog (owner-file.ts). */
  excluded: boolean;
  /** Evidence labels (`package.json: @modelcontextprotocol/sdk`, `skills/*\/SKILL.md`), matched against the rules. */
  evidence: string[];
  /** Paths of the skill folders whose SKILL.md the follow-up query reads (the fetch may read fewer: see fetch-graphql.ts). */
  skillDirs: string[];
  /** Every folder that can be a skill's (`skills/*`, `.claude/skills/*`, a plugin's `skills/*`), with its tree id. */
  skillFolders: SkillFolder[];
  /** Plugin `skills/` folders the follow-up query lists (their skills are then named by folder). */
  skillLists: string[];
  /** The marketplace's plugins in this repository, whose folders the follow-up query reads (plugin-folders.ts). */
  pluginFolders: PluginFolder[];
  /** The packages package.json and pyproject.toml name as published (not `private`), names checked. */
  packages: PublishedNames;
  /** The command and agent files a root Claude Code plugin's context needs (context-files.ts); null for none. */
  context?: ContextFiles | null;
}

export interface PublishedNames {
  npm?: string;
  pypi?: string;
}

/** The files whose front matter a plugin's context needs, and what names it. */
export interface ContextFiles {
  plugin: string;
  /** The repository's name: the folder a clone of it is, which names a root skill without a front-matter name. */
  repository: string;
  commands: string[];
  /** Paths from the root of the agent files: `agents/*.md`, then the `.md` files plugin.json's `agents` names. */
  agents: string[];
  /** Whether the inventory may miss components: a folder past its cap, a name not kept, manifest paths. */
  partial: boolean;
  /** Skill folders plugin.json names (context-paths.ts), each read as `p<i>`. */
  skillPaths: string[];
  /** Whether `skills/` holds a SKILL.md: then it is one skill (read as a path), not a folder of them. */
  skillsIsSkill: boolean;
  /** The root SKILL.md as the batch brought it, when the plugin has no `skills/` folder: then the root is a skill. */
  rootSkill: unknown;
}

/** What the readers found, before it becomes contents. */
export interface Found {
  works: Set<Harness>;
  install: Install[];
  skills: Contents["skills"];
  mcpServers: string[];
  hooks: string[];
  market: ReturnType<typeof readMarketplace>;
  marketJson: Json | null; // Its relative sources name plugin folders holding skills.
  deprecated: boolean;
  evidence: string[];
  /** The packages the package files publish (refresh/registries checks them). */
  packages: PublishedNames;
  /** server.json's name and exact version, for the MCP registry API. */
  registry: McpRegistryIdentity | null;
  /** The root plugin.json, when it parsed, and whether Claude Code would load it. */
  plugin: { manifest: Json; loads: boolean } | null;
}
