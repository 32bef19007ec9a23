/**
 * The index's own words as spelling corrections draw on them: every ASCII term of three to 32
 * letters and digits, most documents first, with a trigram index over them. Both are built once
 * per snapshot by the builder and stored in the file as packed arrays, so a correction reads
 * lists of bounded length and never scans the vocabulary.
 *
 * A word's trigrams are those of ` ` + ` ` + word + ` ` (as PostgreSQL's pg_trgm pads them), each
 * a number below GRAMS. The index is compressed rows: GRAMS + 1 offsets, then per trigram the
 * positions of the words that hold it, in vocabulary order (most documents first).
 */
import { boundedDistance, editRows } from "./edit-distance";
import { decodeInt32 } from "./orders";

/** The `orders` keys of the vocabulary (words joined by newlines, UTF-8) and of its trigram index. */
export const VOCABULARY = "vocabulary";
export const TRIGRAMS = "trigrams";

/** A vocabulary word: what a correction may answer. */
const WORD = /^[a-z0-9]{3,32}$/;

/** A word a correction is tried for: ASCII letters and digits, four or more of them. */
export const CORRECTABLE = /^[a-z0-9]{4,}$/;

/** Space, `a`-`z`, `0`-`9`: the characters of a padded vocabulary word. */
const ALPHABET = 37;
export const GRAMS = ALPHABET ** 3;

/**
 * Trigram lists longer than this are not read: a trigram that many words share says little, and
 * the bound keeps the work of a correction the same however large the vocabulary grows.
 */
export const MAX_LIST = 4096;

/** Least trigram similarity (shared over distinct trigrams of both words) a correction needs. */
export const MIN_SIMILARITY = 0.35;

/** Words whose estimated similarity is best get their exact similarity computed. */
const EXACT_CANDIDATES = 32;

/** Words compared by edit distance at most (the most frequent first): a bound per correction. */
export const MAX_EDIT_CANDIDATES = 20_000;

function symbol(code: number): number {
  if (code === 32) return 0;
  if (code >= 97 && code <= 122) return code - 96;
  if (code >= 48 && code <= 57) return code - 48 + 27;
  return -1;
}

/** The distinct trigrams of `word` (lowercase ASCII letters and digits), as numbers. */
export function trigramsOf(word: string): number[] {
  const padded = `  ${word} `;
  const grams = new Set<number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const a = symbol(padded.charCodeAt(i));
    const b = symbol(padded.charCodeAt(i + 1));
    const c = symbol(padded.charCodeAt(i + 2));
    if (a < 0 || b < 0 || c < 0) continue;
    grams.add((a * ALPHABET + b) * ALPHABET + c);
  }
  return [...grams];
}

/** Trigram similarity of two words: shared distinct trigrams over the distinct trigrams of both. */
export function similarity(a: string, b: string): number {
  const left = new Set(trigramsOf(a));
  const right = trigramsOf(b);
  let shared = 0;
  for (const gram of right) if (left.has(gram)) shared++;
  const union = left.size + right.length - shared;
  return union === 0 ? 0 : shared / union;
}

