/** Writing a snapshot's full-text index: the file's schema with the index of the plugins filled in. */
import { Database } from "bun:sqlite";
import { SCHEMA } from "../model/snapshot-schema";
import { TRIGRAMS, trigramIndex, VOCABULARY, vocabularyOf } from "./vocabulary";

/** rowid, name, full name, topics, description, category names and filter tokens, as the index takes them. */
export type FtsRow = [number, string, string, string, string, string, string];

/** FTS5's in-memory index budget while building: room for the whole index (see writeIndex). */
const FTS_HASH_BYTES = 64 * 1024 * 1024;

/** Opens a new snapshot file for writing: no journal and no syncs (the builder fsyncs at the end). */
export function openForBuild(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192; PRAGMA cache_size = -65536;");
  return db;
}

/**
 * Every term of the index, as the tokenizer folded it: searcher.ts lists a long prefix's terms.
 * Then the correction vocabulary and its trigram index (vocabulary.ts), once per snapshot.
 */
function writeTerms(db: Database): void {
  db.exec(`CREATE VIRTUAL TABLE temp.plugins_vocab USING fts5vocab(main, plugins_fts, 'row');`);
  // One pass over the vocabulary table: it reads every doclist to count documents.
  const terms = db.query<{ term: string; doc: number }, []>(`SELECT term, doc FROM temp.plugins_vocab`).all();
  const term = db.prepare(`INSERT INTO terms (term) VALUES (?)`);
  for (const row of terms) term.run(row.term);
  const words = vocabularyOf(terms);
  const insert = db.prepare(`INSERT INTO orders (key, ids) VALUES (?, ?)`);
  insert.run(VOCABULARY, new TextEncoder().encode(words.join("\n")));
  insert.run(TRIGRAMS, new Uint8Array(trigramIndex(words).buffer));
  db.exec(`DROP TABLE temp.plugins_vocab;`);
}

/** Creates the schema in the new file at `path` and writes the full-text index of `rows`. */
export function writeIndex(path: string, rows: FtsRow[]): void {
  const db = openForBuild(path);
  try {
    db.exec(SCHEMA);
    // Room for the whole index in memory: one segment is written, no merges on the way.
    db.exec(`INSERT INTO plugins_fts (plugins_fts, rank) VALUES ('hashsize', ${FTS_HASH_BYTES});`);
    const insert = db.prepare(
      `INSERT INTO plugins_fts (rowid, name, fullname, topics, description, category, tags) VALUES (?,?,?,?,?,?,?)`,
    );
    db.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
    // One segment per term makes every query a single doclist walk.
    db.exec("INSERT INTO plugins_fts (plugins_fts) VALUES ('optimize');");
    db.transaction(() => writeTerms(db))();
  } finally {
    db.close();
  }
}
