import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { MAX_CORRECTED_WORDS, MAX_EXAMINED_WORDS } from "../../src/catalog/search/correction";
import {
  MAX_LIST,
  MIN_SIMILARITY,
  similarity,
  trigramIndex,
  trigramsOf,
  Vocabulary,
  vocabularyOf,
} from "../../src/catalog/search/vocabulary";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { plugin, snapshotInput, tempDir } from "../helpers";

const vocabulary = (words: string[]) => Vocabulary.fromWords(words);

describe("trigrams", () => {
  test("a word's trigrams are those of its padded form, each once", () => {
    expect(trigramsOf("abc")).toHaveLength(4);
    expect(trigramsOf("aaaa")).toHaveLength(4);
    expect(similarity("playwright", "playwright")).toBe(1);
    // Seven of the fourteen distinct trigrams of the two are shared.
    expect(similarity("playwrite", "playwright")).toBe(0.5);
    expect(similarity("playwrite", "postgres")).toBeLessThan(MIN_SIMILARITY);
  });

  test("the vocabulary keeps ASCII words of 3 to 32 characters, most documents first", () => {
    const words = vocabularyOf([
      { term: "mcp", doc: 5 },
      { term: "server", doc: 9 },
      { term: "ab", doc: 99 },
      { term: "数据库", doc: 50 },
      { term: "agent", doc: 9 },
      { term: "x".repeat(33), doc: 1 },
    ]);
    expect(words).toEqual(["agent", "server", "mcp"]);
  });
});

describe("edit distance", () => {
  const distance = (word: string, candidate: string) => vocabulary([candidate]).nearest(word, 1)[0]?.distance;

  test("an adjacent transposition is one edit; a rotation is two, past one edit", () => {
    expect(distance("obsidain", "obsidian")).toBe(1);
    expect(distance("slakc", "slack")).toBe(1);
    expect(distance("figam", "figma")).toBe(1);
    expect(distance("abcd", "acdb")).not.toBe(1);
  });

  test("two edits from eight letters on", () => {
    expect(distance("postgress", "postgres")).toBe(1);
    expect(distance("kubernets", "kubernetes")).toBe(1);
    expect(distance("kubernts", "kubernetes")).toBe(2);
  });
});

