/**
 * The skill folders a plugin.json names in `skills` (added to the `skills/` scan by Claude Code):
 * a folder holding SKILL.md is one skill, named by its front-matter name or its folder. Only
 * relative, plain paths are kept; a manifest naming others, or `commands` and `agents` paths,
 * leaves the inventory partial (context-files.ts).
 */
import type { Json } from "./manifest-gate";

/** Paths kept per manifest: real plugins name a few dozen. */
const MAX_PATHS = 100;
const PLAIN_PATH = /^(?:\.\/)?((?:[A-Za-z0-9_][A-Za-z0-9._ -]{0,99}\/){0,7}[A-Za-z0-9_][A-Za-z0-9._ -]{0,99})?\/?$/;

export interface ManifestPaths {
  /** Folders named by `skills`, without `./` or a trailing slash; `""` is the plugin's root. */
  skills: string[];
  /** Whether the manifest names components the catalog does not read. */
  partial: boolean;
}

/**
 * `commands` or `agents` in plugin.json replaces the folder's scan; `claude plugin details`
 * inventories the folders it names (not read here: partial), the agent files it names and no
 * command file it names.
 */
function namesFolders(manifest: Json, key: "commands" | "agents"): boolean {
  if (!(key in manifest) || onlyDefault(manifest[key], key)) return false;
  const listed = Array.isArray(manifest[key]) ? (manifest[key] as unknown[]) : [manifest[key]];
  return !listed.every((p) => typeof p === "string" && p.endsWith(".md"));
}

/**
 * Whether a plugin.json list names only the default folder (`"./commands/"`; for skills, folders
 * under `skills/` too): Claude Code then loads what its scan of that folder loads.
 */
export function onlyDefault(value: unknown, folder: "commands" | "agents" | "skills"): boolean {
  const listed = Array.isArray(value) ? value : [value];
  return (
    listed.length > 0 &&
    listed.every((p) => {
      if (typeof p !== "string") return false;
      const path = p.replace(/^\.\//, "").replace(/\/$/, "");
      return path === folder || (folder === "skills" && /^skills\/[^/]+$/.test(path));
    })
  );
}

/** The `.md` files plugin.json's `agents` names, plain relative paths without `./`: the client counts them (2.1.337). */
function agentFiles(manifest: Json): string[] {
  if (!("agents" in manifest) || onlyDefault(manifest.agents, "agents")) return [];
  const listed = Array.isArray(manifest.agents) ? (manifest.agents as unknown[]) : [manifest.agents];
  const files: string[] = [];
  for (const path of listed.slice(0, MAX_PATHS)) {
    const match = typeof path === "string" && path.endsWith(".md") ? PLAIN_PATH.exec(path) : null;
    const bare = match?.[1];
    if (bare && !bare.split("/").some((p) => p === "." || p === "..") && !files.includes(bare)) files.push(bare);
  }
  return files;
}

type Paths = ManifestPaths & { ownCommands: boolean; ownAgents: boolean; agentFiles: string[] };

export function manifestPaths(manifest: Json | null): Paths {
  if (manifest === null) return { skills: [], partial: false, ownCommands: false, ownAgents: false, agentFiles: [] };
  const ownCommands = "commands" in manifest && !onlyDefault(manifest.commands, "commands");
  const ownAgents = "agents" in manifest && !onlyDefault(manifest.agents, "agents");
  const others = namesFolders(manifest, "commands") || namesFolders(manifest, "agents");
  const own = { ownCommands, ownAgents, agentFiles: agentFiles(manifest) };
  if (!("skills" in manifest) || onlyDefault(manifest.skills, "skills")) return { skills: [], partial: others, ...own };
  const listed = Array.isArray(manifest.skills) ? manifest.skills : [manifest.skills];
  const skills: string[] = [];
  let partial = others || listed.length > MAX_PATHS;
  for (const path of listed.slice(0, MAX_PATHS)) {
    const match = typeof path === "string" ? PLAIN_PATH.exec(path) : null;
    if (match === null || (match[1] ?? "").split("/").some((p) => p === "." || p === "..")) partial = true;
    else if (!skills.includes(match[1] ?? "")) skills.push(match[1] ?? "");
  }
  return { skills, partial, ...own };
}
