/**
 * The snapshot file's schema. A snapshot is written once by the builder and never modified:
 * the server opens it read-only and the refresher replaces it whole.
 *
 * `plugins.rowid` is the plugin's position in the stars order (stars desc, id asc), so the
 * stars order and the sync list are rowid ranges and FTS5 results arrive already in that order.
 * `orders` holds every (sort, filter) order precomputed as a packed Int32 array of rowids,
 * so any list page, however deep, is a slice: no OFFSET scans.
 */
export const SCHEMA_VERSION = 1;

export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE plugins (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  homepage TEXT,
  description TEXT NOT NULL,
  description_zh TEXT,
  category TEXT NOT NULL,
  categories TEXT NOT NULL,
  stars INTEGER NOT NULL,
  forks INTEGER NOT NULL,
  language TEXT NOT NULL,
  license TEXT NOT NULL,
  archived INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  pushed_at TEXT NOT NULL,
  topics TEXT NOT NULL,
  curated INTEGER NOT NULL,
  first_seen_at TEXT NOT NULL,
  heat REAL NOT NULL,
  etag TEXT,
  rank_default INTEGER NOT NULL,
  rank_name INTEGER NOT NULL,
  rank_forks INTEGER NOT NULL,
  rank_updated INTEGER NOT NULL,
  rank_heat INTEGER NOT NULL,
  full_json TEXT NOT NULL,
  short_json TEXT NOT NULL
);

CREATE INDEX plugins_newest ON plugins (first_seen_at DESC, created_at DESC, id);

CREATE TABLE plugin_categories (
  category TEXT NOT NULL,
  plugin INTEGER NOT NULL,
  PRIMARY KEY (category, plugin)
) WITHOUT ROWID;

CREATE TABLE orders (key TEXT PRIMARY KEY, ids BLOB NOT NULL) WITHOUT ROWID;

CREATE VIRTUAL TABLE plugins_fts USING fts5(
  name, topics, description,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
`;
