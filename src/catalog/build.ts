/**
 * Builds a complete snapshot file from plugin records: rows, FTS index, precomputed orders, metadata.
 * The file is written at a new path and never modified afterwards; publishing is the caller's rename.
 */
import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, openSync } from "node:fs";
import { COMPARATORS, heat, orderKey, SORTS, type Ranked, type Sort } from "./orders";
import { SCHEMA, SCHEMA_VERSION } from "./schema";
import { isoMillis } from "./time";
import type { PluginRecord, SnapshotInput, SnapshotStats } from "./types";
import { fullView, shortView } from "./views";

function sorted(ranked: Ranked[], sort: Sort): Ranked[] {
  return ranked.slice().sort(COMPARATORS[sort]);
}

function packRowids(list: Ranked[], rowid: Map<Ranked, number>): Uint8Array {
  const ids = Int32Array.from(list, (r) => rowid.get(r)!);
  return new Uint8Array(ids.buffer);
}

function insertPlugins(db: Database, byStars: Ranked[], ranks: Map<Sort, Map<Ranked, number>>): void {
  const insert = db.prepare(
    `INSERT INTO plugins VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const fts = db.prepare(`INSERT INTO plugins_fts (rowid, name, topics, description) VALUES (?,?,?,?)`);
  const category = db.prepare(`INSERT INTO plugin_categories (category, plugin) VALUES (?,?)`);
  byStars.forEach((entry, index) => {
    const r = entry.record;
    const rowid = index + 1;
    const rank = (sort: Sort) => ranks.get(sort)!.get(entry)!;
    insert.run(
      rowid, r.id, r.name, r.url, r.homepage, r.description, r.description_zh, r.category,
      JSON.stringify(r.categories), r.stars, r.forks, r.language, r.license, r.archived ? 1 : 0,
      r.created_at, r.pushed_at, JSON.stringify(r.topics), r.curated ? 1 : 0, r.first_seen_at,
      entry.heat, r.etag, rank("default"), rank("name"), rank("forks"), rank("updated"), rank("heat"),
      JSON.stringify(fullView(r)), JSON.stringify(shortView(r)),
    );
    fts.run(rowid, r.name.replace(/[-_.]+/g, " "), r.topics.join(" "), r.description);
    for (const c of new Set(r.categories)) category.run(c, rowid);
  });
}

function insertOrders(db: Database, bySort: Map<Sort, Ranked[]>, rowid: Map<Ranked, number>): void {
  const insert = db.prepare(`INSERT INTO orders (key, ids) VALUES (?, ?)`);
  const categories = new Set<string>();
  for (const entry of bySort.get("stars")!) for (const c of entry.record.categories) categories.add(c);
  for (const [sort, list] of bySort) {
    const filters: Array<[string | null, boolean]> = [[null, false], [null, true]];
    for (const c of categories) filters.push([c, false], [c, true]);
    for (const [category, curated] of filters) {
      const subset = list.filter(
        (r) => (!curated || r.record.curated) && (category === null || r.record.categories.includes(category)),
      );
      insert.run(orderKey(sort, category, curated), packRowids(subset, rowid));
    }
  }
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

/** Writes a new snapshot file at `path` (which must not exist) and flushes it to disk. */
export function buildSnapshot(path: string, input: SnapshotInput): SnapshotStats {
  if (existsSync(path)) throw new Error(`refusing to overwrite ${path}`);
  const snapshotAt = isoMillis(input.snapshotAt);
  const ranked: Ranked[] = input.plugins.map((record) => ({
    record,
    heat: heat(record.stars, record.forks, record.pushed_at, snapshotAt),
    nameKey: record.name.toLowerCase(),
  }));
  const bySort = new Map(SORTS.map((s) => [s, sorted(ranked, s)] as const));
  const ranks = new Map(SORTS.map((s) => [s, new Map(bySort.get(s)!.map((r, i) => [r, i + 1]))] as const));
  const stats = statsOf(snapshotAt, input.plugins);
  const db = new Database(path, { create: true, strict: true });
  try {
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;");
    db.exec(SCHEMA);
    db.transaction(() => {
      insertPlugins(db, bySort.get("stars")!, ranks);
      insertOrders(db, bySort, ranks.get("stars")!);
      writeMeta(db, stats, input.categoryIds);
    })();
    db.exec("INSERT INTO plugins_fts (plugins_fts) VALUES ('optimize'); ANALYZE;");
  } finally {
    db.close();
  }
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return stats;
}
