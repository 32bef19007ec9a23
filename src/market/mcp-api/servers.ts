/**
 * The MCP registry API's entries of one snapshot, written once in slices of the event loop: each
 * entry's JSON, the entries by name, by update time, by version, and a plugin id's entry. A page is
 * then a binary search and a slice of one of those orders. `search` (the registry's: a substring
 * of the name, case aside) is one pass over the entries' names, `q` (the catalog's word search)
 * one question to the catalog's search engine, each once per snapshot and text (see `named` and
 * `searched`).
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { McpRegistrySchema } from "../../catalog/model/mcp-identity";
import { type McpRegistryDetails, McpRegistryDetailsSchema } from "../../catalog/model/registry-inputs";
import type { PluginCatalogView } from "../../catalog/model/wire";
import type { CatalogSlice, Snapshot } from "../../catalog/snapshot/snapshot";
import { type Entry, type EntryContext, operatorNamespace, registryEntry } from "./server-entry";

/** Servers read per step: a step stays near one slice of the event loop. */
const ROWS_PER_READ = 50;
/** The plugins that may be entries: those with an install instruction for MCP clients. */
const MCP_SERVERS = { has: ["install"], harness: "mcp" };
/** Matches of one search kept at most: a search is for finding a server, not for listing the catalog. */
export const MAX_SEARCH_MATCHES = 5000;
/** Searches remembered per snapshot, of each kind. */
const REMEMBERED_SEARCHES = 256;
const checkDetails = TypeCompiler.Compile(McpRegistryDetailsSchema);
const checkIdentity = TypeCompiler.Compile(McpRegistrySchema);

/** The entries in one order: positions into `entries`, ascending by the order's key. */
export interface Order {
  positions: Int32Array;
  /** The key of an entry's position in this order. */
  key: (position: number) => number;
}

export class RegistryServers {
  private readonly searches = new Map<string, Int32Array>();
  private readonly substrings = new Map<string, Int32Array>();
  /** Each entry's name in lower case, by position. */
  private readonly lowerNames: readonly string[];

  private constructor(
    readonly snapshotAt: string,
    /** Every entry, by name (case aside). */
    readonly entries: readonly Entry[],
    private readonly byName: ReadonlyMap<string, number>,
    private readonly byId: ReadonlyMap<string, number>,
    /** Each entry's rank in the order of update time, then name. */
    private readonly updatedRank: Int32Array,
    /** Positions by update time, then name. */
    private readonly byUpdated: Int32Array,
    private readonly byVersion: ReadonlyMap<string, Int32Array>,
    private readonly search: (text: string) => string[],
  ) {
    this.lowerNames = entries.map((e) => e.name.toLowerCase());
  }

