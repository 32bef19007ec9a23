/**
 * Each plugin a marketplace names inside its own repository (a relative source, under
 * `metadata.pluginRoot` when given, or a `git-subdir` into the same repository), read where Claude
 * Code reads a plugin: `commands/` and `agents/` (plus the paths its marketplace entry lists, which
 * supplement them), `hooks/hooks.json`, `.mcp.json`, and its `.claude-plugin/plugin.json` (inline
 * hooks and servers, listed `.md` paths) unless the entry says `strict: false` (the entry is then
 * the manifest: its inline hooks and servers count instead). Skills come from the folders the skill
 * follow-up read. The follow-up query brings the files (`g<i>…` aliases); the repository's
 * contents become the union of its plugins'.
 */
import type { Contents, PluginDetails } from "../../catalog/model/details";
import { MAX_PART_ITEMS, type PluginParts } from "../../catalog/model/plugin-parts-schema";
import type { RiskNote } from "../../catalog/model/risk";
import { GateCounts } from "../upstream/gate";
import { hookEvents } from "./hook-events";
import { ENTRY_NAME, Gate, isObject, type Json, MAX_ENTRIES, MAX_MANIFEST_BYTES } from "./manifest-gate";
import type { MarketplaceRead } from "./marketplace";
import { mcpJson, serverNames } from "./mcp";
import { bare, type ListedPaths, MAX_LISTED, manifestListed } from "./plugin-json-paths";
import { pluginNameRefusal, readPlugin } from "./plugin-manifest";
import { folderNotes, pluginNotes, unionNotes } from "./plugin-risk";
import { relativeFolder, treeEntries } from "./skill-places";

/** Plugin folders one repository's follow-up reads at most; past it a plugin has no contents of its own. */
export const MAX_PLUGIN_FOLDERS = 300;

type ListKind = "commands" | "agents";

/** One plugin of the marketplace and where its files are. */
export interface PluginFolder {
  name: string;
  /** Its folder from the repository's root, "" for the root itself. */
  folder: string;
  /** The marketplace entry as written (its lists, `strict`, inline hooks and servers). */
  raw: Json;
  /** Listed folders of commands/agents the follow-up lists, and `.md` files named directly. */
  listed: Record<ListKind, { dirs: string[]; files: string[] }>;
  /** Hook and server files the entry lists. */
  files: { hooks: string[]; mcpServers: string[] };
  strict: boolean;
  /** What its context counts, once the follow-up answered (plugin-context.ts). */
  read?: FolderRead;
  /** The folders and files its plugin.json lists, read in one more round (plugin-listed.ts). */
  pending?: ListedPaths;
}

/** The files of one plugin folder its context cost reads, and the name the client counts them under. */
export interface FolderRead {
  /** plugin.json's name when Claude Code accepts it, else the entry's. */
  plugin: string;
  /** Paths from the repository's root of the command and agent files the client loads. */
  commands: string[];
  agents: string[];
  /** Whether some component the client loads is not among them (a listed folder, a cut listing). */
  partial: boolean;
  /** Skill folders plugin.json's `skills` paths hold (the listed round): `direct` when the path itself holds SKILL.md. */
  listedSkills: Array<{ path: string; direct: boolean }>;
  /** Whether neither plugin.json nor the entry lists skills: the folder's own SKILL.md is then one when `skills/` holds none. */
  rootSkill: boolean;
}

export const under = (folder: string, path: string) =>
  folder === "" ? path : path === "" ? folder : `${folder}/${path}`;
const pathsOf = (value: unknown): string[] =>
  (typeof value === "string" ? [value] : Array.isArray(value) ? value : [])
    .filter((p): p is string => typeof p === "string" && relativeFolder(undefined, p) !== null)
    .slice(0, MAX_LISTED);

