/**
 * Turns a user's `q` into FTS5 match expressions. Every token is quoted, so search syntax
 * (quotes, `*`, `-`, `:`, parentheses, AND/OR/NOT/NEAR) is plain text and never an FTS5 error.
 */
import { tagToken } from "./schema";

export interface MatchQuery {
  /** Every word somewhere in name, topics or description. */
  all: string;
  /** Any word in the name: the first relevance tier. */
  name: string;
  /** Any word in the topics: the second relevance tier. */
  topics: string;
}

/** The characters unicode61 keeps inside tokens; everything else separates them. */
const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/**
 * One phrase per whitespace-separated word, its last token a prefix: `mcp-ser` → `"mcp ser"*`,
 * which finds `mcp-server`. Returns null when `q` holds no searchable token at all.
 */
export function toMatchQuery(q: string): MatchQuery | null {
  const phrases: string[] = [];
  for (const word of q.split(/\s+/)) {
    const tokens = word.match(TOKEN);
    if (tokens) phrases.push(`"${tokens.join(" ")}"*`);
  }
  if (phrases.length === 0) return null;
  const any = phrases.join(" OR ");
  // The user's words never reach the `tags` column, which holds the filter tokens.
  return { all: `{name topics description} : (${phrases.join(" AND ")})`, name: `name : (${any})`, topics: `topics : (${any})` };
}

export interface SearchFilters {
  category: string | null;
  curated: boolean;
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
  const matches = terms.join(" AND ");
  return {
    matches,
    tiers: [
      `${matches} AND (${match.name})`,
      `(${matches} AND (${match.topics})) NOT (${match.name})`,
      `(${matches}) NOT ((${match.name}) OR (${match.topics}))`,
    ],
  };
}
