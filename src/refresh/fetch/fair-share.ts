/** Sharing one query's reads fairly among its repositories. */

/** The most folders each repository may read so that all of them together stay within `total`. */
export function fairShare(wanted: readonly number[], total: number): number {
  let low = 0;
  let high = Math.max(0, ...wanted);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (wanted.reduce((sum, n) => sum + Math.min(n, mid), 0) <= total) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Queries one follow-up round may send for a batch: big repositories get rounds of their own, up to this many. */
export const ROUNDS_PER_FOLLOW_UP = 4;

/**
 * Splits `items` into at most `rounds` queries, in order, so that each query's reads stay within
 * `caps` (one cap per kind of read, `needs` giving an item's reads of each kind): an item joins the
 * current query while everything fits, and starts the next one when it does not. What the last
 * query cannot hold is shared fairly there. An item that alone needs more than a cap gets a query
 * of its own and the cap whole.
 */
export function packRounds<T>(
  items: readonly T[],
  needs: (item: T) => readonly number[],
  caps: readonly number[],
  rounds = ROUNDS_PER_FOLLOW_UP,
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let used = caps.map(() => 0);
  for (const item of items) {
    const want = needs(item);
    const fits = want.every((n, k) => used[k]! + Math.min(n, caps[k]!) <= caps[k]!);
    if (!fits && current.length > 0 && groups.length < rounds - 1) {
      groups.push(current);
      current = [];
      used = caps.map(() => 0);
    }
    current.push(item);
    used = used.map((u, k) => u + Math.min(want[k] ?? 0, caps[k]!));
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * The rounds of a follow-up that reads one kind of thing, at most `cap` a query: `todo` packed by
 * packRounds, and each item's reads cut (`cut`) to its round's fair share of the cap.
 */
export function fairRounds<T>(
  todo: readonly T[],
  reads: (item: T) => number,
  cap: number,
  cut: (item: T, share: number) => void,
): T[][] {
  const rounds = packRounds(todo, (t) => [reads(t)], [cap]);
  for (const round of rounds) {
    const share = fairShare(round.map(reads), cap);
    for (const t of round) cut(t, share);
  }
  return rounds;
}
