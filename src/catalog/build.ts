/**
 * Builds a complete snapshot file from plugin records: rows, FTS index, precomputed orders, metadata.
 * The file is written at a new path and never modified afterwards; publishing is the caller's rename.
 */
import type { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, openSync } from "node:fs";
import { openForBuild, writeIndex, writeIndexInWorker, type FtsRow } from "./ftsindex";
import { COMPARATORS, heat, orderKey, type Ranked, type Sort, sortAll } from "./orders";
import { indexText, memberKey, NEWEST_ORDER, SCHEMA_VERSION, tagToken } from "./schema";
import { isoMillis } from "./time";
import type { PluginRecord, SnapshotInput, SnapshotStats } from "./types";
import { fullView, shortView } from "./views";

/** A plugin while it is being built: its sort keys, rowid (stars position) and distinct categories. */
interface Entry extends Ranked {
  rowid: number;
  categories: string[];
}

/** Rowids in order, packed as the Int32 blob the snapshot decodes without copying rows. */
function packRowids(list: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Int32Array.from(list).buffer);
}

const categoryTags = new Map<string, string>();

/** The filter tokens of a plugin in the FTS `tags` column. */
function tags(entry: Entry): string {
  const tokens = entry.categories.map((c) => categoryTags.get(c) ?? categoryTags.set(c, tagToken("cat", c)).get(c)!);
  if (entry.record.curated) tokens.push(tagToken("curated"));
  return tokens.join(" ");
}

/** The rows of the full-text index, in stars order. */
function ftsRows(byStars: Entry[]): FtsRow[] {
  return byStars.map((entry) => {
    const r = entry.record;
    // Name separators become spaces so `mcp-ser` finds `mcp-server` as a phrase of tokens.
    return [entry.rowid, r.name.replace(/[-_.]+/g, " "), indexText(r.topics.join(" ")), indexText(r.description), tags(entry)];
  });
}

/** The full and short JSON of each plugin, serialized once per snapshot. */
function views(byStars: Entry[]): Array<[string, string]> {
  return byStars.map((entry) => [JSON.stringify(fullView(entry.record)), JSON.stringify(shortView(entry.record))]);
}

function insertPlugins(db: Database, byStars: Entry[], json: Array<[string, string]>): void {
  const insert = db.prepare(`INSERT INTO plugins VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  byStars.forEach((entry, i) => {
    const r = entry.record;
    insert.run(
      entry.rowid, r.id, r.name, r.url, r.homepage, r.description, r.description_zh, r.category,
      JSON.stringify(r.categories), r.stars, r.forks, r.language, r.license, r.archived ? 1 : 0,
      r.created_at, r.pushed_at, JSON.stringify(r.topics), r.curated ? 1 : 0, r.first_seen_at,
      entry.heat, r.etag, json[i]![0], json[i]![1],
    );
  });
}

/**
 * Every sort order unfiltered, the feed's order, and each filter's members in stars order; the
 * snapshot derives a filtered order from them on first use.
 */
function insertOrders(db: Database, bySort: Map<Sort, Entry[]>, newest: Entry[]): void {
  const insert = db.prepare(`INSERT INTO orders (key, ids) VALUES (?, ?)`);
  for (const [sort, list] of bySort) insert.run(orderKey(sort, null, false), packRowids(list.map((e) => e.rowid)));
  insert.run(NEWEST_ORDER, packRowids(newest.map((e) => e.rowid)));
  const members = new Map<string | null, number[]>([[null, []]]);
  for (const entry of bySort.get("stars")!) {
    for (const category of entry.categories) {
      const list = members.get(category) ?? members.set(category, []).get(category)!;
      list.push(entry.rowid);
    }
    if (entry.record.curated) members.get(null)!.push(entry.rowid);
  }
  for (const [category, rowids] of members) insert.run(memberKey(category), packRowids(rowids));
}

/** Statistics of a set of records, as the manifest reports them. */
export function statsOf(snapshotAt: string, plugins: PluginRecord[]): SnapshotStats {
  const used = new Set<string>();
  let curated = 0;
  let totalStars = 0;
  for (const p of plugins) {
    for (const c of p.categories) used.add(c);
    if (p.curated) curated++;
    totalStars += p.stars;
  }
  return { snapshotAt, total: plugins.length, curated, categories: used.size, totalStars };
}

function writeMeta(db: Database, stats: SnapshotStats, categoryIds: string[]): void {
  const insert = db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?)`);
  insert.run("schema_version", String(SCHEMA_VERSION));
  insert.run("category_ids", JSON.stringify(categoryIds));
  insert.run("snapshot_at", stats.snapshotAt);
  insert.run("stats", JSON.stringify(stats));
}

function fsyncFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** From this many plugins on, the index is written on a worker thread beside the rest of the build. */
const PARALLEL_FROM = 20_000;

export interface BuildOptions {
  /** Write the index on a worker thread; by default from PARALLEL_FROM plugins on. */
  parallelIndex?: boolean;
}

/** Writes a new snapshot file at `path` (which must not exist) and flushes it to disk. */
export function buildSnapshot(path: string, input: SnapshotInput, options: BuildOptions = {}): SnapshotStats {
  if (existsSync(path)) throw new Error(`refusing to overwrite ${path}`);
  const snapshotAt = isoMillis(input.snapshotAt);
  const entries: Entry[] = input.plugins.map((record) => ({
    record,
    heat: heat(record.stars, record.forks, record.pushed_at, snapshotAt),
    nameKey: record.name.toLowerCase(),
    rowid: 0,
    categories: [...new Set(record.categories)],
  }));
  const byStars = entries.slice().sort(COMPARATORS.stars);
  byStars.forEach((entry, index) => (entry.rowid = index + 1));
  // The index first (it creates the file), on a worker when large; this thread sorts and
  // serializes meanwhile, then adds the rows, orders and metadata.
  const rows = ftsRows(byStars);
  const parallel = options.parallelIndex ?? entries.length >= PARALLEL_FROM;
  const indexWritten = parallel ? writeIndexInWorker(path, rows) : (writeIndex(path, rows), () => {});
  const { bySort, newest } = sortAll(entries);
  const json = views(byStars);
  const stats = statsOf(snapshotAt, input.plugins);
  indexWritten();
  const db = openForBuild(path);
  try {
    db.transaction(() => {
      insertPlugins(db, byStars, json);
      insertOrders(db, bySort, newest);
      writeMeta(db, stats, input.categoryIds);
    })();
  } finally {
    db.close();
  }
  fsyncFile(path);
  return stats;
}
