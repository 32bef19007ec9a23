/**
 * Text as the search index and the queries both read it: programming-language names written
 * with symbols become words (`c++` → `cplusplus`), and Chinese, Japanese and Korean runs are cut
 * into words with Intl.Segmenter, since the index's tokenizer keeps a whole run as one token.
 */

/** Names whose symbols the tokenizer would drop: `c++` would otherwise be the prefix `c`. */
const SYMBOL_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/(^|[^\p{L}\p{N}])c\+\+(?![\p{L}\p{N}])/giu, "$1cplusplus"],
  [/(^|[^\p{L}\p{N}])c#(?![\p{L}\p{N}])/giu, "$1csharp"],
  [/(^|[^\p{L}\p{N}])f#(?![\p{L}\p{N}])/giu, "$1fsharp"],
  [/(^|[^\p{L}\p{N}.])\.net(?![\p{L}\p{N}])/giu, "$1dotnet"],
];

/** A cheap test before the symbol patterns: most text holds none of their characters. */
const MAYBE_SYMBOL = /[+#]|\.net/i;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

let segmenter: Intl.Segmenter | null = null;

/** A run of CJK text as its words, separated by spaces. */
function segmentRun(run: string): string {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  const words: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(run)) if (isWordLike) words.push(segment);
  return words.join(" ");
}

/** Words of one meaning read as one (db/synonyms.json): each later word of a group as its first. */
export interface Synonyms {
  pattern: RegExp | null;
  canonical: ReadonlyMap<string, string>;
}

export const NO_SYNONYMS: Synonyms = { pattern: null, canonical: new Map() };

export function synonymsOf(groups: readonly (readonly string[])[]): Synonyms {
  const canonical = new Map<string, string>();
  for (const [first, ...others] of groups) for (const word of others) if (first) canonical.set(word, first);
  if (canonical.size === 0) return NO_SYNONYMS;
  const words = [...canonical.keys()].sort((a, b) => b.length - a.length).join("|");
  return { pattern: new RegExp(`(?<![\\p{L}\\p{N}])(${words})(?![\\p{L}\\p{N}])`, "giu"), canonical };
}

/**
 * Text with its symbol-written names as words, synonyms read as their group's first word, and its
 * CJK runs cut into words.
 */
export function searchText(text: string, synonyms: Synonyms = NO_SYNONYMS): string {
  let out = text;
  if (MAYBE_SYMBOL.test(out)) for (const [pattern, word] of SYMBOL_WORDS) out = out.replace(pattern, word);
  if (synonyms.pattern)
    out = out.replace(synonyms.pattern, (word) => synonyms.canonical.get(word.toLowerCase()) ?? word);
  return CJK.test(out) ? out.replace(CJK_RUN, (run) => ` ${segmentRun(run)} `) : out;
}
