/** The banded edit distance agrees with the whole table wherever a caller reads it. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { editDistance } from "../../src/catalog/search";

describe("editDistance against the full table", () => {
  /** The whole Levenshtein table, no band and no early exit. */
  function reference(a: string, b: string): number {
    let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      }
      previous = current;
    }
    return previous[b.length]!;
  }

  test("within max it is the distance; past it, max + 1", () => {
    const word = fc.stringMatching(/^[abcé]{0,12}$/);
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const exact = reference(a, b);
        expect(editDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
      { numRuns: 3000 },
    );
  });
});
