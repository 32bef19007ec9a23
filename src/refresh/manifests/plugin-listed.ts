/**
 * The paths a marketplace plugin's own `.claude-plugin/plugin.json` lists (folders of `commands`
 * and `agents`, `hooks` and `mcpServers` files), which arrive with plugin.json itself: read in one
 * more round (`p<k>` aliases, at most LISTED_PER_QUERY per query shared among its repositories),
 * merged into the plugin's contents and the repository's union; a plugin whose listed paths were
 * all read is no longer partial. Hook files go through the hook reader and get their risk notes.
 */
import { MAX_PART_ITEMS, type PluginParts } from "../../catalog/model/plugin-parts-schema";
import { riskNotes } from "../risk/index";
import { blobText } from "../risk/manifest";
import { hookEvents } from "./hook-events";
import { type Gate, type Json, MAX_MANIFEST_BYTES } from "./manifest-gate";
import { mcpJson } from "./mcp";
import { fileName, LISTS, markdownFiles, notReadme, type PluginFolder, under, unique } from "./plugin-folders";
import { pluginNotes, unionNotes } from "./plugin-risk";
import type { ManifestReading } from "./reading";
import { listedSkills, treeEntries } from "./skill-places";

/** Listed folders and files one query reads at most, shared evenly among its repositories. */
export const LISTED_PER_QUERY = 500;

type Kind = "commands" | "agents" | "hooks" | "mcpServers" | "skills";
const KINDS = ["commands", "agents", "hooks", "mcpServers", "skills"] as const;

/** One listed path to read: its plugin folder, its kind and its path from the repository's root. */
export interface ListedAsk {
  folder: PluginFolder;
  kind: Kind;
  path: string;
}

/** The listed paths a reading's plugin folders still need read, in order. */
export function listedAsks(folders: readonly PluginFolder[]): ListedAsk[] {
  return folders.flatMap((folder) => {
    const p = folder.pending;
    if (!p) return [];
    // The root plugin's figure is the repository's (context-files.ts): its listed skills are not asked, and it stays partial.
    return KINDS.filter((kind) => kind !== "skills" || folder.folder !== "").flatMap((kind) =>
      p[kind].map((path) => ({ folder, kind, path: under(folder.folder, path) })),
    );
  });
}

/** The round's fields: a listing for a folder, a blob for a file, `p<k>`. */
export function listedSelection(asks: readonly ListedAsk[]): string {
  return asks
    .map((a, k) => {
      const at = JSON.stringify(`HEAD:${a.path}`);
      if (a.kind === "skills") return `p${k}: object(expression: ${at}) { ... on Tree { ${TWO_LEVELS} } }`;
      return a.kind === "commands" || a.kind === "agents"
        ? `p${k}: object(expression: ${at}) { ... on Tree { entries { name type oid } } }`
        : `p${k}: object(expression: ${at}) { ... on Blob { byteSize isTruncated text } }`;
    })
    .join("\n  ");
}

/** A listed skills folder's entries and theirs: SKILL.md in it, or in its subfolders. */
const TWO_LEVELS = "entries { name type object { ... on Tree { entries { name type } } } }";

const holdsSkill = (tree: unknown) => treeEntries(tree).some((e) => e.name === "SKILL.md" && e.type === "blob");

/**
 * The skills a listed folder's listing holds, as the client reads them (2.1.337): the folder
 * itself when it holds SKILL.md, else each subfolder that does.
 */
function skillsOf(path: string, listing: unknown): Array<{ path: string; direct: boolean }> {
  if (holdsSkill(listing)) return [{ path, direct: true }];
  return listedSkills(listing, path).map((s) => ({ path: s.path, direct: false }));
}

const FILE = { hooks: "plugin.json hooks file", mcpServers: "plugin.json mcpServers file" } as const;

/**
 * Merges the round's answer `node` (null when it failed; its paths `asked`, each `p<k>`) into each
 * pending plugin's contents and the repository's. A plugin some of whose paths were not asked, or
 * whose answer did not come, stays partial.
 */
export function finishListed(
  gate: Gate,
  reading: ManifestReading,
  node: Json | null,
  asked: readonly ListedAsk[],
  id: string,
): void {
  const { details, pluginFolders: folders } = reading;
  const contents = details.contents;
  if (!contents) return;
  const fresh: PluginParts["risk"] = [];
  for (const f of folders) {
    const pending = f.pending;
    const parts = contents.plugins.find((p) => p.name === f.name)?.contents;
    if (!pending || !parts || !f.read) continue;
    const wanted = listedAsks([f]);
    const mine = asked.flatMap((a, k) => (a.folder === f ? [{ a, answer: node?.[`p${k}`] }] : []));
    const rootSkills = f.folder === "" && pending.skills.length > 0;
    let complete = node !== null && mine.length === wanted.length && !pending.rest && !rootSkills;
    const found: Record<Kind, string[]> = { commands: [], agents: [], hooks: [], mcpServers: [], skills: [] };
    const own: NonNullable<PluginParts["risk"]> = [];
    for (const { a, answer } of mine) {
      if (answer === undefined) complete = false;
      else if (answer === null) continue;
      else if (a.kind === "skills") {
        const known = f.read.listedSkills;
        known.push(...skillsOf(a.path, answer).filter((s) => !known.some((t) => t.path === s.path)));
      } else if (a.kind === "commands" || a.kind === "agents") {
        const files = markdownFiles(answer).map((n) => `${a.path}/${n}`);
        f.read[a.kind].push(...files);
        found[a.kind].push(...files.filter(notReadme).map(fileName));
      } else {
        const json = gate.json(gate.text(answer, FILE[a.kind], MAX_MANIFEST_BYTES, id), FILE[a.kind], id);
        if (!json) continue;
        if (a.kind === "mcpServers") found.mcpServers.push(...mcpJson(gate, json, FILE.mcpServers, id));
        else {
          found.hooks.push(...hookEvents(gate, json, FILE.hooks, id));
          const text = blobText(answer);
          // A path past the notes' schema is left unnoted rather than costing the record.
          if (text !== null && a.path.length <= 200) own.push(...riskNotes(a.path, text));
        }
      }
    }
    merge(parts, found);
    if (complete) {
      delete parts.partial;
      f.read.partial = false;
    }
    f.pending = undefined;
    for (const list of LISTS) if (list !== "skills") contents[list] = unique([...contents[list], ...parts[list]]);
    if (own.length > 0) {
      const notes = pluginNotes([...(parts.risk ?? []), ...own], [], f.folder);
      parts.risk = notes;
      fresh.push(...own);
    }
  }
  if (fresh.length > 0) details.risk = unionNotes(details.risk, fresh);
}

/** Adds the names `found` to the plugin's lists (within MAX_PART_ITEMS) and its counts. */
function merge(parts: PluginParts, found: Record<Kind, string[]>): void {
  const lists: Array<[Exclude<(typeof LISTS)[number], "skills">, string[]]> = [
    ["commands", found.commands],
    ["agents", found.agents],
    ["hooks", found.hooks],
    ["mcp_servers", found.mcpServers],
  ];
  for (const [list, names] of lists) {
    const fresh = unique(names).filter((n) => !parts[list].includes(n));
    if (fresh.length === 0) continue;
    const room = MAX_PART_ITEMS - parts[list].length;
    parts[list].push(...fresh.slice(0, Math.max(0, room)));
    parts.counts[list] += fresh.length;
  }
}
