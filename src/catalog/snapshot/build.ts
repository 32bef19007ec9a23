/**
 * Builds a complete snapshot file from plugin records: rows, FTS index, precomputed orders, metadata.
 * The file is written at a new path and never modified afterwards; publishing is the caller's rename.
 */
import type { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, openSync } from "node:fs";
import { contextMaxValues } from "../model/context-cost";
import { hasKinds } from "../model/details";
import type { DetailFragments } from "../model/fragments";
import { MAX_TOOL_INDEX_CHARS } from "../model/remote";
import { advisoryFilters } from "../model/security";
import {
  ACTIVE_MEMBERS,
  type DetailFilter,
  detailMemberKey,
  indexText,
  memberKey,
  ORIGINALS,
  POPULARITY,
  tagToken,
} from "../model/snapshot-schema";
import { isoMillis } from "../model/time";
import type { PluginRecord, SnapshotHistory, SnapshotInput, SnapshotStats } from "../model/types";
import { fragmentsOf, fullView, shortView } from "../model/views";
import { type FtsRow, openForBuild, writeIndex } from "../search/fts-index";
import { COMPARATORS, heat, orderKey, type Ranked, type Sort, sortAll } from "../search/orders";
import { popularity } from "../search/ranking";
import { type Synonyms, searchText, synonymsOf } from "../search/search-text";
import { SuggestIndex } from "../search/typeahead";
import { statsOf, writeCandidates, writeHistory, writeMeta, writeUpdates } from "./build-meta";

/** A plugin while it is being built: its sort keys, rowid (stars position) and distinct categories. */
interface Entry extends Ranked {
  rowid: number;
  snapshotAt: string;
  categories: string[];
  /** Member keys of the `has=`, `harness=` and `original=` filters this plugin answers to. */
  detailKeys: string[];
  /**
   * The plugin it is a fork, look-alike or (its owner says) copy of, when that one is in the
   * catalog: it ranks below it (see ORIGINALS).
   */
  original: Entry | null;
}

/**
 * The detail filters of a record: its `has=` kinds, `works_with` harnesses, whether it is an
 * original, its risk notes' rules (`none` without any), and whether its pinned packages have advisories.
 */
function detailFilters(record: PluginRecord): Array<[DetailFilter, string]> {
  const filters: Array<[DetailFilter, string]> = hasKinds(record.details ?? null).map((k) => ["has", k]);
  for (const h of record.details?.works_with ?? []) filters.push(["harness", h]);
  if (!record.details?.fork_of && !record.lookalike_of && !record.details?.canonical) filters.push(["original", ""]);
  if (record.details?.owner_verified) filters.push(["verified", ""]);
  const rules = new Set((record.details?.risk ?? []).map((n) => n.rule));
  if (rules.size === 0) filters.push(["risk", "none"]);
  for (const rule of rules) filters.push(["risk", rule]);
  for (const value of advisoryFilters(record.details?.security)) filters.push(["advisories", value]);
  for (const max of contextMaxValues(record.details?.context)) filters.push(["context", String(max)]);
  return filters;
}

/** Rowids in order, packed as the Int32 blob the snapshot reads back (decodeInt32, orders.ts). */
function packRowids(list: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Int32Array.from(list).buffer);
}

const categoryTags = new Map<string, string>();

/** The filter tokens of a plugin in the FTS `tags` column. */
function tags(entry: Entry): string {
  const tokens = entry.categories.map((c) => categoryTags.get(c) ?? categoryTags.set(c, tagToken("cat", c)).get(c)!);
  if (entry.record.curated) tokens.push(tagToken("curated"));
  if (!entry.record.archived) tokens.push(tagToken("active"));
  for (const [kind, value] of detailFilters(entry.record)) tokens.push(tagToken(kind, value));
  return tokens.join(" ");
}

/**
 * The words of a plugin's tool names as the index reads them: each word once, in the order
 * listed, up to MAX_TOOL_INDEX_CHARS, so a hundred long or repeated names weigh no more in a
 * search than a description could.
 */
function toolWords(names: string[]): string {
  const kept = new Set<string>();
  let length = 0;
  for (const word of names.join(" ").split(" ")) {
    if (word === "" || kept.has(word)) continue;
    if (length + word.length + 1 > MAX_TOOL_INDEX_CHARS) break;
    kept.add(word);
    length += word.length + 1;
  }
  return [...kept].join(" ");
}

