/**
 * Spelling correction of a search's words: each word that matches nothing replaced by a near word
 * of the index (Vocabulary.nearest). The work is bounded per request: at most MAX_CORRECTED_WORDS
 * unknown words are corrected, found among the first MAX_EXAMINED_WORDS words, and together they
 * compare at most MAX_EDIT_CANDIDATES words by edit distance, what one word alone may; a word's
 * nearest words are worked out once, for the correction and the suggestions alike.
 */
import type { FtsIndex } from "./fts";
import { prefixPhrase, type QueryWord, readWords } from "./match";
import type { BlobReader } from "./orders";
import type { Synonyms } from "./search-text";
import { CORRECTABLE, MAX_EDIT_CANDIDATES, type Nearest, TRIGRAMS, VOCABULARY, Vocabulary } from "./vocabulary";

/** Unknown words a search corrects at most. */
export const MAX_CORRECTED_WORDS = 3;
/** Words of a search looked at for unknown ones: each costs an index count. */
export const MAX_EXAMINED_WORDS = 8;

/** Nearest words worked out per word: the suggestions' count, of which a correction takes the first. */
const NEAREST_KEPT = 3;
/** Words whose nearest words are remembered, per snapshot. */
const REMEMBERED = 256;

const textOf = (words: readonly QueryWord[]) => words.map((w) => w.text).join(" ");

export class Correction {
  /** The correction vocabulary, read on the first correction. */
  private vocabularyCache: Vocabulary | null = null;
  private readonly near = new Map<string, Nearest[]>();

  constructor(
    private readonly fts: FtsIndex,
    private readonly synonyms: Synonyms,
    private readonly blob: BlobReader,
  ) {}

  /**
   * The words with each unknown one replaced by the nearest word of the index (by edit distance,
   * failing that by trigrams); null when nothing changed.
   */
  corrected(read: readonly QueryWord[]): QueryWord[] | null {
    const words = [...read];
    let changed = false;
    const unknown = this.unknownWords(words);
    for (const { i, token } of unknown) {
      const nearest = this.nearest(token, unknown.length)[0];
      if (nearest === undefined) continue;
      changed = true;
      words[i] = readWords(nearest.word, this.synonyms)[0]!;
    }
    return changed ? words : null;
  }

  /**
   * "Did you mean": for a search that found nothing, up to `limit` searches with one word that
   * matches nothing replaced by one of its nearest words of the index, nearest first. Empty when
   * every word is found on its own (the words together, or the filters, found nothing).
   */
  suggestions(words: readonly QueryWord[], limit: number): string[] {
    const unknown = this.unknownWords(words);
    const options = unknown.flatMap(({ i, token }) =>
      this.nearest(token, unknown.length, limit)
        .slice(0, limit)
        .map((nearest, rank) => ({
          rank,
          text: textOf(words.map((w, j) => (j === i ? { ...w, text: nearest.word } : w))),
        })),
    );
    options.sort((a, b) => a.rank - b.rank);
    const found = new Set<string>();
    for (const { text } of options) if (found.size < limit) found.add(text);
    return [...found];
  }

  /** Takes `words` (read elsewhere) as the correction vocabulary, or reads it now. */
  prepare(words?: Vocabulary): void {
    if (words !== undefined) this.vocabularyCache ??= words;
    this.vocabulary();
  }

  /** The words that can be corrected and match nothing, with their place, within the bounds. */
  private unknownWords(words: readonly QueryWord[]): Array<{ i: number; token: string }> {
    const unknown: Array<{ i: number; token: string }> = [];
    for (let i = 0; i < Math.min(words.length, MAX_EXAMINED_WORDS); i++) {
      const [token] = words[i]!.tokens;
      if (words[i]!.tokens.length !== 1 || !CORRECTABLE.test(token!)) continue;
      if (this.fts.count(prefixPhrase(token!)) > 0) continue;
      unknown.push({ i, token: token! });
      if (unknown.length === MAX_CORRECTED_WORDS) break;
    }
    return unknown;
  }

  /** The nearest words of `token`, one of `of` unknown words sharing the request's candidates. */
  private nearest(token: string, of: number, limit = NEAREST_KEPT): Nearest[] {
    const candidates = Math.floor(MAX_EDIT_CANDIDATES / of);
    const kept = Math.max(limit, NEAREST_KEPT);
    const key = `${token} ${candidates} ${kept}`;
    let found = this.near.get(key);
    if (found === undefined) {
      found = this.vocabulary().nearest(token, kept, candidates);
      if (this.near.size >= REMEMBERED) this.near.clear();
      this.near.set(key, found);
    }
    return found;
  }

  /** The snapshot's correction vocabulary, read on first use. */
  private vocabulary(): Vocabulary {
    this.vocabularyCache ??= Vocabulary.decode(this.blob(VOCABULARY)!, this.blob(TRIGRAMS)!);
    return this.vocabularyCache;
  }
}