const GITHUB = /^(?:https:\/\/github\.com\/)?([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+?)(?:\.git)?$/;

/** The folder a listed source names inside repository `id`, or null when it is elsewhere. */
function folderOf(source: string, root: unknown, id: string): string | null {
  if (source.startsWith("./")) return relativeFolder(root, source);
  const split = source.indexOf("//", source.startsWith("https://") ? 8 : 0);
  if (split < 0) return null;
  const repo = GITHUB.exec(source.slice(0, split))?.[1];
  if (repo?.toLowerCase() !== id.toLowerCase()) return null;
  return relativeFolder(undefined, `./${source.slice(split + 2)}`);
}

/** The plugins of a marketplace that live in this repository, in its order, at most MAX_PLUGIN_FOLDERS. */
export function pluginFolderList(market: MarketplaceRead | null, manifest: Json | null, id: string): PluginFolder[] {
  if (!market || !manifest || !Array.isArray(manifest.plugins)) return [];
  const root = isObject(manifest.metadata) ? manifest.metadata.pluginRoot : undefined;
  const raws = new Map<string, Json>();
  for (const raw of manifest.plugins.slice(0, MAX_ENTRIES))
    if (isObject(raw) && typeof raw.name === "string" && !raws.has(raw.name)) raws.set(raw.name, raw);
  const found: PluginFolder[] = [];
  for (const plugin of market.plugins) {
    if (found.length >= MAX_PLUGIN_FOLDERS) break;
    const raw = raws.get(plugin.name);
    const folder = plugin.refused || !raw ? null : folderOf(plugin.source, root, id);
    if (folder === null || !raw) continue;
    const split = (kind: ListKind) => {
      const paths = pathsOf(raw[kind]).map(bare);
      return { dirs: paths.filter((p) => !p.endsWith(".md")), files: paths.filter((p) => p.endsWith(".md")) };
    };
    found.push({
      name: plugin.name,
      folder,
      raw,
      listed: { commands: split("commands"), agents: split("agents") },
      files: { hooks: pathsOf(raw.hooks).map(bare), mcpServers: pathsOf(raw.mcpServers).map(bare) },
      strict: raw.strict !== false,
    });
  }
  return found;
}

const blob = (alias: string, path: string) =>
  `${alias}: object(expression: ${JSON.stringify(`HEAD:${path}`)}) { ... on Blob { byteSize isTruncated text } }`;
const tree = (alias: string, path: string) =>
  `${alias}: object(expression: ${JSON.stringify(`HEAD:${path}`)}) { ... on Tree { entries { name type oid } } }`;

/** The follow-up's fields for the plugin folders: the folder itself `g<i>r`, `g<i>c`/`g<i>a` listings, `g<i>h`/`g<i>m`/`g<i>j` files, listed paths. */
export function partsSelection(folders: readonly PluginFolder[]): string {
  return folders
    .flatMap((f, i) => [
      ...(f.folder === ""
        ? []
        : [`g${i}r: object(expression: ${JSON.stringify(`HEAD:${f.folder}`)}) { ... on Tree { oid } }`]),
      tree(`g${i}c`, under(f.folder, "commands")),
      tree(`g${i}a`, under(f.folder, "agents")),
      blob(`g${i}h`, under(f.folder, "hooks/hooks.json")),
      blob(`g${i}m`, under(f.folder, ".mcp.json")),
      ...(f.strict ? [blob(`g${i}j`, under(f.folder, ".claude-plugin/plugin.json"))] : []),
      ...f.listed.commands.dirs.map((p, k) => tree(`g${i}lc${k}`, under(f.folder, p))),
      ...f.listed.agents.dirs.map((p, k) => tree(`g${i}la${k}`, under(f.folder, p))),
      ...f.files.hooks.map((p, k) => blob(`g${i}fh${k}`, under(f.folder, p))),
      ...f.files.mcpServers.map((p, k) => blob(`g${i}fm${k}`, under(f.folder, p))),
    ])
    .join("\n  ");
}

/** Markdown files of a listing, names checked (a README too: Claude Code counts it, the inventory leaves it out). */
export function markdownFiles(listing: unknown): string[] {
  return treeEntries(listing)
    .filter((e) => e.type === "blob" && e.name.toLowerCase().endsWith(".md"))
    .map((e) => e.name)
    .filter((n) => ENTRY_NAME.test(n.slice(0, -3)));
}
export const notReadme = (path: string) => !/(?:^|\/)readme\.md$/i.test(path);

export const fileName = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
export const unique = (list: string[]) => [...new Set(list)];

/** One plugin's parts from the follow-up's answer `node`. */
function readParts(gate: Gate, f: PluginFolder, i: number, node: Json, skills: Contents["skills"], id: string) {
  const json = (alias: string, file: string) =>
    gate.json(gate.text(node[alias], file, MAX_MANIFEST_BYTES, id), file, id);
  let partial = false;
  const inside = (dir: string, listing: unknown) => markdownFiles(listing).map((n) => under(f.folder, `${dir}/${n}`));
  const paths = (kind: ListKind, key: "c" | "a") => [
    ...inside(kind, node[`g${i}${key}`]),
    ...f.listed[kind].files.filter((p) => ENTRY_NAME.test(fileName(p))).map((p) => under(f.folder, p)),
    ...f.listed[kind].dirs.flatMap((d, k) => inside(d, node[`g${i}l${key}${k}`])),
  ];
  const files = { commands: paths("commands", "c"), agents: paths("agents", "a") };
  const commands = files.commands.filter(notReadme).map(fileName);
  const agents = files.agents.filter(notReadme).map(fileName);
  const hooks: string[] = [];
  const servers: string[] = [];
  const hooksJson = json(`g${i}h`, "*/hooks/hooks.json");
  if (hooksJson) hooks.push(...hookEvents(gate, hooksJson, "*/hooks/hooks.json", id));
  const mcp = json(`g${i}m`, "*/.mcp.json");
  if (mcp) servers.push(...mcpJson(gate, mcp, "*/.mcp.json", id));
  for (const k of f.files.hooks.keys()) {
    const listed = json(`g${i}fh${k}`, "marketplace entry hooks file");
    if (listed) hooks.push(...hookEvents(gate, listed, "marketplace entry hooks file", id));
  }
  for (const k of f.files.mcpServers.keys()) {
    const listed = json(`g${i}fm${k}`, "marketplace entry mcpServers file");
    if (listed) servers.push(...mcpJson(gate, listed, "marketplace entry mcpServers file", id));
  }
  const file = "marketplace.json entry";
  if (isObject(f.raw.hooks)) hooks.push(...hookEvents(gate, f.raw.hooks, file, id));
  if (isObject(f.raw.mcpServers)) servers.push(...serverNames(gate, f.raw.mcpServers, file, id));
  const manifest = f.strict ? json(`g${i}j`, "*/.claude-plugin/plugin.json") : null;
  let plugin = f.name;
  if (manifest) {
    const read = readPlugin(gate, manifest, id);
    if (typeof manifest.name === "string" && pluginNameRefusal(manifest.name) === null) plugin = manifest.name;
    hooks.push(...read.hooks);
    servers.push(...read.mcpServers);
    const listed = manifestListed(gate, manifest, id);
    commands.push(...listed.files.commands);
    agents.push(...listed.files.agents);
    for (const kind of listed.replaced) files[kind] = [];
    files.agents.push(...listed.agentFiles.map((p) => under(f.folder, p)));
    if (listed.partial) partial = true;
    if (listed.pending) f.pending = listed.pending;
  }
  const skillDirs = [under(f.folder, "skills"), ...pathsOf(f.raw.skills).map((p) => under(f.folder, bare(p)))];
  const own = skills
    .filter((s) => s.path && skillDirs.some((d) => s.path === d || s.path!.startsWith(`${d}/`)))
    .map((s) => s.name);
  return {
    skills: unique(own),
    commands: unique(commands),
    agents: unique(agents),
    hooks: unique(hooks),
    mcp_servers: unique(servers),
    partial,
    read: {
      plugin,
      ...files,
      partial,
      listedSkills: [],
      rootSkill: manifest?.skills === undefined && f.raw.skills === undefined,
    },
  };
}

export const LISTS = ["skills", "commands", "agents", "hooks", "mcp_servers"] as const;

/**
 * Gives each plugin its parts from the follow-up's answer (`node`, null when the
 * query failed), and makes the repository's lists the union with them. The repository root's own
 * files were read (and their refusals counted) by the batch: its plugin reads them again quietly.
 */
export function finishPlugins(
  gate: Gate,
  details: PluginDetails,
  folders: readonly PluginFolder[],
  node: Json | null,
  id: string,
): void {
  const contents = details.contents;
  if (!contents) return;
  const quiet = new Gate(new GateCounts());
  const byName = new Map(folders.map((f, i) => [f.name, { f, i }]));
  const noted: Array<{ parts: PluginParts; folder: string; fresh: RiskNote[] }> = [];
  for (const plugin of contents.plugins) {
    const at = byName.get(plugin.name);
    // A folder the repository does not hold: nothing is known of the plugin's parts.
    if (!at || node === null || (at.f.folder !== "" && !isObject(node[`g${at.i}r`]))) continue;
    const read = readParts(at.f.folder === "" ? quiet : gate, at.f, at.i, node, contents.skills, id);
    const parts: PluginParts = {
      skills: read.skills.slice(0, MAX_PART_ITEMS),
      commands: read.commands.slice(0, MAX_PART_ITEMS),
      agents: read.agents.slice(0, MAX_PART_ITEMS),
      hooks: read.hooks.slice(0, MAX_PART_ITEMS),
      mcp_servers: read.mcp_servers.slice(0, MAX_PART_ITEMS),
      counts: {
        skills: read.skills.length,
        commands: read.commands.length,
        agents: read.agents.length,
        hooks: read.hooks.length,
        mcp_servers: read.mcp_servers.length,
      },
      ...(read.partial ? { partial: true as const } : {}),
    };
    plugin.contents = parts;
    at.f.read = read.read;
    noted.push({ parts, folder: at.f.folder, fresh: folderNotes(node, at.i, at.f.folder) });
    for (const list of LISTS)
      if (list !== "skills") contents[list] = unique([...(contents[list] as string[]), ...read[list]]);
  }
  const risk = unionNotes(
    details.risk,
    noted.flatMap((n) => n.fresh),
  );
  if (risk.length > 0) details.risk = risk;
  for (const { parts, folder, fresh } of noted) {
    const own = pluginNotes(fresh, details.risk, folder);
    if (own.length > 0) parts.risk = own;
  }
}

/** Each marketplace plugin's own line of `install`, the one that installs it (`/plugin install <name>@…`). */
export function pluginInstallLines(details: PluginDetails): void {
  const lines = new Map<string, string>();
  for (const step of details.install) {
    const command = step.kind === "plugin" ? step.command : undefined;
    const name = command?.startsWith("/plugin install ") ? command.slice(16, command.lastIndexOf("@")) : null;
    if (command && name && !lines.has(name)) lines.set(name, command);
  }
  for (const plugin of details.contents?.plugins ?? []) {
    const line = lines.get(plugin.name);
    if (line) plugin.install_command = line;
  }
}
