/**
 * A plugin's context cost (catalog/model/context-cost.ts) from the files the refresh reads: the
 * top-level `commands/*.md` and `agents/*.md` (read in the skills follow-up query, aliases `c<i>`
 * and `a<i>`) and each `skills/<folder>/SKILL.md` (aliases `k<i>`), inventoried and counted as
 * `claude plugin details` does. Only names and integers are kept; `checked()` holds them to their schema.
 */
import {
  CONTEXT_HOOKS,
  CONTEXT_METHOD,
  type ContextComponent,
  MAX_COMPONENTS,
  NOT_MEASURED,
  type PluginContext,
} from "../../catalog/model/context-cost";
import { MAX_LIST_ITEMS } from "../../catalog/model/details";
import { stripInvisible } from "../../catalog/model/invisible";
import { manifestPaths } from "./context-paths";
import { type ComponentKind, componentText, rootSkillName } from "./context-text";
import { type Blob, isObject, type Json, MAX_ENTRIES } from "./manifest-gate";
import { rootPluginContext } from "./plugin-context";
import { pluginNameRefusal } from "./plugin-manifest";
import type { ContextFiles, ManifestReading } from "./reading";
import { alias, type TreeKey } from "./selection";

/** The client reads at most this much of a file; past it the file is skipped. */
const CLIENT_FILE_BYTES = 1024 * 1024;
/** A file name the catalog can name: printable, no path, not too long. */
const FILE_NAME = /^[^\p{Cc}/\\]{1,100}\.md$/u;

/** The plugin's name for the inventory: its manifest's when Claude Code accepts it, else the repository's. */
function pluginName(manifest: Json | null, id: string): string {
  const name = manifest?.name;
  return typeof name === "string" && pluginNameRefusal(name) === null ? name : id.slice(id.indexOf("/") + 1);
}

/** Top-level Markdown files of a folder, as the client lists them, and whether any was left out. */
function markdownFiles(node: Json, key: TreeKey): { files: string[]; cut: boolean } {
  const tree = node[alias(key)];
  if (!isObject(tree) || !Array.isArray(tree.entries)) return { files: [], cut: false };
  const blobs = tree.entries.filter(
    (e): e is { name: string } =>
      isObject(e) && e.type === "blob" && typeof e.name === "string" && e.name.endsWith(".md"),
  );
  // An agent keeps its file's name as it is: one with invisible or direction characters is not kept (and said partial).
  const files = blobs.filter((e) => FILE_NAME.test(e.name) && stripInvisible(e.name).removed === 0).map((e) => e.name);
  const kept = files.slice(0, MAX_LIST_ITEMS);
  return { files: kept, cut: kept.length < blobs.length || tree.entries.length >= MAX_ENTRIES };
}

/**
 * The files to read for the context of a repository that is a Claude Code plugin at its root
 * (a loadable plugin.json, or commands, agents or skills the client would load); null otherwise.
 */
export function contextFiles(node: Json, manifest: Json | null, loads: boolean, id: string): ContextFiles | null {
  const commands = markdownFiles(node, "commands");
  const agents = markdownFiles(node, "agents");
  const skills = node[alias("skills")];
  const paths = manifestPaths(manifest);
  // A `skills/` folder holding a SKILL.md is itself one skill, and its subfolders are not looked at.
  const skillsIsSkill =
    isObject(skills) &&
    Array.isArray(skills.entries) &&
    skills.entries.some((e) => isObject(e) && e.name === "SKILL.md");
  if (skillsIsSkill && !paths.skills.includes("skills")) paths.skills.unshift("skills");
  // The root is a skill of its own only when neither a `skills/` folder nor the manifest names skills.
  const rootSkill = isObject(skills) || manifest?.skills !== undefined ? null : (node[alias("skill")] ?? null);
  if (!loads && commands.files.length + agents.files.length === 0 && !isObject(skills)) return null;
  return {
    plugin: pluginName(manifest, id),
    repository: id.slice(id.indexOf("/") + 1),
    commands: paths.ownCommands ? [] : commands.files,
    agents: [...(paths.ownAgents ? [] : agents.files.map((f) => `agents/${f}`)), ...paths.agentFiles],
    partial: commands.cut || agents.cut || paths.partial,
    skillPaths: paths.skills,
    skillsIsSkill,
    rootSkill,
  };
}

/** The follow-up query's fields of the command and agent files. */
export function contextSelection(files: ContextFiles | null | undefined): string {
  if (!files) return "";
  const at = (alias: string, path: string) =>
    `${alias}: object(expression: ${JSON.stringify(`HEAD:${path}`)}) { ... on Blob { byteSize isTruncated text } }`;
  return [
    ...files.commands.map((f, i) => at(`c${i}`, `commands/${f}`)),
    ...files.agents.map((p, i) => at(`a${i}`, p)),
    ...files.skillPaths.map((p, i) => at(`p${i}`, p === "" ? "SKILL.md" : `${p}/SKILL.md`)),
  ].join("\n  ");
}

const sanitized = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, "-");

type Counted = ContextComponent & { chars: number };