/** The rows of the full-text index, in stars order; `categoryNames` by id, English and Chinese. */
function ftsRows(byStars: Entry[], categoryNames: ReadonlyMap<string, string>, synonyms: Synonyms): FtsRow[] {
  // Name separators become spaces so `mcp-ser` finds `mcp-server` as a phrase of tokens.
  const words = (text: string) => indexText(searchText(text.replace(/[-_.]+/g, " "), synonyms));
  return byStars.map((entry) => {
    const r = entry.record;
    const description = [r.description, r.description_zh ?? ""].join(" ");
    const categories = entry.categories.map((id) => categoryNames.get(id) ?? id).join(" ");
    // The tools a remote server lists are found like words of its description, within a description's cap.
    const tools = toolWords((r.details?.tools ?? []).map((t) => words(t.name)));
    return [
      entry.rowid,
      words(r.name),
      words(r.id.replace("/", " ")),
      indexText(searchText(r.topics.join(" "), synonyms)),
      `${indexText(searchText(description, synonyms))}${tools ? ` ${tools}` : ""}`,
      indexText(searchText(categories, synonyms)),
      tags(entry),
    ];
  });
}

/** The full and short JSON of each plugin, serialized once per snapshot. */
function views(byStars: Entry[]): Array<[string, string, DetailFragments]> {
  return byStars.map((entry) => [
    JSON.stringify(fullView(entry.record)),
    JSON.stringify(shortView(entry.record)),
    fragmentsOf(entry.record),
  ]);
}

function insertPlugins(
  db: Database,
  byStars: Entry[],
  json: Array<[string, string, DetailFragments]>,
  history: SnapshotHistory,
): void {
  // One placeholder per column of the table as snapshot-schema.ts creates it.
  const columns = db.query<{ n: number }, []>(`SELECT count(*) AS n FROM pragma_table_info('plugins')`).get()!.n;
  const insert = db.prepare(`INSERT INTO plugins VALUES (${Array(columns).fill("?").join(",")})`);
  const alias = db.prepare(`INSERT OR IGNORE INTO aliases (old_id, id) VALUES (?, ?)`);
  const current = new Set(byStars.map((entry) => entry.record.id.toLowerCase()));
  byStars.forEach((entry, i) => {
    const r = entry.record;
    const changedAt = history.changedAt.get(r.id.toLowerCase()) ?? entry.snapshotAt;
    for (const old of r.previous_ids) if (!current.has(old.toLowerCase())) alias.run(old, r.id);
    insert.run(
      entry.rowid,
      r.id,
      r.name,
      r.url,
      r.homepage,
      r.description,
      r.description_zh,
      r.category,
      JSON.stringify(r.categories),
      r.stars,
      r.forks,
      r.language,
      r.license,
      r.archived ? 1 : 0,
      r.created_at,
      r.pushed_at,
      JSON.stringify(r.topics),
      r.curated ? 1 : 0,
      r.first_seen_at,
      entry.heat,
      r.etag,
      json[i]![0],
      json[i]![1],
      r.repo_id,
      JSON.stringify(r.previous_ids),
      changedAt,
      json[i]![2].contents,
      json[i]![2].install,
      json[i]![2].flags,
      json[i]![2].works_with,
      json[i]![2].risk,
      json[i]![2].security,
      json[i]![2].tools,
      json[i]![2].context,
    );
  });
}

/**
 * Every sort order unfiltered, the feed's order, and each filter's members in stars order; the
 * snapshot derives a filtered order from them on first use.
 */
function insertOrders(db: Database, bySort: Map<Sort, Entry[]>): Float64Array {
  const insert = db.prepare(`INSERT INTO orders (key, ids) VALUES (?, ?)`);
  // The `newest` sort's key is the feed's order, NEWEST_ORDER.
  for (const [sort, list] of bySort) insert.run(orderKey(sort, null, false), packRowids(list.map((e) => e.rowid)));
  const members = new Map<string | null, number[]>([[null, []]]);
  for (const entry of bySort.get("stars")!) {
    for (const category of entry.categories) {
      const list = members.get(category) ?? members.set(category, []).get(category)!;
      list.push(entry.rowid);
    }
    if (entry.record.curated) members.get(null)!.push(entry.rowid);
  }
  for (const [category, rowids] of members) insert.run(memberKey(category), packRowids(rowids));
  const active = bySort.get("stars")!.filter((entry) => !entry.record.archived);
  insert.run(ACTIVE_MEMBERS, packRowids(active.map((e) => e.rowid)));
  const details = new Map<string, number[]>();
  for (const entry of bySort.get("stars")!) {
    for (const key of entry.detailKeys) (details.get(key) ?? details.set(key, []).get(key)!).push(entry.rowid);
  }
  for (const [key, rowids] of details) insert.run(key, packRowids(rowids));
  const byStars = bySort.get("stars")!;
  const scores = new Float64Array(byStars.length + 1);
  const score = (e: Entry) => popularity(e.record.stars, e.record.forks, e.record.pushed_at, e.snapshotAt);
  for (const e of byStars) scores[e.rowid] = score(e);
  // A fork, look-alike or copy scores just below its original, whatever its own numbers (see ORIGINALS).
  for (const e of byStars) if (e.original) scores[e.rowid] = Math.min(scores[e.rowid]!, score(e.original) * 0.999);
  insert.run(POPULARITY, new Uint8Array(scores.buffer));
  const originals = new Int32Array(byStars.length + 1);
  for (const e of byStars) if (e.original) originals[e.rowid] = e.original.rowid;
  insert.run(ORIGINALS, new Uint8Array(originals.buffer));
  return scores;
}

