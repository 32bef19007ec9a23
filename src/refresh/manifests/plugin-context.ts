/**
 * Each marketplace plugin's own context cost (`contents.plugins[].context`), counted as the root
 * plugin's is (context-files.ts, `claude plugin details`): the names and descriptions of the
 * skills of `<folder>/skills/*`, the commands and agents Claude Code loads from its folder. The
 * SKILL.md files the skill follow-up read are taken from its answer (`k<i>`); every other file is
 * read in one more follow-up round (`q<k>` aliases, at most PLUGIN_FILES_PER_QUERY per query
 * shared among its repositories); a file past that share leaves its plugin's figure incomplete.
 */
import {
  CONTEXT_HOOKS,
  NOT_MEASURED,
  type PluginContext,
  type PluginContextSummary,
} from "../../catalog/model/context-cost";
import { MAX_PART_ITEMS, type PluginParts } from "../../catalog/model/plugin-parts-schema";
import { componentText, rootSkillName } from "./context-text";
import { type Blob, type Gate, isObject, type Json, MAX_MANIFEST_BYTES } from "./manifest-gate";
import type { PluginFolder } from "./plugin-folders";
import type { ManifestReading } from "./reading";
import { frontMatter } from "./skills";

/** Files the second follow-up query reads at most, shared evenly among its repositories. */
export const PLUGIN_FILES_PER_QUERY = 1000;
/** The client reads at most this much of a file; past it the file is skipped. */
const CLIENT_FILE_BYTES = 1024 * 1024;

type Kind = "skill" | "command" | "agent";
interface Wanted {
  kind: Kind;
  name: string;
  /** The path of its file from the repository's root. */
  path: string;
  /** Its alias in the skill follow-up's answer, when that query read it. */
  alias: string | null;
  /** The folder's own SKILL.md: named by its front matter, else the plugin's name (`fallback`, when given). */
  root?: true;
  fallback?: string;
  /** A skill plugin.json's `skills` lists (plugin-listed.ts): its name joins the plugin's parts once read. */
  listed?: true;
}

const sanitized = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, "-");
const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** The skill folders right under `<folder>/skills/` the reading knows of. */
function skillFolders(reading: ManifestReading, folder: string): string[] {
  const prefix = folder === "" ? "skills/" : `${folder}/skills/`;
  const direct = (path: string | null | undefined): path is string =>
    typeof path === "string" && path.startsWith(prefix) && !path.slice(prefix.length).includes("/");
  const paths = [
    ...reading.skillFolders.map((f) => f.path),
    ...(reading.details.contents?.skills ?? []).map((s) => s.path),
  ].filter(direct);
  return [...new Set(paths)];
}

/** The components one plugin folder's context reads, in the client's order (skills, agents, commands). */
function wanted(reading: ManifestReading, f: PluginFolder): Wanted[] {
  const read = f.read!;
  const skills = skillFolders(reading, f.folder).map((path): Wanted => {
    const k = reading.skillDirs.indexOf(path);
    const name = `${read.plugin}:${sanitized(base(path))}`;
    return { kind: "skill", name, path: `${path}/SKILL.md`, alias: k < 0 ? null : `k${k}` };
  });
  const file = (kind: Kind) => (path: string) => {
    const stem = base(path).replace(/\.md$/i, "");
    return { kind, name: kind === "agent" ? stem : `${read.plugin}:${sanitized(stem)}`, path, alias: null };
  };
  // A plugin folder without skill folders is a skill of its own when it holds a SKILL.md, as the root plugin is.
  if (skills.length === 0 && read.rootSkill && f.folder !== "")
    skills.push({ kind: "skill", name: read.plugin, path: `${f.folder}/SKILL.md`, alias: null, root: true });
  const scanned = new Set(skills.map((w) => w.path));
  for (const { path, direct } of read.listedSkills) {
    const at = `${path}/SKILL.md`;
    if (scanned.has(at)) continue;
    // The client names a listed folder holding SKILL.md by its front matter, else the folder; a subfolder by its name.
    const name = direct ? read.plugin : `${read.plugin}:${sanitized(base(path))}`;
    skills.push({
      kind: "skill",
      name,
      path: at,
      alias: null,
      listed: true,
      ...(direct ? { root: true, fallback: base(path) } : {}),
    });
  }
  return [...skills, ...read.agents.map(file("agent")), ...read.commands.map(file("command"))];
}

/** The name a listed skill's SKILL.md gives it among the plugin's parts, checked as every SKILL.md is; null when refused. */
function listedName(gate: Gate, w: Wanted, blob: unknown, id: string): string | null {
  if (!isObject(blob) || typeof blob.text !== "string") return null;
  const file = w.path.length <= 100 ? w.path : "*/SKILL.md";
  const text = gate.text(blob, file, MAX_MANIFEST_BYTES, id);
  if (text === null) return null;
  const folder = w.path.slice(0, -"/SKILL.md".length);
  return frontMatter(gate, text, file, id, base(folder))?.name ?? null;
}

