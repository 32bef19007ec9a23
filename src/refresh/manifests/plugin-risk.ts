/**
 * The risk notes of a marketplace plugin's own folder: its `hooks/hooks.json`, `.mcp.json` and
 * `.claude-plugin/plugin.json` as the follow-up query brought them (the repository root's were
 * noted from the batch already), and the notes of the repository that lie in its folder (its
 * skills' SKILL.md files). The repository keeps the union, within MAX_RISK_NOTES.
 */

import { MAX_PLUGIN_NOTES } from "../../catalog/model/plugin-parts-schema";
import { MAX_RISK_NOTES, type RiskNote } from "../../catalog/model/risk";
import { riskNotes } from "../risk/index";
import { blobText } from "../risk/manifest";
import type { Json } from "./manifest-gate";

/** The root files the batch noted: a root plugin's notes are theirs and its `skills/`. */
const ROOT_FILES = new Set(["hooks/hooks.json", ".mcp.json", ".claude-plugin/plugin.json", "SKILL.md"]);

/** The notes of plugin folder `folder` (the `g<i>` files of the follow-up's answer); none for the root. */
export function folderNotes(node: Json, i: number, folder: string): RiskNote[] {
  if (folder === "") return [];
  const files = [
    [`g${i}h`, "hooks/hooks.json"],
    [`g${i}m`, ".mcp.json"],
    [`g${i}j`, ".claude-plugin/plugin.json"],
  ] as const;
  return files.flatMap(([alias, file]) => {
    const text = blobText(node[alias]);
    const path = `${folder}/${file}`;
    // A path past the notes' schema is left unnoted rather than costing the record.
    return text === null || path.length > 200 ? [] : riskNotes(path, text);
  });
}

/** Whether a note of the repository lies in plugin folder `folder`. */
const inFolder = (note: RiskNote, folder: string) =>
  folder === "" ? ROOT_FILES.has(note.file) || note.file.startsWith("skills/") : note.file.startsWith(`${folder}/`);

/** The repository's notes with `fresh` added (within MAX_RISK_NOTES). */
export function unionNotes(notes: RiskNote[] | undefined, fresh: RiskNote[]): RiskNote[] {
  return [...(notes ?? []), ...fresh].slice(0, MAX_RISK_NOTES);
}

/** One plugin's own notes: those of its folder's files, then the repository's in its folder, at most MAX_PLUGIN_NOTES. */
export function pluginNotes(own: RiskNote[], repository: RiskNote[] | undefined, folder: string): RiskNote[] {
  const seen = new Set<string>();
  const key = (n: RiskNote) => `${n.file}:${n.line}:${n.rule}`;
  return [...own, ...(repository ?? []).filter((n) => inFolder(n, folder))]
    .filter((n) => !seen.has(key(n)) && Boolean(seen.add(key(n))))
    .slice(0, MAX_PLUGIN_NOTES);
}