/**
 * The typeahead's index (routes/suggest-routes.ts): each plugin's full name and name lower-cased by SQLite, as
 * the keys of `suggest_keys`, and the best rowids of every prefix too long to rank per request.
 */
function insertSuggest(db: Database, popularity: Float64Array): void {
  db.run(`INSERT OR IGNORE INTO suggest_keys SELECT lower(id), rowid FROM plugins`);
  db.run(`INSERT OR IGNORE INTO suggest_keys SELECT lower(name), rowid FROM plugins`);
  const rows = db.query<[string, number], []>(`SELECT key, plugin FROM suggest_keys`).values() as Array<
    [string, number]
  >;
  // The index compares in code unit order, SQLite in code point order: they differ past U+FFFF.
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const index = new SuggestIndex({
    keys: rows.map((r) => r[0]),
    rowids: Int32Array.from(rows, (r) => r[1]),
    popularity,
  });
  const insert = db.prepare(`INSERT INTO suggest_best (prefix, ids) VALUES (?, ?)`);
  for (const [prefix, rowids] of index.rankedEntries()) {
    // A prefix ending inside a surrogate pair is no text a client can send.
    if (!/[\uD800-\uDBFF]$/.test(prefix)) insert.run(prefix, packRowids(rowids));
  }
}

function fsyncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a new snapshot file at `path` (which must not exist) and flushes it to disk. */
export function buildSnapshot(path: string, input: SnapshotInput): SnapshotStats {
  if (existsSync(path)) throw new Error(`refusing to overwrite ${path}`);
  const snapshotAt = isoMillis(input.snapshotAt);
  const entries: Entry[] = input.plugins.map((record) => ({
    record,
    heat: heat(record.stars, record.forks, record.pushed_at, snapshotAt),
    nameKey: record.name.toLowerCase(),
    rowid: 0,
    snapshotAt,
    categories: [...new Set(record.categories)],
    detailKeys: detailFilters(record).map(([kind, value]) => detailMemberKey(kind, value)),
    original: null,
  }));
  const byKey = new Map(entries.map((e) => [e.record.id.toLowerCase(), e]));
  for (const entry of entries) {
    const of = entry.record.details?.fork_of ?? entry.record.lookalike_of ?? entry.record.details?.canonical;
    const original = of ? byKey.get(of.toLowerCase()) : undefined;
    if (original && original !== entry) {
      entry.original = original;
      entry.rankStars = Math.min(entry.record.stars, Math.max(0, original.record.stars - 1));
    }
  }
  const byStars = entries.slice().sort(COMPARATORS.stars);
  for (const [index, entry] of byStars.entries()) entry.rowid = index + 1;
  // The index first: it creates the file and its schema; then the rows, orders and metadata.
  const categoryNames = new Map((input.categories ?? []).map((c) => [c.id, `${c.name} ${c.name_zh}`]));
  writeIndex(path, ftsRows(byStars, categoryNames, synonymsOf(input.synonyms ?? [])));
  const bySort = sortAll(entries);
  const json = views(byStars);
  const stats = statsOf(snapshotAt, input.plugins);
  const history = input.history ?? { changedAt: new Map(), events: [], snapshots: [snapshotAt] };
  const db = openForBuild(path);
  try {
    db.transaction(() => {
      insertPlugins(db, byStars, json, history);
      insertSuggest(db, insertOrders(db, bySort));
      writeMeta(db, stats, input);
      writeHistory(db, history);
      writeCandidates(db, input);
      writeUpdates(db, input);
    })();
  } finally {
    db.close();
  }
  fsyncFile(path);
  return stats;
}
