/**
 * Writing a snapshot's full-text index: the FTS rows of the plugins, and the file's schema with
 * the index filled in. The builder runs it inline for small catalogs and on a worker thread for
 * large ones (ftsworker.ts), where it overlaps the rest of the build.
 */
import { Database } from "bun:sqlite";
import { writeBroadSets } from "./broadsets";
import { SCHEMA } from "./schema";

/** rowid, name, topics, description and filter tokens, as the index takes them. */
export type FtsRow = [number, string, string, string, string];

/** What the builder hands its worker thread (see ftsworker.ts). */
export interface IndexJob {
  path: string;
  rows: FtsRow[];
  /** Int32 [state, message length]: state goes from 0 to INDEX_DONE or INDEX_FAILED. */
  state: SharedArrayBuffer;
  /** The error text, UTF-8, when the state is INDEX_FAILED. */
  message: SharedArrayBuffer;
}

export const INDEX_DONE = 1;
export const INDEX_FAILED = 2;

/**
 * Writes the index on a worker thread; the returned function blocks until it is written and
 * throws what the worker threw. The builder's thread does its own share of the work meanwhile.
 */
export function writeIndexInWorker(path: string, rows: FtsRow[]): () => void {
  const worker = new Worker(new URL("./ftsworker.ts", import.meta.url).href);
  const job: IndexJob = { path, rows, state: new SharedArrayBuffer(8), message: new SharedArrayBuffer(4096) };
  worker.postMessage(job);
  return () => {
    const flags = new Int32Array(job.state);
    try {
      while (Atomics.load(flags, 0) === 0) Atomics.wait(flags, 0, 0);
    } finally {
      worker.terminate();
    }
    if (Atomics.load(flags, 0) === INDEX_FAILED) {
      throw new Error(new TextDecoder().decode(new Uint8Array(job.message, 0, Atomics.load(flags, 1))));
    }
  };
}

/** FTS5's in-memory index budget while building: 64 MiB holds the index of 100,000 plugins. */
const FTS_HASH_BYTES = 64 * 1024 * 1024;

/** Opens a new snapshot file for writing: no journal and no syncs (the builder fsyncs at the end). */
export function openForBuild(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192; PRAGMA cache_size = -65536;");
  return db;
}

/**
 * Every term of the index, as the tokenizer folded it (search.ts lists a long prefix's terms), and
 * the sets of the broadest prefixes (broadsets.ts), from one pass over the index's vocabulary.
 */
function writeTerms(db: Database, rows: FtsRow[]): void {
  db.exec(`CREATE VIRTUAL TABLE temp.plugins_vocab USING fts5vocab(main, plugins_fts, 'row');`);
  const docs = db.query<{ term: string; doc: number }, []>(`SELECT term, doc FROM temp.plugins_vocab`).all();
  db.exec(`DROP TABLE temp.plugins_vocab;`);
  const insert = db.prepare(`INSERT INTO terms (term) VALUES (?)`);
  for (const { term } of docs) insert.run(term);
  let maxRowid = 0;
  for (const row of rows) if (row[0] > maxRowid) maxRowid = row[0];
  writeBroadSets(db, docs, rows.length, maxRowid);
}

/** Creates the schema in the new file at `path` and writes the full-text index of `rows`. */
export function writeIndex(path: string, rows: FtsRow[]): void {
  const db = openForBuild(path);
  try {
    db.exec(SCHEMA);
    // Room for the whole index in memory: one segment is written, no merges on the way.
    db.exec(`INSERT INTO plugins_fts (plugins_fts, rank) VALUES ('hashsize', ${FTS_HASH_BYTES});`);
    const insert = db.prepare(`INSERT INTO plugins_fts (rowid, name, topics, description, tags) VALUES (?,?,?,?,?)`);
    db.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
    // One segment per term makes every query a single doclist walk.
    db.exec("INSERT INTO plugins_fts (plugins_fts) VALUES ('optimize');");
    db.transaction(() => writeTerms(db, rows))();
  } finally {
    db.close();
  }
}
