/**
 * Spelling correction for searches that find nothing: a word that matches nothing is replaced by
 * the nearest word of the index, for the search's retry and for the "did you mean" links.
 */
import type { FtsIndex } from "./fts";
import { prefixPhrase, type QueryWord, readWords } from "./match";
import type { BlobReader } from "./orders";
import type { Synonyms } from "./searchtext";
import { CORRECTABLE, TRIGRAMS, VOCABULARY, Vocabulary } from "./vocabulary";

/** `q` read into words, and the same with its unknown words corrected (null: nothing to correct). */
export type ReadQuery = { words: QueryWord[]; corrected?: QueryWord[] | null };

export const textOf = (words: readonly QueryWord[]) => words.map((w) => w.text).join(" ");

export class Speller {
  /** The correction vocabulary, read on the first correction. */
  private vocabularyCache: Vocabulary | null = null;

  constructor(
    private readonly fts: FtsIndex,
    private readonly blob: BlobReader,
    private readonly synonyms: Synonyms,
  ) {}

  /**
   * The query's words with each word that matches nothing replaced by the nearest word of the
   * index (see Vocabulary.nearest: by edit distance, failing that by trigrams); null when nothing
   * changed. Worked out once per read query.
   */
  corrected(read: ReadQuery): QueryWord[] | null {
    if (read.corrected !== undefined) return read.corrected;
    let changed = false;
    const words = read.words.map((word) => {
      const unknown = this.unknownToken(word);
      const nearest = unknown === null ? undefined : this.vocabulary().nearest(unknown, 1)[0];
      if (nearest === undefined) return word;
      changed = true;
      return readWords(nearest.word, this.synonyms)[0]!;
    });
    read.corrected = changed ? words : null;
    return read.corrected;
  }

  /** The word's token when it can be corrected and matches nothing, else null. */
  private unknownToken(word: QueryWord): string | null {
    const [token] = word.tokens;
    if (word.tokens.length !== 1 || !CORRECTABLE.test(token!)) return null;
    return this.fts.count(prefixPhrase(token!)) > 0 ? null : token!;
  }

  /**
   * "Did you mean": for a search that found nothing, up to `limit` searches with one word that
   * matches nothing replaced by one of its nearest words of the index, nearest first. Empty when
   * every word of `q` is found on its own (the words together, or the filters, found nothing).
   */
  suggestions(words: readonly QueryWord[], limit = 3): string[] {
    const found = new Set<string>();
    const options = words.flatMap((word, i) => {
      const unknown = this.unknownToken(word);
      if (unknown === null) return [];
      return this.vocabulary()
        .nearest(unknown, limit)
        .map((nearest, rank) => ({
          rank,
          text: textOf(words.map((w, j) => (j === i ? { ...w, text: nearest.word } : w))),
        }));
    });
    options.sort((a, b) => a.rank - b.rank);
    for (const { text } of options) if (found.size < limit) found.add(text);
    return [...found];
  }

  /** Takes `words` (read elsewhere) as the correction vocabulary, or reads it now. */
  prepare(words?: Vocabulary): void {
    if (words !== undefined) this.vocabularyCache ??= words;
    this.vocabulary();
  }

  /** The snapshot's correction vocabulary, read on first use. */
  private vocabulary(): Vocabulary {
    this.vocabularyCache ??= Vocabulary.decode(this.blob(VOCABULARY)!, this.blob(TRIGRAMS)!);
    return this.vocabularyCache;
  }
}
