/**
 * Turns a user's `q` into FTS5 match expressions (ranking.ts scores the matches). Every token is
 * quoted, so search syntax (quotes, `*`, `-`, `:`, parentheses, AND/OR/NOT/NEAR) is plain text
 * and never an FTS5 error.
 */
import { tagToken } from "../model/snapshot-schema";
import { foldAscii } from "../model/text";
import type { Query } from "./query";
import { NO_SYNONYMS, type Synonyms, searchText } from "./search-text";

export interface MatchQuery {
  /** The words' phrases, sorted: `all` is their AND. */
  phrases: readonly string[];
  all: string;
  /**
   * The same rows as bm25 should weigh them: a single word listed as the OR of several terms is
   * scored as its prefix, as one phrase; the OR would count a rare completion (`dockerized` for
   * `docker`) as a rare word of its own.
   */
  scored: string;
}

/** The characters unicode61 keeps inside tokens; everything else separates them. */
const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/** Index terms that start with a prefix (lowercase ASCII), or null when there are too many to list. */
export type TermLookup = (prefix: string) => string[] | null;

/**
 * Tokens this short stay prefixes; a longer one with few terms is listed, and bm25 weighs a search
 * of several words by those terms (the judged sets were scored that way).
 */
const LONGEST_UNLISTED_PREFIX = 3;

/** Text as an FTS5 phrase whose last token is a prefix: `mcp ser` → `"mcp ser"*`. */
export function prefixPhrase(text: string): string {
  return `"${text}"*`;
}

/**
 * A word as an FTS5 phrase, its last token a prefix. A single ASCII token longer than
 * LONGEST_UNLISTED_PREFIX becomes the OR of the terms it is a prefix of when they are few: the same rows.
 */
function phrase(tokens: string[], lookup: TermLookup | undefined): string {
  const prefix = prefixPhrase(tokens.join(" "));
  const token = tokens[0]!;
  if (!lookup || tokens.length !== 1 || token.length <= LONGEST_UNLISTED_PREFIX || !/^[a-z0-9]+$/.test(token)) {
    return prefix;
  }
  const terms = lookup(token);
  if (terms === null || terms.length === 0) return prefix;
  return `(${terms.map((t) => `"${t}"`).join(" OR ")})`;
}

/** A whitespace-separated word of `q` and its tokens as the index reads them (none for `-`). */
export interface QueryWord {
  text: string;
  tokens: string[];
}

/** `q` read as the index reads text: once per query, every step of a search works from it. */
export function readWords(q: string, synonyms: Synonyms = NO_SYNONYMS): QueryWord[] {
  return q
    .trim()
    .split(/\s+/)
    .map((text) => ({ text, tokens: (searchText(text, synonyms).match(TOKEN) ?? []).map(foldAscii) }));
}

/**
 * One phrase per whitespace-separated word, its last token a prefix: `mcp-ser` → `"mcp ser"*`,
 * which finds `mcp-server`. Returns null when the words hold no searchable token. Phrases are
 * deduplicated and sorted, so queries that differ only in case or word order are one expression.
 */
export function toMatchQuery(words: readonly QueryWord[], lookup?: TermLookup) {
  const unique = new Map<string, string>();
  for (const { tokens } of words) {
    if (tokens.length > 0) unique.set(phrase(tokens, lookup), prefixPhrase(tokens.join(" ")));
  }
  if (unique.size === 0) return null;
  const phrases = [...unique.keys()].sort();
  const all = phrases.join(" AND ");
  // A single word listed as several terms is scored as its prefix: its rows are the search's own
  // (at most BM25_MAX_MATCHES when bm25 runs). Beside another word a prefix would merge all its
  // rows up front, however few the search keeps, so several words are scored as listed.
  const [only] = phrases;
  const scored = phrases.length === 1 && only!.includes(" OR ") ? unique.get(only!)! : all;
  return { phrases, all, scored };
}

/** The FTS expression of every result of a filtered search. */
export function searchMatch(match: MatchQuery, filters: Query): string {
  const terms = [`(${match.all})`];
  if (filters.category) terms.push(`tags : "${tagToken("cat", filters.category)}"`);
  if (filters.curated) terms.push(`tags : "${tagToken("curated")}"`);
  if (filters.archived === false) terms.push(`tags : "${tagToken("active")}"`);
  for (const kind of filters.has ?? []) terms.push(`tags : "${tagToken("has", kind)}"`);
  if (filters.harness) terms.push(`tags : "${tagToken("harness", filters.harness)}"`);
  if (filters.original) terms.push(`tags : "${tagToken("original")}"`);
  if (filters.verified) terms.push(`tags : "${tagToken("verified")}"`);
  if (filters.risk) terms.push(`tags : "${tagToken("risk", filters.risk)}"`);
  if (filters.advisories) terms.push(`tags : "${tagToken("advisories", filters.advisories)}"`);
  if (filters.contextMax != null) terms.push(`tags : "${tagToken("context", String(filters.contextMax))}"`);
  const matches = terms.join(" AND ");
  return filters.archived === true ? `(${matches}) NOT tags : "${tagToken("active")}"` : matches;
}