/** The files a reading's plugin folders still need read: the second follow-up's paths, in order. */
export function pluginFilePaths(reading: ManifestReading): string[] {
  const paths = reading.pluginFolders.flatMap((f) => (f.read ? wanted(reading, f) : []));
  return [...new Set(paths.filter((w) => w.alias === null).map((w) => w.path))];
}

/** The second follow-up's fields: one blob per path, `q<k>`. */
export function pluginFilesSelection(paths: readonly string[]): string {
  return paths
    .map(
      (p, k) =>
        `q${k}: object(expression: ${JSON.stringify(`HEAD:${p}`)}) { ... on Blob { byteSize isTruncated text } }`,
    )
    .join("\n  ");
}

/** The tokens of one component's file; null when it is no file, "unread" when its text did not come. */
function counted(w: Wanted, blob: unknown): number | "unread" | null {
  if (blob === null) return null;
  if (!isObject(blob)) return w.root ? null : "unread";
  const { byteSize, text } = blob as Blob;
  if (typeof byteSize === "number" && byteSize > CLIENT_FILE_BYTES) return null;
  if (typeof text !== "string") return "unread";
  const name = w.root ? `${w.name}:${sanitized(rootSkillName(text, w.fallback ?? w.name))}` : w.name;
  return componentText(name, text, w.kind).alwaysOn;
}

/**
 * Gives each marketplace plugin whose folder was read its context cost, from the skill follow-up's
 * answer `first` and the second one's `second` (its paths `asked`, each `q<k>`); a null answer leaves
 * the files it should have brought unread, and the figure incomplete.
 */
export function finishPluginContexts(
  gate: Gate,
  reading: ManifestReading,
  first: Json | null,
  second: Json | null,
  asked: readonly string[],
  id: string,
): void {
  const byName = new Map(reading.pluginFolders.map((f) => [f.name, f]));
  const at = new Map(asked.map((p, k) => [p, `q${k}`]));
  for (const plugin of reading.details.contents?.plugins ?? []) {
    const f = byName.get(plugin.name);
    // The plugin at the repository's root is the root plugin: its figure is the repository's (rootPluginContext).
    if (!f?.read || !plugin.contents || f.folder === "") continue;
    let complete = !f.read.partial && plugin.contents.partial !== true;
    let chars = 0;
    const found = { skills: 0, commands: 0, agents: 0 };
    const names: string[] = [];
    for (const w of wanted(reading, f)) {
      const alias = w.alias ?? at.get(w.path);
      const answer = w.alias !== null ? first : second;
      const blob = alias === undefined || answer === null ? undefined : answer[alias];
      const tokens = blob === undefined ? "unread" : counted(w, blob);
      const name = w.listed ? listedName(gate, w, blob, id) : null;
      if (name !== null) names.push(name);
      if (tokens === "unread") complete = false;
      else if (tokens !== null) {
        chars += tokens;
        found[`${w.kind}s`]++;
      }
    }
    addSkills(plugin.contents, names);
    const hooks = CONTEXT_HOOKS.filter((event) => plugin.contents?.hooks.includes(event));
    const context: PluginContextSummary = {
      always_on: Math.round(chars / 4),
      mcp_tools: plugin.contents.mcp_servers.length > 0 ? NOT_MEASURED : 0,
      complete: complete && hooks.length === 0,
      counts: found,
      ...(hooks.length > 0 ? { hooks_add_context: [...hooks] } : {}),
    };
    plugin.context = context;
  }
}

/** Adds the listed skills' `names` to the plugin's parts (within MAX_PART_ITEMS) and its count. */
function addSkills(parts: PluginParts, names: string[]): void {
  const fresh = [...new Set(names)].filter((n) => !parts.skills.includes(n));
  parts.skills.push(...fresh.slice(0, Math.max(0, MAX_PART_ITEMS - parts.skills.length)));
  parts.counts.skills += fresh.length;
}

/** The marketplace plugin at the repository's root takes the repository's own context (context-files.ts), summed up. */
export function rootPluginContext(reading: ManifestReading, context: PluginContext): void {
  const root = reading.pluginFolders.find((f) => f.folder === "" && f.read);
  const plugin = root && reading.details.contents?.plugins.find((p) => p.name === root.name);
  if (!plugin?.contents) return;
  const count = (kind: Kind) => context.components.filter((c) => c.kind === kind).length;
  plugin.context = {
    always_on: context.always_on,
    mcp_tools: context.mcp_tools,
    complete: context.complete,
    counts: { skills: count("skill"), commands: count("command"), agents: count("agent") },
    ...(context.hooks_add_context ? { hooks_add_context: [...context.hooks_add_context] } : {}),
  };
}
