/** What reading one repository's manifests yields, before the follow-up query completes its skills. */
import type { PluginDetails } from "../../catalog/model/details";
import type { SkillFolder } from "./skill-places";

/** The evidence a repository's manifests add, and what a follow-up query must still read. */
export interface ManifestReading {
  details: PluginDetails;
  /** The owner file says `exclude: true`: the plugin leaves the catalog (owner.ts). */
  excluded: boolean;
  /** Evidence labels (`package.json: @modelcontextprotocol/sdk`, `skills/*\/SKILL.md`), matched against the rules. */
  evidence: string[];
  /** Paths of the skill folders whose SKILL.md the follow-up query reads (the fetch may read fewer: see fetch-graphql.ts). */
  skillDirs: string[];
  /** Every folder that can be a skill's (`skills/*`, `.claude/skills/*`, a plugin's `skills/*`), with its tree id. */
  skillFolders: SkillFolder[];
  /** Plugin `skills/` folders the follow-up query lists (their skills are then named by folder). */
  skillLists: string[];
  /** The packages package.json and pyproject.toml name as published (not `private`), names checked. */
  packages: PublishedNames;
}

export interface PublishedNames {
  npm?: string;
  pypi?: string;
}