/** The correction vocabulary of index terms with their document counts: most documents first. */
export function vocabularyOf(terms: Iterable<{ term: string; doc: number }>): string[] {
  const kept = [...terms].filter((t) => WORD.test(t.term));
  kept.sort((a, b) => b.doc - a.doc || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  return kept.map((t) => t.term);
}

/** The trigram index of `words`: GRAMS + 1 offsets, then the word positions of each trigram. */
export function trigramIndex(words: readonly string[]): Int32Array {
  const grams = words.map(trigramsOf);
  const offsets = new Int32Array(GRAMS + 1);
  for (const list of grams) for (const gram of list) offsets[gram + 1]!++;
  for (let g = 0; g < GRAMS; g++) offsets[g + 1]! += offsets[g]!;
  const index = new Int32Array(GRAMS + 1 + offsets[GRAMS]!);
  index.set(offsets);
  const next = offsets.slice(0, GRAMS);
  for (let w = 0; w < words.length; w++) for (const gram of grams[w]!) index[GRAMS + 1 + next[gram]!++] = w;
  return index;
}

/** How a candidate was found: by edit distance (smaller is nearer) or trigram similarity (larger is). */
export interface Nearest {
  word: string;
  distance: number | null;
  similarity: number;
}

/** What a vocabulary is made of: the stored text and index, with where each word starts and its trigram count. */
export interface VocabularyParts {
  text: Uint8Array;
  index: Int32Array;
  /** Where each word starts in `text`; the entry past the last word is the text's length + 1. */
  starts: Int32Array;
  /** Distinct trigrams per word. */
  gramCounts: Uint8Array;
}

/** The parts of a vocabulary whose text and index are given. */
export function vocabularyParts(text: Uint8Array, index: Int32Array): VocabularyParts {
  const breaks: number[] = [0];
  for (let i = text.indexOf(10); i >= 0; i = text.indexOf(10, i + 1)) breaks.push(i + 1);
  const count = text.length === 0 ? 0 : breaks.length;
  breaks[count] = text.length + 1;
  const postings = index.subarray(GRAMS + 1);
  const gramCounts = new Uint8Array(count);
  for (let i = 0; i < postings.length; i++) gramCounts[postings[i]!]!++;
  return { text, index, starts: Int32Array.from(breaks.slice(0, count + 1)), gramCounts };
}

/** The parts of a vocabulary as the builder stored it: the words' UTF-8 text and the packed index. */
export function decodeParts(text: Uint8Array, index: Uint8Array): VocabularyParts {
  return vocabularyParts(text, decodeInt32(index));
}

/**
 * The correction vocabulary of one snapshot and its trigram index. The words stay one string,
 * decoded from the stored text (ASCII only), found by their start offsets: no string per word is
 * made when a snapshot's vocabulary is opened, only a slice for each word a correction compares.
 */
export class Vocabulary {
  private readonly offsets: Int32Array;
  private readonly postings: Int32Array;
  /** Where each word starts in `text`; the entry past the last word is the text's length + 1. */
  private readonly starts: Int32Array;
  /** Distinct trigrams per word, and scratch counts per word (zero between calls). */
  private readonly gramCounts: Uint8Array;
  private readonly shared: Uint16Array;
  /** The words as one string (ASCII: its offsets are the text's), sliced per word compared. */
  private readonly all: string;
  private readonly text: Uint8Array;
  /** The edit distance's table rows, as long as the longest word allows (WORD: 32). */
  private readonly rows = editRows(40);

  private constructor({ text, index, starts, gramCounts }: VocabularyParts) {
    this.text = text;
    this.all = new TextDecoder().decode(text);
    this.starts = starts;
    this.offsets = index.subarray(0, GRAMS + 1);
    this.postings = index.subarray(GRAMS + 1);
    this.gramCounts = gramCounts;
    this.shared = new Uint16Array(gramCounts.length);
  }

  /** A vocabulary from parts read elsewhere (vocabularyParts, on a worker thread). */
  static fromParts(parts: VocabularyParts): Vocabulary {
    return new Vocabulary(parts);
  }

  /** A vocabulary of `words` (vocabularyOf's order) with its trigram index built here. */
  static fromWords(words: readonly string[]): Vocabulary {
    return new Vocabulary(vocabularyParts(new TextEncoder().encode(words.join("\n")), trigramIndex(words)));
  }

  /** A vocabulary as the builder stored it: the words' UTF-8 text and the packed index. */
  static decode(text: Uint8Array, index: Uint8Array): Vocabulary {
    return new Vocabulary(decodeParts(text, index));
  }

  get size(): number {
    return this.gramCounts.length;
  }

  /** Every word, in order (for tests and tools: the service reads words one at a time). */
  get words(): string[] {
    return Array.from({ length: this.size }, (_, w) => this.word(w));
  }

  private word(w: number): string {
    return this.all.slice(this.starts[w]!, this.starts[w + 1]! - 1);
  }

  private wordLength(w: number): number {
    return this.starts[w + 1]! - this.starts[w]! - 1;
  }

  /** Words whose padded form holds `gram`, most frequent first. */
  private list(gram: number): Int32Array {
    return this.postings.subarray(this.offsets[gram]!, this.offsets[gram + 1]!);
  }

  /**
   * The nearest words to `word` (which the index lacks), best first: those within the edit
   * distance (1, or 2 from eight letters on; an adjacent transposition is one edit) that start
   * with the same letter, nearest and then most frequent first; failing any, those sharing at
   * least MIN_SIMILARITY of their trigrams, most similar and then most frequent first. At most
   * `candidates` words (the most frequent) are compared by edit distance.
   */
  nearest(word: string, limit: number, candidates = MAX_EDIT_CANDIDATES): Nearest[] {
    const edits = this.byEdits(word, limit, candidates);
    return edits.length > 0 ? edits : this.byTrigrams(word, limit);
  }

  private byEdits(word: string, limit: number, candidates: number): Nearest[] {
    const max = word.length >= 8 ? 2 : 1;
    const first = symbol(word.charCodeAt(0));
    if (first < 0) return [];
    // The words starting with the same letter are the list of the trigram `  <letter>`.
    const starting = this.list(first).subarray(0, Math.min(candidates, MAX_EDIT_CANDIDATES));
    const found: Array<{ w: number; distance: number }> = [];
    for (const w of starting) {
      if (Math.abs(this.wordLength(w) - word.length) > max) continue;
      const distance = boundedDistance(word, this.text, this.starts[w]!, this.wordLength(w), max, this.rows);
      if (distance <= max) found.push({ w, distance });
    }
    found.sort((a, b) => a.distance - b.distance || a.w - b.w);
    return found.slice(0, limit).map(({ w, distance }) => ({
      word: this.word(w),
      distance,
      similarity: similarity(word, this.word(w)),
    }));
  }

  private byTrigrams(word: string, limit: number): Nearest[] {
    const grams = trigramsOf(word);
    const touched: number[] = [];
    for (const gram of grams) {
      const list = this.list(gram);
      if (list.length > MAX_LIST) continue;
      for (const w of list) if (this.shared[w]!++ === 0) touched.push(w);
    }
    // The EXACT_CANDIDATES best estimates, highest first (then most frequent), kept as they come:
    // of the tens of thousands of words a long word touches, few ever enter.
    const best: Array<{ w: number; estimate: number }> = [];
    const before = (estimate: number, w: number, other: { w: number; estimate: number }) =>
      estimate > other.estimate || (estimate === other.estimate && w < other.w);
    for (const w of touched) {
      const shared = this.shared[w]!;
      this.shared[w] = 0;
      const estimate = shared / (grams.length + this.gramCounts[w]! - shared);
      if (best.length === EXACT_CANDIDATES && !before(estimate, w, best[EXACT_CANDIDATES - 1]!)) continue;
      let at = best.length;
      while (at > 0 && before(estimate, w, best[at - 1]!)) at--;
      best.splice(at, 0, { w, estimate });
      if (best.length > EXACT_CANDIDATES) best.pop();
    }
    const scored = best.map(({ w }) => ({ w, value: similarity(word, this.word(w)) }));
    return scored
      .filter((s) => s.value >= MIN_SIMILARITY)
      .sort((a, b) => b.value - a.value || a.w - b.w)
      .slice(0, limit)
      .map(({ w, value }) => ({ word: this.word(w), distance: null, similarity: value }));
  }
}

/**
 * The stored vocabulary of the snapshot `snapshotAt` at `path`, read on a worker thread; null when
 * the file there is another snapshot, has none, or cannot be read (the caller reads it itself).
 */
export function readVocabularyOnWorker(path: string, snapshotAt: string): Promise<Vocabulary | null> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./vocabulary-worker.ts", import.meta.url).href);
    const done = (vocabulary: Vocabulary | null) => {
      worker.terminate();
      resolve(vocabulary);
    };
    worker.onmessage = (event: MessageEvent<VocabularyParts | null>) =>
      done(event.data === null ? null : Vocabulary.fromParts(event.data));
    worker.onerror = () => done(null);
    worker.postMessage({ path, snapshotAt });
  });
}
