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
