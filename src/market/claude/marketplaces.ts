/**
 * Claude Code marketplaces served by the catalog, written once per snapshot: one of every Claude
 * Code plugin the catalog lists (originals only: no forks, look-alikes or archived repositories),
 * one per category, one of the editors' picks. An entry is a plugin a listed repository's
 * marketplace.json names inside that repository, cloned over https without credentials: `url` for
 * one at the repository's root, `git-subdir` with its path for one in a folder. Names are the
 * client's to accept (served-names.ts): a plugin keeps its own name unless another served plugin
 * has it, then the owner (and, if need be, the repository) is appended, the same in every
 * marketplace of the snapshot; a name the client refuses is left out.
 */
import { measuredTokens } from "../../catalog/model/context-cost";
import type { PluginCatalogView } from "../../catalog/model/wire";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import { pluginPath } from "../../http/paths";
import { servedNames } from "./served-names";

/** The marketplaces' names: none reserved or read as an official one by Claude Code. */
export const MARKETPLACE_NAME = "plugin-catalog";
export const PICKS = "picks";

const ROWS_PER_READ = 50;
/** The plugins that may hold entries: listed originals that work with Claude Code, not archived. */
const CLAUDE_PLUGINS = { harness: "claude-code", original: true, archived: false };

/**
 * A source the client clones over https, anonymously. Never `github`, nor a `git-subdir` whose
 * `url` is a bare `owner/repo`: those it clones over SSH (`git@github.com:…`), which fails without a key.
 */
type Source =
  | { source: "url"; url: string; sha?: string }
  | { source: "git-subdir"; url: string; path: string; sha?: string };

interface Served {
  name: string;
  source: Source;
  description?: string;
  category: string;
  /** `context-<N>-tokens`: the root plugin's measured always-on context cost (tags are the field the client keeps quietly). */
  tags?: string[];
  homepage: string;
  repository: string;
  /** Not served: what picks the marketplaces an entry is in, and what names it. */
  categories: readonly string[];
  curated: boolean;
  id: string;
  path: string;
}

/** The https address the client clones repository `id` from without credentials. */
export const cloneUrl = (id: string) => `https://github.com/${id}.git`;

/**
 * A marketplace.json source for a plugin inside repository `id`, or null for one elsewhere; pinned
 * with `sha` to `commit`, the commit its manifest was read at, when the refresh knew it.
 */
export function sourceOf(id: string, source: string, commit?: string): Source | null {
  if (!source.startsWith(".")) return null;
  const path = source.replace(/^\.\/?/, "").replace(/\/+$/, "");
  if (path.split("/").some((part) => part === ".." || part === ".")) return null;
  const sha = commit !== undefined && /^[0-9a-f]{40}$/.test(commit) ? { sha: commit } : {};
  const url = cloneUrl(id);
  return path === "" ? { source: "url", url, ...sha } : { source: "git-subdir", url, path, ...sha };
}

/** The entries of one listed plugin's marketplace, before their names are made unique. */
function entriesOf(plugin: PluginCatalogView, baseUrl: string): Served[] {
  const out: Served[] = [];
  for (const entry of plugin.contents?.plugins ?? []) {
    const source = sourceOf(plugin.id, entry.source, plugin.contents?.commit);
    if (source === null) continue;
    const path = source.source === "git-subdir" ? source.path : "";
    const description = entry.description || plugin.description;
    const tokens = path === "" ? measuredTokens(plugin.context) : null;
    out.push({
      name: entry.name,
      source,
      ...(description ? { description } : {}),
      category: plugin.category,
      ...(tokens === null ? {} : { tags: [`context-${tokens}-tokens`] }),
      homepage: `${baseUrl}${pluginPath(plugin.id)}`,
      repository: plugin.url,
      categories: plugin.categories,
      curated: plugin.curated,
      id: plugin.id,
      path,
    });
  }
  return out;
}

/** The entries served, under their served names: those the client accepts, unique in the snapshot. */
function named(entries: Served[]): Served[] {
  const names = servedNames(entries);
  return entries.flatMap((e, i) => (names[i] === null ? [] : [{ ...e, name: names[i]! }]));
}

/** The marketplaces of one snapshot, as JSON text by key (`all`, a category id, `picks`). */
export class ClaudeMarketplaces {
  private constructor(
    private readonly documents: ReadonlyMap<string, string>,
    /** The served names of each repository's entries, by lowercased id. */
    private readonly names: ReadonlyMap<string, readonly string[]>,
  ) {}

  static *writing(snapshot: Snapshot, baseUrl: string): Generator<void, ClaudeMarketplaces> {
    const entries: Served[] = [];
    for (let offset = 0; ; offset += ROWS_PER_READ) {
      if (snapshot.closed) throw new Error("the snapshot closed while its marketplaces were written");
      const rows = snapshot.catalogRowsOf(CLAUDE_PLUGINS, offset, ROWS_PER_READ);
      for (const row of rows) {
        if (row.json.includes('"plugins":[]')) continue;
        entries.push(...entriesOf(JSON.parse(row.json) as PluginCatalogView, baseUrl));
      }
      if (rows.length < ROWS_PER_READ) break;
      yield;
    }
    const served = named(entries);
    const owner = { name: "Plugin Catalog", url: baseUrl };
    const document = (suffix: string | null, about: string, chosen: Served[]) =>
      JSON.stringify({
        name: suffix === null ? MARKETPLACE_NAME : `${MARKETPLACE_NAME}-${suffix}`,
        owner,
        description: about,
        plugins: chosen.map(({ categories: _, curated: __, id: ___, path: ____, ...entry }) => entry),
      });
    const documents = new Map<string, string>();
    documents.set("all", document(null, "Every Claude Code plugin the Plugin Catalog lists (originals).", served));
    const picks = served.filter((e) => e.curated);
    documents.set(PICKS, document(PICKS, "The Plugin Catalog editors' picks of Claude Code plugins.", picks));
    for (const category of snapshot.categories) {
      const chosen = served.filter((e) => e.categories.includes(category.id));
      documents.set(category.id, document(category.id, `Claude Code plugins of ${category.name}.`, chosen));
    }
    const names = new Map<string, string[]>();
    for (const e of served) names.set(e.id.toLowerCase(), [...(names.get(e.id.toLowerCase()) ?? []), e.name]);
    return new ClaudeMarketplaces(documents, names);
  }

  /** The names the entries of repository `id` are served under (in every marketplace), none when it has none. */
  served(id: string): readonly string[] {
    return this.names.get(id.toLowerCase()) ?? [];
  }

  /** The marketplace of `key`, or null for a category the snapshot has not. */
  get(key: string): string | null {
    return this.documents.get(key) ?? null;
  }
}
