/**
 * Look-alikes: a plugin named like a far more starred one of another owner (a random suffix, a
 * slip of one own word). Once per snapshot, with a symmetric-delete index of the most starred.
 */

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      next.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    row = next;
  }
  return row[b.length]!;
}

/** Every string `word` becomes with up to `depth` characters deleted: the symmetric-delete keys. */
function deletions(word: string, depth: number): Set<string> {
  const out = new Set([word]);
  let frontier = [word];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const w of frontier) {
      for (let i = 0; i < w.length; i++) {
        const shorter = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** A name's tail that looks generated: `-x7k2q`, letters and digits mixed, 4 to 8 long. */
const RANDOM_SUFFIX = /^(.+)-([a-z0-9]{4,8})$/;
/** Names shorter than this are too common words to call one a copy of another by spelling. */
export const MIN_LOOKALIKE_NAME = 6;
/** An original has at least this many times the look-alike's stars. */
export const LOOKALIKE_STAR_RATIO = 10;
/** Originals are among this many most starred plugins: imitation copies what is popular, and the index stays small. */
export const LOOKALIKE_ORIGINALS = 1000;
/** Names longer than this are compared by their random suffix only. */
const MAX_SPELLED_NAME = 40;
/** A word in this many plugin names (or 0.5% of them) or more is the catalog's vocabulary (claude, mcp, skills), not a project's own. */
const COMMON_WORD_NAMES = 5;
/** The shortest own word a one-letter (two-letter) slip may change: shorter ones are other words, not typos. */
const MIN_SLIPPED_WORD = [0, 6, 8];

const wordsOf = (name: string) => name.split(/[-_.]+/).filter(Boolean);

/**
 * For each plugin, the plugin of another owner it imitates, when that one has at least ten times
 * its stars: `<name>-<random suffix>` of it; or the same name, or one at edit distance 1 or 2 that
 * differs inside a single word of the project's own (not a word of the catalog's vocabulary, at
 * least six letters for one slip and eight for two). Generic names (`skills`, `claude-code`) and
 * names that differ in a whole word (`dbt-mcp`, `git-mcp`) are no imitation. The most starred
 * original wins, among the LOOKALIKE_ORIGINALS most starred. Once per snapshot, with a
 * symmetric-delete index of those, so the work grows with the catalog, not with its square.
 */
export function lookalikes(plugins: ReadonlyArray<{ id: string; name: string; stars: number }>): Map<string, string> {
  const byStars = [...plugins].sort((a, b) => b.stars - a.stars);
  const usage = new Map<string, number>();
  for (const p of byStars)
    for (const w of new Set(wordsOf(p.name.toLowerCase()))) usage.set(w, (usage.get(w) ?? 0) + 1);
  const common = Math.max(COMMON_WORD_NAMES, byStars.length / 200);
  const own = (word: string) => (usage.get(word) ?? 0) < common;
  const index = new Map<string, number[]>();
  const exact = new Map<string, number>();
  byStars.slice(0, LOOKALIKE_ORIGINALS).forEach((p, i) => {
    const name = p.name.toLowerCase();
    if (!exact.has(name)) exact.set(name, i);
    if (name.length < MIN_LOOKALIKE_NAME || name.length > MAX_SPELLED_NAME) return;
    for (const key of deletions(name, 2)) {
      const list = index.get(key) ?? index.set(key, []).get(key)!;
      list.push(i);
    }
  });
  const mostStars = byStars[0]?.stars ?? 0;
  /**
   * Whether `name` reads as a slip of `other`: the same words with one of the project's own (not
   * the catalog's vocabulary) there, or one own word mistyped (edit distance 1 from a word of six
   * letters or more, 2 from one of eight or more). Words are compared first, so most pairs cost nothing.
   */
  const originalWords = byStars.slice(0, LOOKALIKE_ORIGINALS).map((o) => wordsOf(o.name.toLowerCase()));
  const slip = (a: string[], b: string[]): boolean => {
    if (a.length !== b.length || !a.some(own)) return false;
    let differing: [string, string] | null = null;
    for (let k = 0; k < a.length; k++) {
      if (a[k] === b[k]) continue;
      if (differing !== null) return false;
      differing = [a[k]!, b[k]!];
    }
    if (differing === null) return true;
    const [typed, original] = differing;
    if (!own(original) || original.length < MIN_SLIPPED_WORD[1]!) return false;
    const d = distance(typed, original, 2);
    return d <= 2 && original.length >= MIN_SLIPPED_WORD[d]!;
  };
  const owner = (id: string) => id.slice(0, id.indexOf("/")).toLowerCase();
  const result = new Map<string, string>();
  byStars.forEach((p) => {
    if (LOOKALIKE_STAR_RATIO * Math.max(p.stars, 1) > mostStars) return;
    const name = p.name.toLowerCase();
    const fits = (o: { id: string; stars: number }) =>
      o.stars >= LOOKALIKE_STAR_RATIO * Math.max(p.stars, 1) && owner(o.id) !== owner(p.id);
    let best: number | undefined;
    const suffix = RANDOM_SUFFIX.exec(name);
    if (suffix && /\d/.test(suffix[2]!) && /[a-z]/.test(suffix[2]!)) {
      const i = exact.get(suffix[1]!);
      if (i !== undefined && fits(byStars[i]!)) best = i;
    }
    if (name.length >= MIN_LOOKALIKE_NAME && name.length <= MAX_SPELLED_NAME) {
      const words = wordsOf(name);
      const seen = new Set<number>();
      for (const key of deletions(name, 2)) {
        for (const i of index.get(key) ?? []) {
          // Lists run in stars order: past the first plugin with too few stars, none has enough.
          if (byStars[i]!.stars < LOOKALIKE_STAR_RATIO * Math.max(p.stars, 1) || (best !== undefined && i >= best))
            break;
          if (seen.has(i)) continue;
          seen.add(i);
          const o = byStars[i]!;
          if (o.id === p.id || !fits(o)) continue;
          if (slip(words, originalWords[i]!)) best = i;
        }
      }
    }
    if (best !== undefined) result.set(p.id.toLowerCase(), byStars[best]!.id);
  });
  return result;
}
