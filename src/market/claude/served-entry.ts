/**
 * What one served entry is fetched from and what it installs beyond that, so that installing it
 * from the catalog installs what the author's entry installs. The source is the repository's https
 * address, which the client clones without credentials: `url` for the repository's root,
 * `git-subdir` with the folder for a plugin in a folder, pinned with `sha` to the commit the
 * refresh read (or to the author's own `ref`/`sha` for a git source naming the repository itself).
 * The author's `strict`, `version` and component lists and paths go with it as the refresh read
 * them (catalog/model/plugin-entry.ts); a root entry whose `skills` list the client would read
 * otherwise from an address is served from the skills folder holding it (`root`), its paths taken
 * relative to that folder. An entry the refresh could not carry over (`unserved`) is not served.
 */
import type { Contents } from "../../catalog/model/details";
import { ENTRY_LISTS, type EntryList, folderPath, gitTarget, type PluginEntry } from "../../catalog/model/plugin-entry";

type Pin = { ref?: string; sha?: string };

/**
 * A source the client clones over https, anonymously. Never `github`, nor a `git-subdir` whose
 * `url` is a bare `owner/repo`: those it clones over SSH (`git@github.com:…`), which fails without a key.
 */
export type Source = ({ source: "url"; url: string } | { source: "git-subdir"; url: string; path: string }) & Pin;

/** The author's fields served with the entry. */
export type Carried = Pick<PluginEntry, "version" | "strict"> & Partial<Record<EntryList, string | string[]>>;

/** The https address the client clones repository `id` from without credentials. */
export const cloneUrl = (id: string) => `https://github.com/${id}.git`;

const SHA = /^[0-9a-f]{40}$/;

const at = (url: string, path: string, pin: Pin): Source =>
  path === "" ? { source: "url", url, ...pin } : { source: "git-subdir", url, path, ...pin };

/** `./skills/xlsx` as a path inside `root` (`skills`): `./xlsx`. */
const under = (root: string) => (path: string) => `./${path.slice(root.length + 3)}`;

/** The author's fields to serve; the paths rebased into `root` when the entry is served from it. */
function carried(entry: PluginEntry | undefined, root: string | null): Carried {
  const out: Carried = {};
  if (entry?.version !== undefined) out.version = entry.version;
  if (entry?.strict !== undefined) out.strict = entry.strict;
  for (const list of ENTRY_LISTS) {
    const value = entry?.[list];
    if (value === undefined) continue;
    out[list] = root === null ? value : typeof value === "string" ? under(root)(value) : value.map(under(root));
  }
  return out;
}

/**
 * Entry `listed` of repository `id`'s marketplace as the catalog serves it, or null for one
 * elsewhere or one it cannot serve the same: its source, the author's fields, and `folder`, the
 * folder of the repository its source names (`""` at the root), which its served name goes by.
 */
export function servedEntry(
  id: string,
  listed: Contents["plugins"][number],
  commit?: string,
): { source: Source; carried: Carried; folder: string } | null {
  const entry = listed.entry;
  if (entry?.unserved !== undefined) return null;
  const pin: Pin = commit !== undefined && SHA.test(commit) ? { sha: commit } : {};
  const url = cloneUrl(id);
  if (listed.source.startsWith(".")) {
    const path = folderPath(listed.source);
    if (path === null) return null;
    const root = path === "" && entry?.root !== undefined ? entry.root : null;
    return { source: at(url, root ?? path, pin), carried: carried(entry, root), folder: path };
  }
  // A git source naming this repository, from a record that read its `ref` and `sha` (always an `entry`).
  const target = entry === undefined ? null : gitTarget(listed.source);
  if (target === null || target.repo.toLowerCase() !== id.toLowerCase()) return null;
  const own: Pin = entry?.sha !== undefined ? { sha: entry.sha } : entry?.ref !== undefined ? {} : pin;
  const ref = entry?.ref !== undefined ? { ref: entry.ref } : {};
  return { source: at(url, target.path, { ...ref, ...own }), carried: carried(entry, null), folder: target.path };
}

/** The served source of an entry with source text `source` (marketplace-sources.ts), or null (servedEntry). */
export function sourceOf(id: string, source: string, commit?: string, entry?: PluginEntry): Source | null {
  return servedEntry(id, { name: "-", source, description: null, ...(entry ? { entry } : {}) }, commit)?.source ?? null;
}
