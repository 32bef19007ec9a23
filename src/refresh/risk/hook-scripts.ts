/**
 * The hook scripts a hooks.json names: commands that run `${CLAUDE_PLUGIN_ROOT}/<path>` are read
 * in the batch's follow-up query (beside the skills' SKILL.md) and noted like any file read. Only
 * paths inside the repository, of script kinds, at most MAX_HOOK_SCRIPTS per repository.
 */
import { MAX_RISK_NOTES, type RiskNote } from "../../catalog/model/risk";
import { riskNotes } from "./index";
import { blobText } from "./manifest";

export const MAX_HOOK_SCRIPTS = 5;
const SCRIPT = /\$\{?CLAUDE_PLUGIN_ROOT\}?\/([A-Za-z0-9._/-]{1,200})/g;
const KINDS = /\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl)$/;

/** Repository paths of the scripts the batch node's hooks.json names, in order, without repeats. */
export function hookScripts(node: Record<string, unknown>): string[] {
  const text = blobText(node.m_hooks);
  if (text === null) return [];
  const paths: string[] = [];
  for (const m of text.matchAll(SCRIPT)) {
    const path = m[1]!.replace(/^\.\//, "");
    if (path.split("/").some((p) => p === ".." || p === "." || p === "") || !KINDS.test(path)) continue;
    if (!paths.includes(path)) paths.push(path);
    if (paths.length >= MAX_HOOK_SCRIPTS) break;
  }
  return paths;
}

/** The GraphQL fields that read `paths` (aliases `h0`, `h1`, …). */
export function scriptSelection(paths: readonly string[]): string {
  return paths
    .map(
      (path, i) =>
        `h${i}: object(expression: ${JSON.stringify(`HEAD:${path}`)}) { ... on Blob { byteSize isTruncated text } }`,
    )
    .join("\n  ");
}

/** `notes` with the notes of the scripts the follow-up node brought, within MAX_RISK_NOTES. */
export function withScriptRisk(
  notes: RiskNote[] | undefined,
  paths: readonly string[],
  node: Record<string, unknown> | null | undefined,
): { risk?: RiskNote[] } {
  const all = [...(notes ?? [])];
  paths.forEach((path, i) => {
    const text = blobText(node?.[`h${i}`]);
    if (text !== null) all.push(...riskNotes(path, text));
  });
  return all.length ? { risk: all.slice(0, MAX_RISK_NOTES) } : {};
}
