/**
 * Builds a complete snapshot file from plugin records: rows, FTS index, precomputed orders, metadata.
 * The file is written at a new path and never modified afterwards; publishing is the caller's rename.
 */
import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, openSync } from "node:fs";
import { heat, orderKey, type Ranked, type Sort } from "./orders";
import { indexText, NEWEST_ORDER, SCHEMA, SCHEMA_VERSION, tagToken } from "./schema";
import { sortAll } from "./sortall";
import { isoMillis } from "./time";
import type { PluginRecord, SnapshotInput, SnapshotStats } from "./types";
import { fullView, shortView } from "./views";

/** A plugin while it is being built: its sort keys, rowid (stars position) and distinct categories. */
interface Entry extends Ranked {
  rowid: number;
  categories: string[];
}

/** Rowids of a list in its order, packed as the Int32 blob the snapshot decodes without copying rows. */
function packRowids(list: Entry[]): Uint8Array {
  const ids = new Int32Array(list.length);
  for (let i = 0; i < list.length; i++) ids[i] = list[i]!.rowid;
  return new Uint8Array(ids.buffer);
}

/** The filter tokens of a plugin in the FTS `tags` column. */
function tags(entry: Entry): string {
  const tokens = entry.categories.map((c) => tagToken("cat", c));
  if (entry.record.curated) tokens.push(tagToken("curated"));
  return tokens.join(" ");
}

function insertPlugins(db: Database, byStars: Entry[]): void {
  const insert = db.prepare(`INSERT INTO plugins VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const fts = db.prepare(`INSERT INTO plugins_fts (rowid, name, topics, description, tags) VALUES (?,?,?,?,?)`);
  for (const entry of byStars) {
    const r = entry.record;
    const rowid = entry.rowid;
    insert.run(
      rowid, r.id, r.name, r.url, r.homepage, r.description, r.description_zh, r.category,
      JSON.stringify(r.categories), r.stars, r.forks, r.language, r.license, r.archived ? 1 : 0,
      r.created_at, r.pushed_at, JSON.stringify(r.topics), r.curated ? 1 : 0, r.first_seen_at,
      entry.heat, r.etag, JSON.stringify(fullView(r)), JSON.stringify(shortView(r)),
    );
    // Name separators become spaces so `mcp-ser` finds `mcp-server` as a phrase of tokens.
    fts.run(rowid, r.name.replace(/[-_.]+/g, " "), indexText(r.topics.join(" ")), indexText(r.description), tags(entry));
  }
}

/** Splits one sorted list into the lists of every filter in a single pass, keeping the order. */
function splitByFilter(list: Entry[]): Map<string | null, { all: Entry[]; curated: Entry[] }> {
  const lists = new Map<string | null, { all: Entry[]; curated: Entry[] }>();
  const listOf = (category: string | null) => {
    let found = lists.get(category);
    if (!found) lists.set(category, (found = { all: [], curated: [] }));
    return found;
  };
  listOf(null);
  for (const entry of list) {
    const targets = [listOf(null)];
    for (const category of entry.categories) targets.push(listOf(category));
    for (const target of targets) {
      target.all.push(entry);
      if (entry.record.curated) target.curated.push(entry);
    }
  }
  return lists;
}

function insertOrders(db: Database, bySort: Map<Sort, Entry[]>, newest: Entry[]): void {
  const insert = db.prepare(`INSERT INTO orders (key, ids) VALUES (?, ?)`);
  for (const [sort, list] of bySort) {
    for (const [category, { all, curated }] of splitByFilter(list)) {
      insert.run(orderKey(sort, category, false), packRowids(all));
      insert.run(orderKey(sort, category, true), packRowids(curated));
    }
  }
  insert.run(NEWEST_ORDER, packRowids(newest));
}

/** FTS5's in-memory index budget while building: 64 MiB holds the index of 100,000 plugins. */
const FTS_HASH_BYTES = 64 * 1024 * 1024;

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

/** Every term of the index, as the tokenizer folded it (search.ts lists a long prefix's terms). */
function writeTerms(db: Database): void {
  db.exec(`CREATE VIRTUAL TABLE temp.plugins_vocab USING fts5vocab(main, plugins_fts, 'row');
           INSERT INTO terms (term) SELECT term FROM temp.plugins_vocab;
           DROP TABLE temp.plugins_vocab;`);
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

/** Writes a new snapshot file at `path` (which must not exist) and flushes it to disk. */
export function buildSnapshot(path: string, input: SnapshotInput): SnapshotStats {
  if (existsSync(path)) throw new Error(`refusing to overwrite ${path}`);
  const snapshotAt = isoMillis(input.snapshotAt);
  const entries: Entry[] = input.plugins.map((record) => ({
    record,
    heat: heat(record.stars, record.forks, record.pushed_at, snapshotAt),
    nameKey: record.name.toLowerCase(),
    rowid: 0,
    categories: [...new Set(record.categories)],
  }));
  const { bySort, newest } = sortAll(entries);
  const byStars = bySort.get("stars")!;
  byStars.forEach((entry, index) => (entry.rowid = index + 1));
  const stats = statsOf(snapshotAt, input.plugins);
  const db = new Database(path, { create: true, strict: true });
  try {
    // A fresh file nobody reads yet: no journal and no syncs until the final fsync.
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192; PRAGMA cache_size = -65536;");
    db.exec(SCHEMA);
    // Room for the whole index in memory: one segment is written, no merges on the way.
    db.exec(`INSERT INTO plugins_fts (plugins_fts, rank) VALUES ('hashsize', ${FTS_HASH_BYTES});`);
    db.transaction(() => {
      insertPlugins(db, byStars);
      insertOrders(db, bySort, newest);
      writeMeta(db, stats, input.categoryIds);
    })();
    // One segment per term makes every query a single doclist walk.
    db.exec("INSERT INTO plugins_fts (plugins_fts) VALUES ('optimize');");
    writeTerms(db);
  } finally {
    db.close();
  }
  fsyncFile(path);
  return stats;
}
