/** What reading one repository's manifests yields, before the follow-up query completes its skills. */
import type { PluginDetails } from "../../catalog/model/details";

/** The evidence a repository's manifests add, and what a follow-up query must still read. */
export interface ManifestReading {
  details: PluginDetails;
  /** Evidence labels (`package.json: @modelcontextprotocol/sdk`, `skills/*\/SKILL.md`), matched against the rules. */
  evidence: string[];
  /** Skill folders whose SKILL.md the follow-up query reads (the fetch may read fewer: see fetch-graphql.ts). */
  skillDirs: string[];
  /** Every folder name under `skills/` that can be a skill's. */
  skillFolders: string[];
  /** The packages package.json and pyproject.toml name as published (not `private`), names checked. */
  packages: PublishedNames;
  /** The command and agent files a root Claude Code plugin's context needs (context.ts); null for none. */
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
