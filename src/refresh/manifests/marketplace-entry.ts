/**
 * What a marketplace entry installs beyond its source (catalog/model/plugin-entry.ts), read
 * through the gate: `strict`, `version`, the source's `ref` and `sha`, and the component lists and
 * paths, each bounded, printable and relative to the plugin's folder without `..`. An entry with a
 * field the catalog cannot carry as it is (inline hooks or servers, a component kind it does not
 * carry, a path it does not take) keeps the reason in `unserved`, and the catalog's marketplaces
 * leave it out rather than serve an entry that installs something else.
 *
 * A repository-root entry (`"source": "./"`) with a `skills` list is the one case the client reads
 * differently by source: only for a relative path does the list replace the root's `skills/`
 * folder. Served from the repository's https address, the same entry would install every skill of
 * `skills/`; so it is served from the skills folder holding its list (`root`), when nothing else
 * the client loads by default lies at the repository's root or in that folder.
 */
import {
  ENTRY_LISTS,
  ENTRY_PATH,
  ENTRY_VERSION,
  MAX_ENTRY_PATHS,
  type PluginEntry,
} from "../../catalog/model/plugin-entry";
import { cleanText } from "../upstream/gate";
import { isObject, type Json } from "./manifest-gate";
import { alias } from "./selection";

/** Fields that change what an entry installs and that the catalog does not carry: an entry with one is not served. */
const NOT_CARRIED = [
  "outputStyles",
  "themes",
  "lspServers",
  "monitors",
  "experimental",
  "dependencies",
  "userConfig",
  "channels",
] as const;

/** The source kinds with a `ref` and a `sha` (marketplace-sources.ts checked them). */
const GIT_KINDS = new Set<unknown>(["github", "url", "git-subdir"]);

/** Names in a folder that the client would load as a plugin's components were the folder a plugin's root. */
const DEFAULT_NAMES = new Set([
  "skills",
  "commands",
  "agents",
  "hooks",
  ".mcp.json",
  ".lsp.json",
  ".claude-plugin",
  "output-styles",
  "themes",
  "monitors",
  "bin",
  "settings.json",
]);

/** The skill folders a root entry may be served from, as the batch lists them (selection.ts). */
const SKILL_TREES = { skills: "skills", claudeSkills: ".claude/skills", agentsSkills: ".agents/skills" } as const;

const plain = (value: string, max: number) => value.length <= max && cleanText(value, max) === value;
const listOf = (value: string | string[]) => (typeof value === "string" ? [value] : value);
/** A path without its trailing `/` (`./` stays). */
const bare = (path: string) => (path.length > 2 ? path.replace(/\/$/, "") : path);

/** One list field as the client takes it (a path or a list of paths), or why it is not carried. */
function paths(value: unknown, field: string): string | string[] | { unserved: string } {
  if (isObject(value)) return { unserved: `inline ${field}, which the catalog does not carry` };
  const list: unknown[] = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  if (list.length === 0 || !list.every((p): p is string => typeof p === "string"))
    return { unserved: `${field} is not a path or a list of paths` };
  if (list.length > MAX_ENTRY_PATHS) return { unserved: `more than ${MAX_ENTRY_PATHS} ${field} paths` };
  if (!list.every((p) => plain(p, 300) && ENTRY_PATH.test(p)))
    return { unserved: `a ${field} path not taken: "./…" inside the plugin's folder, without ".." or "."` };
  return value as string | string[];
}

/**
 * The installable fields of entry `raw` (its source already accepted), or null when it has none.
 * A git source naming the repository itself (`itself`) always answers an object: the record of
 * what its `ref` and `sha` were, without which the catalog does not serve it.
 */
export function readEntry(raw: Json, itself = false): PluginEntry | null {
  const entry: PluginEntry = {};
  const source = raw.source;
  const git = isObject(source) && GIT_KINDS.has(source.source);
  if (git) {
    if (typeof source.ref === "string") entry.ref = source.ref;
    if (typeof source.sha === "string") entry.sha = source.sha;
  }
  const out = (unserved: string) => ({ ...entry, unserved });
  if (raw.strict !== undefined) {
    if (typeof raw.strict !== "boolean") return out("strict is not true or false");
    entry.strict = raw.strict;
  }
  if (raw.version !== undefined) {
    if (typeof raw.version !== "string" || !ENTRY_VERSION.test(raw.version)) return out("version not taken");
    entry.version = raw.version;
  }
  for (const field of ENTRY_LISTS) {
    if (raw[field] === undefined) continue;
    const read = paths(raw[field], field);
    if (typeof read === "object" && !Array.isArray(read)) return out(read.unserved);
    entry[field] = read;
  }
  const other = NOT_CARRIED.find((k) => raw[k] !== undefined);
  if (other) return out(`${other}, which the catalog does not carry`);
  return Object.keys(entry).length > 0 || (git && itself) ? entry : null;
}

/** What the batch shows of a repository's root, for a root entry with a `skills` list. */
export interface RootLayout {
  /** The names in each skill folder the batch lists (`skills`, `.claude/skills`, `.agents/skills`), by path. */
  folders: Map<string, string[]>;
  /** Whether the root holds what the client loads by default besides skills: commands/, agents/, hooks/hooks.json, .mcp.json, a plugin.json. */
  defaults: boolean;
}

/** The root layout from the batch's answer for one repository. */
export function rootLayout(node: Json): RootLayout {
  const folders = new Map<string, string[]>();
  for (const [key, path] of Object.entries(SKILL_TREES)) {
    const tree = node[alias(key)];
    if (!isObject(tree) || !Array.isArray(tree.entries)) continue;
    folders.set(
      path,
      tree.entries.flatMap((e) => (isObject(e) && typeof e.name === "string" ? [e.name] : [])),
    );
  }
  const defaults = ["commands", "agents", "hooks", "mcp", "plugin"].some((key) => isObject(node[alias(key)]));
  return { folders, defaults };
}

/**
 * A repository-root entry as the catalog can serve it: as it is when the client reads it the same
 * from the repository's address (no `skills` list, no `skills/` folder, or the list names
 * `skills/` or the root), else from the one skill folder that holds every path it names (`root`),
 * or with the reason it cannot be served.
 */
export function fromRoot(entry: PluginEntry, layout: RootLayout): PluginEntry {
  if (entry.unserved !== undefined || entry.skills === undefined || !layout.folders.has("skills")) return entry;
  const skills = listOf(entry.skills).map(bare);
  if (skills.includes("./") || skills.includes("./skills")) return entry;
  const out = (unserved: string) => ({ ...entry, unserved });
  if (layout.defaults)
    return out("a root entry with a skills list beside other root components the client loads by default");
  const named = ENTRY_LISTS.flatMap((k) => (entry[k] === undefined ? [] : listOf(entry[k]).map(bare)));
  const root = [...layout.folders.keys()].find((folder) =>
    named.every((p) => p.startsWith(`./${folder}/`) && p.length > folder.length + 3),
  );
  if (root === undefined) return out("a root entry whose skills list lies outside one skills folder");
  if (layout.folders.get(root)!.some((name) => DEFAULT_NAMES.has(name)))
    return out(`a root entry whose skills folder ${root}/ holds what the client loads by default`);
  return { ...entry, root };
}
