/**
 * Turns a user's `q` into FTS5 match expressions. Every token is quoted, so search syntax
 * (quotes, `*`, `-`, `:`, parentheses, AND/OR/NOT/NEAR) is plain text and never an FTS5 error.
 */
import { tagToken } from "./schema";
import { foldAscii } from "./text";

export interface MatchQuery {
  /** The words' phrases, sorted: `all` is their AND. */
  phrases: readonly string[];
  /** Every word somewhere in name, topics or description. */
  all: string;
  /** Any word in the name: the first relevance tier. */
  name: string;
  /** Any word in the topics: the second relevance tier. */
  topics: string;
}

/** The characters unicode61 keeps inside tokens; everything else separates them. */
const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/** Index terms that start with a prefix (lowercase ASCII), or null when there are too many to list. */
export type TermLookup = (prefix: string) => string[] | null;

/** Prefix lengths the index keeps doclists for (schema.ts `prefix`): those need no listing. */
const LONGEST_INDEXED_PREFIX = 3;

/**
 * A word as an FTS5 phrase, its last token a prefix. A single ASCII token longer than the indexed
 * prefixes becomes the OR of the terms it is a prefix of: the same rows, but merged lazily, so a
 * LIMIT or a rare filter term stops early. Tokens with other than ASCII letters and digits keep
 * FTS5's own prefix match, which folds them.
 */
function phrase(tokens: string[], lookup: TermLookup | undefined): string {
  const prefix = prefixPhrase(tokens.join(" "));
  const token = tokens[0]!;
  if (!lookup || tokens.length !== 1 || token.length <= LONGEST_INDEXED_PREFIX || !/^[a-z0-9]+$/.test(token)) return prefix;
  const terms = lookup(token);
  if (terms === null || terms.length === 0) return prefix;
  return `(${terms.map((t) => `"${t}"`).join(" OR ")})`;
}

/** Text as an FTS5 phrase whose last token is a prefix: `mcp ser` → `"mcp ser"*`. */
export function prefixPhrase(text: string): string {
  return `"${text}"*`;
}


/**
 * One phrase per whitespace-separated word, its last token a prefix: `mcp-ser` → `"mcp ser"*`,
 * which finds `mcp-server`. Returns null when `q` holds no searchable token at all. Phrases are
 * folded, deduplicated and sorted (AND and OR do not care), so queries that differ only in case
 * or word order are one expression and share its remembered counts.
 */
export function toMatchQuery(q: string, lookup?: TermLookup): MatchQuery | null {
  const unique = new Set<string>();
  for (const word of q.split(/\s+/)) {
    const tokens = word.match(TOKEN);
    if (tokens) unique.add(phrase(tokens.map(foldAscii), lookup));
  }
  if (unique.size === 0) return null;
  const phrases = [...unique].sort();
  const any = phrases.join(" OR ");
  return { phrases, all: phrases.join(" AND "), name: `name : (${any})`, topics: `topics : (${any})` };
}

export interface SearchFilters {
  category: string | null;
  curated: boolean;
  /** Only archived (true) or only unarchived (false) plugins; null for both. */
  archived?: boolean | null;
}

/**
 * The FTS expressions of one filtered search. `matches` is every result; the tiers split it by
 * relevance: a word in the name, else a word in the topics, else the description only. Each one
 * yields rowids in stars order, so a page of a tier is a LIMIT of its match.
 */
export interface SearchExpressions {
  matches: string;
  tiers: [string, string, string];
}

export function searchExpressions(match: MatchQuery, filters: SearchFilters): SearchExpressions {
  const terms = [`(${match.all})`];
  if (filters.category !== null) terms.push(`tags : "${tagToken("cat", filters.category)}"`);
  if (filters.curated) terms.push(`tags : "${tagToken("curated")}"`);
  if (filters.archived === false) terms.push(`tags : "${tagToken("active")}"`);
  let matches = terms.join(" AND ");
  if (filters.archived === true) matches = `(${matches}) NOT tags : "${tagToken("active")}"`;
  return {
    matches,
    tiers: [
      `${matches} AND (${match.name})`,
      `(${matches} AND (${match.topics})) NOT (${match.name})`,
      `(${matches}) NOT ((${match.name}) OR (${match.topics}))`,
    ],
  };
}