/** Optimal string alignment distance, written plainly: the reference the vocabulary's is checked against. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => i + j * +(i === 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

describe("Vocabulary.nearest", () => {
  test("edit distance first, nearest then most frequent; same first letter", () => {
    // `obsidan` (one deletion) is listed after `obsidian` (one transposition): the more frequent wins.
    const v = vocabulary(["obsidian", "obsidan", "postgres", "bostgres"]);
    expect(v.nearest("obsidain", 2).map((n) => n.word)).toEqual(["obsidian", "obsidan"]);
    expect(v.nearest("postgress", 5).map((n) => n.word)).toEqual(["postgres"]);
  });

  test("compares at most `candidates` words by edit distance, the most frequent first", () => {
    const v = vocabulary(["obsidian", "obsidan"]);
    expect(v.nearest("obsidain", 2, 1).map((n) => n.word)).toEqual(["obsidian"]);
    // Past the candidates the word is sought by trigrams.
    const past = v.nearest("obsidnn", 2, 1);
    expect(past.length).toBeGreaterThan(0);
    expect(past.every((n) => n.distance === null)).toBe(true);
    expect(v.nearest("obsidnn", 2).map((n) => n.word)).toEqual(["obsidan"]);
  });

  test("past the edit distance, trigram similarity finds the word", () => {
    const v = vocabulary(["playwright", "playground", "postgres"]);
    const [best] = v.nearest("playwrite", 1);
    expect(best).toEqual({ word: "playwright", distance: null, similarity: 0.5 });
    expect(v.nearest("zzzzqqqq", 3)).toEqual([]);
  });

  test("a trigram shared by more than MAX_LIST words is not read, and the rest still find the word", () => {
    const filler = Array.from({ length: MAX_LIST + 10 }, (_, i) => `pla${i.toString(36)}`);
    const v = vocabulary([...filler, "playwright"]);
    expect(v.nearest("playwrite", 1)[0]?.word).toBe("playwright");
  });

  test("decodes what the builder stores", () => {
    const words = ["playwright", "postgres"];
    const index = trigramIndex(words);
    const v = Vocabulary.decode(new TextEncoder().encode(words.join("\n")), new Uint8Array(index.buffer));
    expect(v.words).toEqual(words);
    expect(v.nearest("playwrite", 1)[0]?.word).toBe("playwright");
  });
});

describe("a snapshot's corrections and suggestions", () => {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "catalog.sqlite");
  let snapshot: Snapshot;
  const list = (q: string) =>
    snapshot.list({ q, category: null, curated: false, sort: "default", offset: 0, limit: 10 });

  beforeAll(() => {
    publishSnapshot(
      path,
      snapshotInput([
        plugin("microsoft/playwright-mcp", { stars: 900, description: "Browser automation with Playwright" }),
        plugin("acme/playground", { stars: 5, description: "A playground for agents" }),
        plugin("crystaldba/postgres-mcp", { stars: 300, description: "Postgres tools" }),
      ]),
    );
    snapshot = Snapshot.open(path);
  });
  afterAll(() => {
    snapshot.close();
    cleanup();
  });

  test("a word three edits away is searched as its nearest word by trigrams", () => {
    const page = list("playwrite");
    expect(page.corrected).toBe("playwright");
    expect(page.total).toBe(1);
  });

  test("suggestions name the nearest words for the words that match nothing", () => {
    expect(snapshot.suggestions("playwrite")).toEqual(["playwright"]);
    expect(snapshot.suggestions("playwrite postgres", 2)[0]).toBe("playwright postgres");
    // Every word is found alone; together they find nothing: there is no word to correct.
    expect(list("playground postgres").total).toBe(0);
    expect(snapshot.suggestions("playground postgres")).toEqual([]);
    expect(snapshot.suggestions("zzzzqqqq")).toEqual([]);
  });

  test("a word's nearest words are worked out once for the correction and the suggestions", () => {
    const fresh = Snapshot.open(path);
    try {
      const decoded = Vocabulary.prototype.nearest;
      let calls = 0;
      Vocabulary.prototype.nearest = function (this: Vocabulary, ...args: Parameters<typeof decoded>) {
        calls++;
        return decoded.apply(this, args);
      };
      try {
        const q = "playwrite";
        fresh.list({ q, category: null, curated: false, sort: "default", offset: 0, limit: 10 });
        expect(fresh.suggestions(q)).toEqual(["playwright"]);
      } finally {
        Vocabulary.prototype.nearest = decoded;
      }
      expect(calls).toBe(1);
    } finally {
      fresh.close();
    }
  });

  test(`at most ${MAX_CORRECTED_WORDS} unknown words are corrected, among the first ${MAX_EXAMINED_WORDS} words`, () => {
    const unknown = ["qqqqxj", "wwwwxj", "kkkkxj", "vvvvxj"];
    // Alone, the misspelt word is corrected; after as many unknown words as the bound, it is not looked at.
    expect(snapshot.suggestions(`${unknown.slice(0, MAX_CORRECTED_WORDS - 1).join(" ")} playwrite`)).not.toEqual([]);
    expect(snapshot.suggestions(`${unknown.slice(0, MAX_CORRECTED_WORDS).join(" ")} playwrite`)).toEqual([]);
    const known = Array(MAX_EXAMINED_WORDS - 1)
      .fill("postgres")
      .join(" ");
    expect(snapshot.suggestions(`${known} playwrite`)).toEqual([`${known} playwright`]);
    expect(snapshot.suggestions(`${known} postgres playwrite`)).toEqual([]);
    expect(list(`${known} postgres playwrite`).corrected).toBeUndefined();
  });
});

describe("Vocabulary.nearest by edits, against a reference distance", () => {
  test("finds exactly the words a full scan with the reference distance finds, nearest and most frequent first", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[ab][a-c0-2]{2,9}$/), { minLength: 1, maxLength: 60 }),
        fc.stringMatching(/^[ab][a-c0-2]{3,10}$/),
        (words, word) => {
          const max = word.length >= 8 ? 2 : 1;
          const expected = words
            .map((candidate, w) => ({ w, candidate, distance: referenceDistance(word, candidate) }))
            .filter((c) => c.candidate[0] === word[0] && c.distance <= max)
            .sort((a, b) => a.distance - b.distance || a.w - b.w)
            .slice(0, 5)
            .map((c) => [c.candidate, c.distance]);
          const got = vocabulary(words)
            .nearest(word, 5)
            .filter((n) => n.distance !== null)
            .map((n) => [n.word, n.distance]);
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
