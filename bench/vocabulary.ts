/**
 * Search words for the cold runs, taken from the real data the synthetic catalogs are drawn from:
 * every distinct word (for searches that each miss every cache) and the broad terms, words and
 * one-letter prefixes found in a large share of plugins (for the worst case of ranking).
 */
import type { RepoFacts } from "../src/catalog/model/types";

export interface Vocabulary {
  /** Distinct words of three letters or more, most frequent first. */
  words: string[];
  /** Words and one-letter prefixes found in at least `broadShare` of the plugins. */
  broad: string[];
}

const TOKEN = /[\p{L}\p{N}]+/gu;

function tokensOf(f: RepoFacts): Set<string> {
  const name = f.full_name.split("/")[1] ?? "";
  const text = `${name} ${(f.topics ?? []).join(" ")} ${f.description ?? ""}`.toLowerCase();
  return new Set(text.match(TOKEN) ?? []);
}

function shareOf(counts: Map<string, number>, key: string, total: number): number {
  return (counts.get(key) ?? 0) / total;
}

export function vocabulary(facts: RepoFacts[], broadShare = 0.3): Vocabulary {
  const words = new Map<string, number>();
  const letters = new Map<string, number>();
  for (const f of facts) {
    const tokens = tokensOf(f);
    for (const t of tokens) words.set(t, (words.get(t) ?? 0) + 1);
    for (const letter of new Set([...tokens].map((t) => t[0]!))) letters.set(letter, (letters.get(letter) ?? 0) + 1);
  }
  const total = facts.length;
  const byCount = (counts: Map<string, number>) =>
    [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1));
  return {
    words: byCount(words).filter((w) => w.length >= 3 && /^[a-z][a-z0-9]*$/.test(w)),
    broad: [
      ...byCount(words).filter((w) => w.length >= 2 && shareOf(words, w, total) >= broadShare),
      ...byCount(letters).filter((l) => /[a-z]/.test(l) && shareOf(letters, l, total) >= broadShare),
    ],
  };
}

/** Every query of one to three distinct broad terms, in a fixed shuffled order. */
export function broadQueries(broad: string[], next: () => number): string[] {
  const queries: string[] = [];
  for (const a of broad) {
    queries.push(a);
    for (const b of broad) {
      if (b === a) continue;
      queries.push(`${a} ${b}`);
      for (const c of broad) if (c !== a && c !== b) queries.push(`${a} ${b} ${c}`);
    }
  }
  return shuffle(queries, next);
}

export function shuffle<T>(list: T[], next: () => number): T[] {
  const copy = list.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
