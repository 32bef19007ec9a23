/**
 * Repository ids out of the documents that list plugins: a curated list's Markdown (its links to
 * `github.com/owner/repo`) and a plugin marketplace manifest (`.claude-plugin/marketplace.json`,
 * whose plugins name an `owner/repo` source or a repository URL when they live elsewhere).
 * Every id passes the gate; a document not parseable lists nothing. The caller bounds the text
 * (a listing's byte cap, source-caps.ts).
 */
import type { UpstreamGate } from "../upstream/gate";

/** `github.com/<first>/…` paths that are pages of the platform, not repositories. */
const NOT_OWNERS = new Set([
  "about",
  "apps",
  "collections",
  "features",
  "login",
  "marketplace",
  "orgs",
  "settings",
  "site",
  "sponsors",
  "topics",
  "user-attachments",
  "users",
]);
const LINK = /https?:\/\/(?:www\.)?github\.com\/([^/\s)\]"'<>#?]+)\/([^/\s)\]"'<>#?]+)/gi;

function repoFromUrl(url: string): [string, string] | null {
  const match = /^(?:git\+)?https?:\/\/(?:www\.)?github\.com\/([^/\s#?]+)\/([^/\s#?]+)/i.exec(url.trim());
  return match ? [match[1]!, match[2]!] : null;
}

function idOf(owner: string, name: string): string {
  return `${owner}/${name.replace(/\.git$/i, "")}`;
}

/** The repositories a curated list links to, each once, in order. */
export function listedInMarkdown(text: string, gate: UpstreamGate, where: string): string[] {
  const ids = new Map<string, string>();
  for (const [, owner, name] of text.matchAll(LINK)) {
    if (NOT_OWNERS.has(owner!.toLowerCase())) continue;
    const id = gate.id(idOf(owner!, name!), where);
    if (id && !ids.has(id.toLowerCase())) ids.set(id.toLowerCase(), id);
  }
  return [...ids.values()];
}

/** The other repositories a marketplace manifest lists (local `./path` sources live in the marketplace itself). */
export function listedInManifest(text: string, gate: UpstreamGate, where: string): string[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return [];
  }
  const plugins = (manifest as { plugins?: unknown } | null)?.plugins;
  if (!Array.isArray(plugins)) return [];
  const ids = new Map<string, string>();
  for (const plugin of plugins) {
    const source = (plugin as { source?: unknown } | null)?.source;
    let candidate: string | null = null;
    if (source && typeof source === "object") {
      const { repo, url } = source as { repo?: unknown; url?: unknown };
      if (typeof repo === "string") candidate = repo.replace(/\.git$/i, "");
      else if (typeof url === "string") candidate = repoFromUrl(url) ? idOf(...repoFromUrl(url)!) : null;
    } else if (typeof source === "string" && repoFromUrl(source)) {
      candidate = idOf(...repoFromUrl(source)!);
    }
    if (candidate === null) continue;
    const id = gate.id(candidate, where);
    if (id && !ids.has(id.toLowerCase())) ids.set(id.toLowerCase(), id);
  }
  return [...ids.values()];
}
