/**
 * The risk notes of the files the manifest reader already has: hooks/hooks.json, `.mcp.json`,
 * server.json, the plugin manifest (its hooks and servers) and a root SKILL.md, from the same
 * GraphQL node; the skills' SKILL.md files are added as the follow-up query reads them.
 */
import { MAX_RISK_NOTES, type RiskNote } from "../../catalog/model/risk";
import { riskNotes } from "./index";

/** The files read for notes, by the reader's GraphQL aliases (reader.ts MANIFEST_FILES). */
const READ = {
  m_hooks: "hooks/hooks.json",
  m_mcp: ".mcp.json",
  m_server: "server.json",
  m_plugin: ".claude-plugin/plugin.json",
  m_skill: "SKILL.md",
} as const;
/** Bytes of one file read, as the reader's MAX_BYTES. */
const MAX_BYTES = 256 * 1024;

/** A blob's text when it is whole and within the manifest cap, else null. */
export function blobText(blob: unknown): string | null {
  if (typeof blob !== "object" || blob === null) return null;
  const b = blob as { isTruncated?: unknown; byteSize?: unknown; text?: unknown };
  if (b.isTruncated === true || typeof b.text !== "string") return null;
  if ((typeof b.byteSize === "number" && b.byteSize > MAX_BYTES) || b.text.length > MAX_BYTES) return null;
  return b.text;
}

/** `{risk}` with the batch node's notes (at most MAX_RISK_NOTES), or nothing when there are none: the member stays absent. */
export function manifestRisk(node: Record<string, unknown>): { risk?: RiskNote[] } {
  const notes: RiskNote[] = [];
  for (const [alias, file] of Object.entries(READ)) {
    const text = blobText(node[alias]);
    if (text !== null) notes.push(...riskNotes(file, text));
  }
  return notes.length ? { risk: notes.slice(0, MAX_RISK_NOTES) } : {};
}

/** `{risk}`: `notes` with a SKILL.md's notes added (within MAX_RISK_NOTES), or nothing when there are none. */
export function withSkillRisk(notes: RiskNote[] | undefined, file: string, blob: unknown): { risk?: RiskNote[] } {
  const text = blobText(blob);
  const all = [...(notes ?? []), ...(text === null ? [] : riskNotes(file, text))].slice(0, MAX_RISK_NOTES);
  return all.length ? { risk: all } : {};
}
