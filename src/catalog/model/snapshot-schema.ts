/**
 * The snapshot file's schema. A snapshot is written once by the builder and never modified:
 * the server opens it read-only and the refresher replaces it whole.
 *
 * `plugins.rowid` is the plugin's position in the stars order (stars desc, id asc), so the
 * stars order and the sync list are rowid ranges and FTS5 results arrive already in that order.
 *
 * `orders` holds keyed blobs, not only orders. Every sort order is a packed Int32 array of rowids,
 * and so are the members of each filter (category, curated, archived, the detail filters); the snapshot
 * derives each filtered order once, on first use, so any list page, however deep, is a slice: no
 * OFFSET scans. The `newest` order serves the feed. The key `popularity` holds each rowid's
 * popularity (see ranking.ts) as Float64s and `originals` each rowid's original (ORIGINALS); the keys
 * `vocabulary` and `trigrams` hold the words a correction may answer and their trigram index
 * (vocabulary.ts).
 *
 * `plugins_fts` is contentless (the text lives in `plugins`): it answers which rowids match and
 * their bm25 relevance. Its columns are what a search covers: the name, the full name (owner and
 * name), topics, the description with the Chinese one, and the categories' English and Chinese
 * names, all read through search/search-text.ts. Its `tags` column holds filter tokens (see `tagToken`), so
 * a category or curated filter is one more term of the match and results still stream in rowid
 * order. The prefix indexes (lengths 1 to 8) keep a word typed as a prefix a single doclist walk:
 * without one, FTS5 merges the doclists of every term the prefix stands for up front, in every
 * statement, and bm25 does it once more per word.
 *
 * `terms` lists every term of the index, so a prefix can be searched as the few terms it stands
 * for; a word that matches nothing is corrected to its nearest term.
 *
 * `updates` holds each plugin's last update (update-history.ts) as JSON, by id: a plugin without
 * one has no row. A file written before the table existed has none.
 *
 * `candidates` holds the refresher's last decision per repository it met (candidates.ts), as JSON.
 *
 * `policy_records` is served by nothing: under a policy (policy.ts) it holds every record the
 * refresh made, each with the rule that keeps it out (null when served), so the refresh knows what
 * the policy hides and the review command re-applies a changed policy without fetching; `newer`
 * is the reading at the platform's head of a plugin served at its approved, older commit. Empty
 * without a policy.
 *
 * `suggest_keys` is the typeahead's index (routes/suggest-routes.ts): every plugin's full name and name,
 * lower-cased, each with its rowid, so a prefix is one range of the primary key; `suggest_best`
 * holds the best rowids (a packed Int32 array) of every prefix whose range is longer than a request
 * ranks, so a suggestion reads a bounded number of rows whatever the catalog's size.
 */
export const SCHEMA_VERSION = 11;

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
  full_json TEXT NOT NULL,
  short_json TEXT NOT NULL,
  repo_id INTEGER,
  previous_ids TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  x_contents TEXT NOT NULL,
  x_install TEXT NOT NULL,
  x_flags TEXT NOT NULL,
  x_works_with TEXT NOT NULL,
  x_risk TEXT NOT NULL,
  x_security TEXT NOT NULL,
  x_tools TEXT NOT NULL,
  x_context TEXT NOT NULL
);

CREATE INDEX plugins_changed_at ON plugins (changed_at);

CREATE TABLE aliases (old_id TEXT PRIMARY KEY COLLATE NOCASE, id TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE history_events (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, to_id TEXT);

CREATE TABLE history_snapshots (at TEXT PRIMARY KEY) WITHOUT ROWID;

CREATE TABLE updates (id TEXT PRIMARY KEY COLLATE NOCASE, json TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE candidates (id TEXT PRIMARY KEY COLLATE NOCASE, checked_at TEXT NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE policy_records (id TEXT PRIMARY KEY COLLATE NOCASE, rule TEXT, json TEXT NOT NULL, newer TEXT) WITHOUT ROWID;

CREATE TABLE orders (key TEXT PRIMARY KEY, ids BLOB NOT NULL) WITHOUT ROWID;

CREATE TABLE terms (term TEXT PRIMARY KEY) WITHOUT ROWID;

CREATE TABLE suggest_keys (key TEXT NOT NULL, plugin INTEGER NOT NULL, PRIMARY KEY (key, plugin)) WITHOUT ROWID;

CREATE TABLE suggest_best (prefix TEXT PRIMARY KEY, ids BLOB NOT NULL) WITHOUT ROWID;

CREATE INDEX plugins_name ON plugins (name COLLATE NOCASE);

CREATE VIRTUAL TABLE plugins_fts USING fts5(
  name, fullname, topics, description, category, tags,
  content = '',
  tokenize = "unicode61 remove_diacritics 2 tokenchars '_'",
  prefix = '1 2 3 4 5 6 7 8'
);
`;

/**
 * The text of a name, topics or description as the index takes it. `_` is a token character of
 * the index only for the filter tokens; in text it stays a separator, as the tokenizer's default.
 */
export function indexText(text: string): string {
  return text.replaceAll("_", " ");
}

/** The key of the per-rowid popularity blob in `orders`. */
export const POPULARITY = "popularity";

/**
 * The key of the per-rowid Int32 blob of originals: the rowid a fork, look-alike or copy imitates, 0 for
 * none. Each order puts such a plugin just below its original, in its own unit: its popularity
 * (build.ts insertOrders), its stars in the default sort (build.ts rankStars), its search score
 * (ranking.ts rankingOf), since a score mixes relevance in and popularity alone cannot keep it below.
 */
export const ORIGINALS = "originals";

/** The key of the feed's order: most recently first seen, then created_at desc, then id. */
export const NEWEST_ORDER = "newest";

/** The key of a filter's members (rowids in stars order): a category, or null for curated. */
export function memberKey(category: string | null): string {
  return category === null ? "members|curated" : `members|c:${category}`;
}

/** The key of the members of the `archived=false` filter: the plugins not archived. */
export const ACTIVE_MEMBERS = "members|active";

/** A detail filter: `has=`, `harness=`, `original=`, `risk=`, `advisories=`, `verified=`, `context_max=`. */
export type DetailFilter = "has" | "harness" | "original" | "risk" | "advisories" | "verified" | "context";

/** The key of the members of a `has=`, `harness=`, `original=`, `risk=` or `advisories=` filter value. */
export function detailMemberKey(kind: DetailFilter, value = ""): string {
  return `members|${kind}:${value}`;
}

/**
 * The FTS token of a filter value in the `tags` column. It starts with `_`, which no word of a
 * search can hold (search.ts splits words on it), so no search term ever matches a filter token
 * and searches need no column restriction. The value is hex-encoded: distinct values never collide.
 */
export function tagToken(kind: "cat" | "curated" | "active" | DetailFilter, value = ""): string {
  return `_${kind}${Buffer.from(value, "utf8").toString("hex")}`;
}
