/**
 * The paths a marketplace plugin's own `.claude-plugin/plugin.json` lists: `.md` files of
 * `commands` (named, never read) and `agents` (named, read for their cost), the folders of those two beyond the defaults, and
 * `hooks` and `mcpServers` files and `skills` folders, which the listed round reads (plugin-listed.ts). A path that
 * escapes the plugin's folder (absolute, `..`) is refused with its reason and never read.
 */
import { onlyDefault } from "./context-paths";
import type { Gate, Json } from "./manifest-gate";
import { relativeFolder } from "./skill-places";

/** Listed folders and files of one kind read per plugin at most. */
export const MAX_LISTED = 20;
/** `.md` files plugin.json names directly, kept per kind at most (they cost no read). */
const MAX_LISTED_FILES = 100;
const LISTED_FILE = "*/.claude-plugin/plugin.json";

export const bare = (path: string) => path.replace(/^\.\//, "").replace(/\/$/, "");
const fileName = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");

/** The paths a plugin.json lists beyond the default folders, from the plugin's folder, each checked. */
export interface ListedPaths {
  commands: string[];
  agents: string[];
  hooks: string[];
  mcpServers: string[];
  /** Folders `skills` lists beyond `skills/` (which the client scans anyway), listed two levels deep. */
  skills: string[];
  /** Whether the plugin stays partial once they are read (a refused or cut path). */
  rest: boolean;
}

/**
 * The paths plugin.json value `value` lists, within MAX_LISTED folders and files to read and
 * MAX_LISTED_FILES `.md` files; `cut` when some were left (refused, not relative, past a cap).
 */
function listedPaths(gate: Gate, value: unknown, id: string): { paths: string[]; cut: boolean } {
  const listed = (Array.isArray(value) ? value : [value]).filter((p): p is string => typeof p === "string");
  const paths: string[] = [];
  let cut = listed.length > MAX_LISTED_FILES;
  let reads = 0;
  for (const path of listed.slice(0, MAX_LISTED_FILES)) {
    if (path.startsWith("/") || path.split(/[/\\]/).includes("..")) {
      gate.refuse(LISTED_FILE, "listed path escapes the plugin folder", id);
      cut = true;
    } else if (relativeFolder(undefined, path) === null) cut = true;
    else if (!path.endsWith(".md") && ++reads > MAX_LISTED) cut = true;
    else paths.push(bare(path));
  }
  return { paths, cut };
}

export interface ManifestListed {
  /** Names of the `.md` files it lists. */
  files: { commands: string[]; agents: string[] };
  /** The `.md` files `agents` lists, from the plugin's folder: the client counts them (2.1.337), never a command file. */
  agentFiles: string[];
  /** The kinds whose list replaces the folder's scan in the client's count (context-paths.ts). */
  replaced: Array<"commands" | "agents">;
  /** What the listed round still reads, when anything. */
  pending: ListedPaths | null;
  /** Whether the plugin's contents are partial until that round (or for good: `pending.rest`). */
  partial: boolean;
}

/** What plugin.json `manifest` lists of commands, agents, hooks and servers. */
export function manifestListed(gate: Gate, manifest: Json, id: string): ManifestListed {
  const pending: ListedPaths = { commands: [], agents: [], hooks: [], mcpServers: [], skills: [], rest: false };
  const files = { commands: [] as string[], agents: [] as string[] };
  let agentFiles: string[] = [];
  const replaced: ManifestListed["replaced"] = [];
  for (const kind of ["commands", "agents"] as const) {
    if (!(kind in manifest)) continue;
    const listed = listedPaths(gate, manifest[kind], id);
    files[kind] = listed.paths.filter((p) => p.endsWith(".md")).map(fileName);
    // plugin.json's list replaces the folder's scan; `claude plugin details` counts the agent files it names, no command file.
    if (onlyDefault(manifest[kind], kind)) continue;
    if (kind === "agents") agentFiles = listed.paths.filter((p) => p.endsWith(".md"));
    replaced.push(kind);
    pending[kind] = listed.paths.filter((p) => !p.endsWith(".md"));
    pending.rest ||= listed.cut;
  }
  for (const kind of ["hooks", "mcpServers"] as const) {
    const value = manifest[kind];
    const named = (Array.isArray(value) ? value : [value]).filter((p) => typeof p === "string");
    if (named.length === 0) continue;
    const listed = listedPaths(gate, named, id);
    pending[kind] = listed.paths;
    pending.rest ||= listed.cut;
  }
  if (manifest.skills !== undefined && !onlyDefault(manifest.skills, "skills")) {
    const listed = listedPaths(gate, manifest.skills, id);
    // The client scans `skills/` anyway and refuses a listed file (2.1.337): neither is read again.
    pending.skills = [...new Set(listed.paths.filter((p) => !p.endsWith(".md") && p !== "skills"))];
    pending.rest ||= listed.cut;
  }
  const some =
    pending.commands.length +
    pending.agents.length +
    pending.hooks.length +
    pending.mcpServers.length +
    pending.skills.length;
  return { files, agentFiles, replaced, pending: some > 0 ? pending : null, partial: some > 0 || pending.rest };
}