/** One component from its blob; null when there is no such file, "unread" when its text did not come. */
function component(kind: ComponentKind, name: string, blob: unknown): Counted | "unread" | null {
  if (blob === null) return null;
  if (!isObject(blob)) return "unread";
  const { byteSize, isTruncated, text } = blob as Blob;
  if (typeof byteSize === "number" && byteSize > CLIENT_FILE_BYTES) return null;
  if (typeof text !== "string") return "unread";
  const counted = componentText(name, text, kind);
  const onInvoke = isTruncated === true ? null : Math.round(counted.onInvoke / 4);
  return { kind, name, always_on: Math.round(counted.alwaysOn / 4), on_invoke: onInvoke, chars: counted.alwaysOn };
}

/** A skill folder of the plugin itself, one level under `skills/`. */
const PLUGIN_SKILL = /^skills\/[^/]+$/;

/** The components of a reading in the client's order (skills, agents, commands), and whether every file came. */
function components(reading: ManifestReading, files: ContextFiles, node: Json | null) {
  // The plugin's own `skills/<folder>` skills; other places the reader lists (`.claude/skills`, a
  // marketplace's plugin folders) are not this plugin's to Claude Code. `k<i>` is the reading's index.
  const dirs = files.skillsIsSkill
    ? []
    : reading.skillDirs.flatMap((path, i) => (PLUGIN_SKILL.test(path) ? [{ folder: path.slice(7), i }] : []));
  const wanted = reading.skillFolders.filter((f) => PLUGIN_SKILL.test(f.path)).length;
  let complete = !files.partial && (files.skillsIsSkill || dirs.length === wanted);
  const found: Counted[] = [];
  const add = (kind: ComponentKind, name: string, key: string) => {
    const c = component(kind, name, node === null ? undefined : node[key]);
    if (c === "unread") complete = false;
    else if (c !== null) found.push(c);
  };
  const root = files.rootSkill as Blob | null;
  if (root !== null && typeof root.text === "string") {
    const name = `${files.plugin}:${sanitized(rootSkillName(root.text, files.repository))}`;
    const c = component("skill", name, root);
    if (c !== null && c !== "unread") found.push(c);
  }
  for (const { folder, i } of dirs) add("skill", `${files.plugin}:${sanitized(folder)}`, `k${i}`);
  for (const [i, path] of files.skillPaths.entries()) {
    if (reading.skillDirs.includes(path)) continue;
    const blob = node === null ? undefined : node[`p${i}`];
    const text = isObject(blob) && typeof blob.text === "string" ? blob.text : null;
    // A path without a SKILL.md is a folder of skills, one level further than the query reads.
    if (text === null) complete = false;
    else
      add(
        "skill",
        `${files.plugin}:${sanitized(rootSkillName(text, path.split("/").pop() || files.repository))}`,
        `p${i}`,
      );
  }
  for (const [i, p] of files.agents.entries()) add("agent", p.slice(p.lastIndexOf("/") + 1, -3), `a${i}`);
  for (const [i, f] of files.commands.entries())
    add("command", `${files.plugin}:${sanitized(f.slice(0, -3))}`, `c${i}`);
  return { found, complete: complete && found.length <= MAX_COMPONENTS };
}

/**
 * The context of a reading, from the follow-up answer `node` (null when none came). The total is
 * rounded over the sum of characters, as the client's is.
 */
export function finishContext(reading: ManifestReading, node: Json | null): void {
  const files = reading.context;
  if (!files) return;
  const { found, complete } = components(reading, files, node);
  const chars = found.reduce((sum, c) => sum + c.chars, 0);
  const d = reading.details;
  const mcp = (d.contents?.mcp_servers.length ?? 0) > 0 || d.works_with.includes("mcp");
  // A hook printing into the session at its start or at each prompt adds what it prints: unbounded.
  const hooks = CONTEXT_HOOKS.filter((event) => d.contents?.hooks.includes(event));
  const context: PluginContext = {
    components: found.slice(0, MAX_COMPONENTS).map(({ chars: _, ...c }) => c),
    always_on: Math.round(chars / 4),
    mcp_tools: mcp ? NOT_MEASURED : 0,
    complete: complete && hooks.length === 0,
    method: CONTEXT_METHOD,
    ...(hooks.length > 0 ? { hooks_add_context: [...hooks] } : {}),
  };
  d.context = context;
  rootPluginContext(reading, context);
}

/** Command and agent files one follow-up query reads at most, shared evenly among its repositories. */
export const CONTEXT_FILES_PER_QUERY = 1000;

/** The number of files a reading's context asks for. */
export const contextFileCount = (files: ContextFiles | null | undefined) =>
  files ? files.commands.length + files.agents.length + files.skillPaths.length : 0;

/** Keeps `share` of a reading's command and agent files (commands first); the rest leave the inventory partial. */
export function shareContextFiles(files: ContextFiles | null | undefined, share: number): void {
  if (!files || contextFileCount(files) <= share) return;
  files.commands = files.commands.slice(0, share);
  files.agents = files.agents.slice(0, Math.max(0, share - files.commands.length));
  files.skillPaths = files.skillPaths.slice(0, Math.max(0, share - files.commands.length - files.agents.length));
  files.partial = true;
}