  /** The writing of the entries of `snapshot`, pausing after each read of rows. */
  static *writing(snapshot: Snapshot, baseUrl: string): Generator<void, RegistryServers> {
    const identities = snapshot.mcpRegistry();
    const context = entryContext(baseUrl);
    const found: Entry[] = [];
    for (let offset = 0; ; offset += ROWS_PER_READ) {
      if (snapshot.closed) throw new Error("the snapshot closed while its registry entries were written");
      const rows = snapshot.catalogRowsOf(MCP_SERVERS, offset, ROWS_PER_READ);
      for (const row of rows) {
        const entry = rowEntry(row, identities, context);
        if (entry !== null) found.push(entry);
      }
      if (rows.length < ROWS_PER_READ) break;
      yield;
    }
    const keyed = found.map((entry) => ({ entry, key: entry.name.toLowerCase() }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const entries = keyed.map((k) => k.entry);
    const byName = new Map(keyed.map((k, i) => [k.key, i]));
    const byId = new Map(entries.map((e, i) => [e.id.toLowerCase(), i]));
    const byUpdated = Int32Array.from(entries.keys()).sort((a, b) => {
      const x = entries[a]!.updatedAt;
      const y = entries[b]!.updatedAt;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    const updatedRank = new Int32Array(entries.length);
    byUpdated.forEach((position, rank) => {
      updatedRank[position] = rank;
    });
    const versions = new Map<string, number[]>();
    entries.forEach((e, i) => {
      const list = versions.get(e.version);
      if (list === undefined) versions.set(e.version, [i]);
      else list.push(i);
    });
    const byVersion = new Map([...versions].map(([v, list]) => [v, Int32Array.from(list)]));
    const search = (text: string) => snapshot.mcpSearch(text, MAX_SEARCH_MATCHES);
    return new RegistryServers(snapshot.snapshotAt, entries, byName, byId, updatedRank, byUpdated, byVersion, search);
  }

  /** The entry named `name` (case aside), or null. */
  withName(name: string): Entry | null {
    const position = this.byName.get(name.toLowerCase());
    return position === undefined ? null : this.entries[position]!;
  }

  /** The entry of the plugin `id`, or null. */
  ofPlugin(id: string): Entry | null {
    const position = this.byId.get(id.toLowerCase());
    return position === undefined ? null : this.entries[position]!;
  }

  /** The position of an entry by name, or -1. */
  position(name: string): number {
    return this.byName.get(name.toLowerCase()) ?? -1;
  }

  private all: Int32Array | null = null;

  /** Positions in name order. */
  byNameOrder(): Order {
    this.all ??= Int32Array.from(this.entries.keys());
    return { positions: this.all, key: (p) => p };
  }

  /** Positions updated after `since` (an ISO time), by update time then name. */
  updatedAfter(since: string): Order {
    let low = 0;
    let high = this.byUpdated.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.entries[this.byUpdated[mid]!]!.updatedAt <= since) low = mid + 1;
      else high = mid;
    }
    return { positions: this.byUpdated.subarray(low), key: (p) => this.updatedRank[p]! };
  }

  /** Positions of one version, by name. */
  ofVersion(version: string): Int32Array {
    return this.byVersion.get(version) ?? new Int32Array(0);
  }

  /** Positions whose name holds `text`, case aside (the registry's `search`), by name; one pass per text. */
  named(text: string): Int32Array {
    const lower = text.toLowerCase();
    const known = this.substrings.get(lower);
    if (known !== undefined) return known;
    const found: number[] = [];
    this.lowerNames.forEach((name, position) => {
      if (name.includes(lower)) found.push(position);
    });
    const positions = Int32Array.from(found);
    if (this.substrings.size >= REMEMBERED_SEARCHES) this.substrings.clear();
    this.substrings.set(lower, positions);
    return positions;
  }

  /** Positions the catalog's word search finds (`q`), by name; asked of the search engine once per text. */
  searched(text: string): Int32Array {
    const known = this.searches.get(text);
    if (known !== undefined) return known;
    const positions = new Set<number>();
    for (const id of this.search(text)) {
      const position = this.byId.get(id.toLowerCase());
      if (position !== undefined) positions.add(position);
    }
    const found = Int32Array.from(positions).sort();
    if (this.searches.size >= REMEMBERED_SEARCHES) this.searches.clear();
    this.searches.set(text, found);
    return found;
  }
}

/** The first entry among the first rows of `snapshot` (an example), or null. */
export function firstEntry(snapshot: Snapshot, baseUrl: string): Entry | null {
  const context = entryContext(baseUrl);
  const identities = snapshot.mcpRegistry();
  for (const row of snapshot.catalogRowsOf(MCP_SERVERS, 0, EXAMPLE_ROWS)) {
    const entry = rowEntry(row, identities, context);
    if (entry !== null) return entry;
  }
  return null;
}

function entryContext(baseUrl: string): EntryContext {
  const namespace = operatorNamespace(baseUrl);
  return { baseUrl, namespace, metaKey: `${namespace}/catalog`, taken: new Set() };
}

/** A row's entry; only a plugin with an install instruction for MCP clients can be one. */
function rowEntry(row: CatalogSlice, identities: Map<string, McpRegistryDetails>, context: EntryContext): Entry | null {
  if (!row.json.includes('"harness":"mcp"')) return null;
  const plugin = JSON.parse(row.json) as PluginCatalogView;
  const updatedAt = new Date(row.changedAt).toISOString();
  return registryEntry(plugin, trusted(identities.get(plugin.id.toLowerCase())), updatedAt, context);
}

/** A stored identity as far as the stored schema holds: all of it, its name and version alone, or none. */
function trusted(identity: McpRegistryDetails | undefined): McpRegistryDetails | null {
  if (identity === undefined) return null;
  const stored: unknown = identity;
  if (checkDetails.Check(stored)) return stored;
  const bare = { name: identity.name, version: identity.version };
  return checkIdentity.Check(bare) ? bare : null;
}

/** Installable MCP servers an example is looked for among. */
const EXAMPLE_ROWS = 100;
