/**
 * The edit distance of a correction (optimal string alignment: an adjacent transposition is one
 * edit) between a word and a word of the vocabulary's stored bytes, bounded: past `max` it only says
 * so. Rows are reused across calls, so comparing thousands of candidates makes no string each.
 */

/** Three rows of the table, each `length` cells (more than the longest word). */
export function editRows(length: number): [Int32Array, Int32Array, Int32Array] {
  return [new Int32Array(length), new Int32Array(length), new Int32Array(length)];
}

/**
 * The edit distance of `word` and the `n` bytes of `text` from `start`, or `max` + 1 when it is
 * past `max`. Only the cells within `max` of the diagonal are worked out (a cell further away is
 * already past `max`), and a row past `max` everywhere ends the work.
 */
export function boundedDistance(
  word: string,
  text: Uint8Array,
  start: number,
  n: number,
  max: number,
  rows: [Int32Array, Int32Array, Int32Array],
): number {
  const m = word.length;
  const past = max + 1;
  if (Math.abs(n - m) > max) return past;
  let [before, previous, current] = rows;
  for (let j = 0; j <= n; j++) previous[j] = j <= max ? j : past;
  for (let i = 1; i <= m; i++) {
    const a = word.charCodeAt(i - 1);
    const from = Math.max(1, i - max);
    const to = Math.min(n, i + max);
    current[0] = i <= max ? i : past;
    current[from - 1] = from === 1 ? current[0]! : past;
    let best = current[from - 1]!;
    for (let j = from; j <= to; j++) {
      const b = text[start + j - 1]!;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a === b ? 0 : 1));
      if (i > 1 && j > 1 && a === text[start + j - 2] && word.charCodeAt(i - 2) === b)
        value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < best) best = value;
    }
    // The next row reads one cell past this row's band.
    if (to < n) current[to + 1] = past;
    if (best > max) return past;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  return Math.min(previous[n]!, past);
}
