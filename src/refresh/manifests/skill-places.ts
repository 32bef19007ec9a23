/**
 * Where a repository keeps its skills, as the open skills installer looks for them: `skills/<dir>/`,
 * the agents' shared `.agents/skills/<dir>/`, `.claude/skills/<dir>/`, and the `skills/` folder of each plugin its marketplace names by a
 * relative `./…` source (under `metadata.pluginRoot` when that is given). The batch lists
 * those three and `plugins/<p>/skills/` (three levels of `plugins/`, with each
 * skill folder's tree id), so the follow-up query can read their SKILL.md files; a plugin folder
 * elsewhere is listed by the follow-up query itself, its skills then named by their folders only.
 */
import { isObject, type Json } from "./manifest-gate";

/** A folder name that can hold a skill. */
const SKILL_FOLDER = /^[A-Za-z0-9_][A-Za-z0-9._ -]{0,99}$/;
/** A relative path component the installer and the platform both take as it is (`.claude` too; `..` never). */
const PART = /^[A-Za-z0-9_.][A-Za-z0-9._@+-]{0,99}$/;
/** A git object id. */
const OID = /^[0-9a-f]{40}$/;
/** Plugin folders whose `skills/` the follow-up query lists at most (relative sources outside `plugins/`). */
export const MAX_LISTED_ROOTS = 50;

/** A folder that may hold a skill: its path from the root and its tree id when the platform gave one. */
export interface SkillFolder {
  path: string;
  tree: string | null;
}

/** The candidates of one repository: folders to read, and plugin skill folders the follow-up must list first. */
export interface SkillPlaces {
  folders: SkillFolder[];
  /** `<plugin folder>/skills` paths outside the batch's listings. */
  lists: string[];
}

/** The batch's listing of `plugins/`: each plugin folder's entries, and theirs (skill folders with tree ids). */
export function pluginTreeSelection(alias: string): string {
  const leaf = "entries { name type oid }";
  const mid = `entries { name type object { ... on Tree { ${leaf} } } }`;
  const top = `entries { name type object { ... on Tree { ${mid} } } }`;
  return `${alias}: object(expression: "HEAD:plugins") { ... on Tree { ${top} } }`;
}

/** The batch's listing of the root, two levels: a folder holding a SKILL.md is a skill where no standard place holds one. */
export function rootSelection(alias: string): string {
  return `${alias}: object(expression: "HEAD:") { ... on Tree { entries { name type oid object { ... on Tree { entries { name type } } } } } }`;
}

/** Root folders read as skills at most, when no standard place holds one. */
export const MAX_ROOT_SKILLS = 200;

interface Entry {
  name: string;
  type: string;
  oid: string | null;
  object: unknown;
}

/** The entries of a listed tree, names checked; [] when it is no tree. */
export function treeEntries(tree: unknown): Entry[] {
  if (!isObject(tree) || !Array.isArray(tree.entries)) return [];
  return tree.entries.flatMap((e) =>
    isObject(e) && typeof e.name === "string" && typeof e.type === "string"
      ? [
          {
            name: e.name,
            type: e.type,
            oid: typeof e.oid === "string" && OID.test(e.oid) ? e.oid : null,
            object: e.object,
          },
        ]
      : [],
  );
}

/** The skill folders of a listed `…/skills` tree. */
function foldersOf(tree: unknown, base: string): SkillFolder[] {
  return treeEntries(tree)
    .filter((e) => e.type === "tree" && SKILL_FOLDER.test(e.name))
    .map((e) => ({ path: `${base}/${e.name}`, tree: e.oid }));
}

/** `./a/b` (or `a/b` under a root) as `a/b`; "" for the root itself; null for a path the installer skips. */
export function relativeFolder(root: unknown, source: unknown): string | null {
  if (root !== undefined && !(typeof root === "string" && root.startsWith("./"))) return null;
  if (typeof source !== "string" || !source.startsWith("./")) return null;
  const parts = `${root ?? ""}/${source}`.split("/").filter((p) => p !== "" && p !== ".");
  return parts.every((p) => PART.test(p) && p !== "..") ? parts.join("/") : null;
}

/** The plugin folders a marketplace names by relative source (the root itself left out: its `skills/` is read anyway). */
export function pluginFolders(marketplace: Json | null): string[] {
  if (!marketplace || !Array.isArray(marketplace.plugins)) return [];
  const root = isObject(marketplace.metadata) ? marketplace.metadata.pluginRoot : undefined;
  const found = new Set<string>();
  for (const entry of marketplace.plugins.slice(0, 1000)) {
    const folder = isObject(entry) ? relativeFolder(root, entry.source) : null;
    if (folder) found.add(folder);
  }
  return [...found];
}

/**
 * Every candidate skill folder: `skills/*`, `.agents/skills/*`, `.claude/skills/*`, then each marketplace plugin's
 * `skills/*` in the marketplace's order; plugin folders outside `plugins/<p>` go to `lists`.
 */
export function skillPlaces(node: Json, marketplace: Json | null): SkillPlaces {
  const listed = (key: string) => node[`m_${key}`];
  const folders = [
    ...foldersOf(listed("skills"), "skills"),
    ...foldersOf(listed("agentsSkills"), ".agents/skills"),
    ...foldersOf(listed("claudeSkills"), ".claude/skills"),
  ];
  const plugins = new Map(treeEntries(listed("pluginsDir")).map((p) => [p.name, p]));
  const lists: string[] = [];
  for (const folder of pluginFolders(marketplace)) {
    const parts = folder.split("/");
    if (parts.length === 2 && parts[0] === "plugins") {
      const skillsDir = treeEntries(plugins.get(parts[1]!)?.object).find(
        (e) => e.name === "skills" && e.type === "tree",
      );
      folders.push(...foldersOf(skillsDir?.object, `${folder}/skills`));
    } else if (lists.length < MAX_LISTED_ROOTS) lists.push(`${folder}/skills`);
  }
  // No standard place and no root SKILL.md: the installer looks for `<folder>/SKILL.md` anywhere, so the root's folders are read.
  if (folders.length === 0 && lists.length === 0 && !isObject(listed("skill")))
    folders.push(...rootSkills(listed("root")));
  return { folders, lists };
}

/** The root's folders holding a SKILL.md, with their tree ids. */
function rootSkills(root: unknown): SkillFolder[] {
  return treeEntries(root)
    .filter(
      (e) =>
        e.type === "tree" &&
        SKILL_FOLDER.test(e.name) &&
        treeEntries(e.object).some((f) => f.name === "SKILL.md" && f.type === "blob"),
    )
    .slice(0, MAX_ROOT_SKILLS)
    .map((e) => ({ path: e.name, tree: e.oid }));
}

/** The follow-up's listing of a plugin's `skills/` folder: each folder's tree id and whether it holds a SKILL.md. */
export function listSelection(alias: string, path: string): string {
  const inner = "entries { name type }";
  return `${alias}: object(expression: ${JSON.stringify(`HEAD:${path}`)}) { ... on Tree { entries { name type oid object { ... on Tree { ${inner} } } } } }`;
}

/** The folders of a follow-up listing that hold a SKILL.md, with their tree ids. */
export function listedSkills(tree: unknown, base: string): SkillFolder[] {
  return treeEntries(tree)
    .filter(
      (e) =>
        e.type === "tree" &&
        SKILL_FOLDER.test(e.name) &&
        treeEntries(e.object).some((f) => f.name === "SKILL.md" && f.type === "blob"),
    )
    .map((e) => ({ path: `${base}/${e.name}`, tree: e.oid }));
}
