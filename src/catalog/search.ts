/**
 * Turns a user's `q` into FTS5 match expressions. Every token is quoted, so search syntax
 * (quotes, `*`, `-`, `:`, parentheses, AND/OR/NOT/NEAR) is plain text and never an FTS5 error.
 */

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
  return { all: phrases.join(" AND "), name: `name : (${any})`, topics: `topics : (${any})` };
}
