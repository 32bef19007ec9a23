/**
 * What the refresh's GraphQL batch asks of each repository for its manifests: root files by alias
 * (`m_plugin`, `m_server`, …), folders' entry lists, and the follow-up query's SKILL.md files.
 */

import { DEFAULT_OWNER_FILE } from "../../settings";
import { listSelection, pluginTreeSelection, rootSelection } from "./skill-places";

/** Root files read, by GraphQL alias. */
export const MANIFEST_FILES = {
  plugin: ".claude-plugin/plugin.json",
  marketplace: ".claude-plugin/marketplace.json",
  server: "server.json",
  package: "package.json",
  pyproject: "pyproject.toml",
  requirements: "requirements.txt",
  gomod: "go.mod",
  cargo: "Cargo.toml",
  skill: "SKILL.md",
  hooks: "hooks/hooks.json",
  mcp: ".mcp.json",
  gemini: "gemini-extension.json",
  codexPlugin: ".codex-plugin/plugin.json",
  codexMarketplace: ".agents/plugins/marketplace.json",
  cursorPlugin: ".cursor-plugin/plugin.json",
  cursorMarketplace: ".cursor-plugin/marketplace.json",
} as const;
export type FileKey = keyof typeof MANIFEST_FILES;

/** Folders whose entries are listed (with each entry's object id: a skill folder's tree id), by GraphQL alias. */
export const MANIFEST_TREES = {
  commands: "commands",
  agents: "agents",
  skills: "skills",
  hooksDir: "hooks",
  claudeCommands: ".claude/commands",
  claudeAgents: ".claude/agents",
  agentsSkills: ".agents/skills",
  claudeSkills: ".claude/skills",
} as const;
export type TreeKey = keyof typeof MANIFEST_TREES;

export const alias = (key: string) => `m_${key}`;

/** The GraphQL alias of the owner file, whose path OWNER_FILE sets (owner-file.ts). */
export const OWNER_ALIAS = "m_owner";

/**
 * The selection each repository field adds to the batch query: facts for flags (the owner's
 * verified domain among them), files, folders, and the owner file at `ownerFile`.
 */
export function manifestSelection(ownerFile = DEFAULT_OWNER_FILE): string {
  const at = (path: string) => `object(expression: ${JSON.stringify(`HEAD:${path}`)})`;
  const blobs = Object.entries(MANIFEST_FILES).map(
    ([key, path]) => `${alias(key)}: ${at(path)} { ... on Blob { byteSize isTruncated text } }`,
  );
  const trees = Object.entries(MANIFEST_TREES).map(
    ([key, path]) => `${alias(key)}: ${at(path)} { ... on Tree { entries { name type oid } } }`,
  );
  const owner = `${OWNER_ALIAS}: ${at(ownerFile)} { ... on Blob { byteSize isTruncated text } }`;
  const flags = "isFork parent { nameWithOwner } latestRelease { tagName publishedAt }";
  const verified = "owner { ... on Organization { isVerified } }";
  return [
    flags,
    verified,
    ...blobs,
    owner,
    ...trees,
    pluginTreeSelection(alias("pluginsDir")),
    rootSelection(alias("root")),
  ].join("\n  ");
}

/**
 * The GraphQL fields of one follow-up repository: the SKILL.md of each skill folder (`k<i>`, by
 * its path from the root), and the listing of each plugin `skills/` folder the batch did not list (`l<i>`).
 */
export function skillSelection(dirs: readonly string[], lists: readonly string[] = []): string {
  const reads = dirs.map(
    (dir, i) =>
      `k${i}: object(expression: ${JSON.stringify(`HEAD:${dir}/SKILL.md`)}) { ... on Blob { byteSize isTruncated text } }`,
  );
  return [...reads, ...lists.map((path, i) => listSelection(`l${i}`, path))].join("\n  ");
}

/**
 * A query or selection built to read at HEAD (every `object(expression: "HEAD:…")` of it) made to
 * read at `commit` instead: the platform serves files by commit. `commit` is 40 lowercase hex.
 */
export function atCommit(query: string, commit: string): string {
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`not a commit: ${commit}`);
  return query.replaceAll('expression: "HEAD:', `expression: "${commit}:`);
}
