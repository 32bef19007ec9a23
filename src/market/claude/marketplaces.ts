/**
 * Claude Code marketplaces served by the catalog, written once per snapshot: one of every Claude
 * Code plugin the catalog lists (originals only: no forks, look-alikes or archived repositories),
 * one per category, one of the editors' picks. An entry is a plugin a listed repository's
 * marketplace.json names inside that repository, cloned over https without credentials: `url` for
 * one at the repository's root, `git-subdir` with its path for one in a folder, with what the
 * author's entry installs beyond its source (served-entry.ts), so it installs the same. Names are the
 * client's to accept (served-names.ts): a plugin keeps its own name unless another served plugin
 * has it, then the owner (and, if need be, the repository) is appended, the same in every
 * marketplace of the snapshot; a name the client refuses is left out.
 */
import { measuredTokens } from "../../catalog/model/context-cost";
import { ENTRY_LISTS } from "../../catalog/model/plugin-entry";
import type { PluginCatalogView } from "../../catalog/model/wire";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import { pluginPath } from "../../http/paths";
import { type Carried, type Source, servedEntry } from "./served-entry";
import { servedNames } from "./served-names";

export { cloneUrl, sourceOf } from "./served-entry";

/** The marketplaces' names: none reserved or read as an official one by Claude Code. */
export const MARKETPLACE_NAME = "plugin-catalog";
export const PICKS = "picks";

const ROWS_PER_READ = 50;
/** The plugins that may hold entries: listed originals that work with Claude Code, not archived. */
const CLAUDE_PLUGINS = { harness: "claude-code", original: true, archived: false };

interface Served extends Carried {
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
  /** The folder of the repository the author's entry names (`""`: its root), which names it. */
  path: string;
}

/** The entries of one listed plugin's marketplace, before their names are made unique. */
function entriesOf(plugin: PluginCatalogView, baseUrl: string): Served[] {
  const out: Served[] = [];
  for (const entry of plugin.contents?.plugins ?? []) {
    const served = servedEntry(plugin.id, entry, plugin.contents?.commit);
    if (served === null) continue;
    const { source, carried, folder: path } = served;
    const description = entry.description || plugin.description;
    // The root plugin's measured cost is the entry's only when the entry loads the root as it is.
    const commit = plugin.contents?.commit;
    const own =
      ENTRY_LISTS.some((k) => carried[k] !== undefined) ||
      carried.strict === false ||
      source.ref !== undefined ||
      (source.sha !== undefined && source.sha !== commit);
    const tokens = source.source === "url" && !own ? measuredTokens(plugin.context) : null;
    out.push({
      name: entry.name,
      source,
      ...(description ? { description } : {}),
      ...carried,
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
