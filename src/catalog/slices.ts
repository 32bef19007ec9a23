/**
 * Work that grows with the catalog, run in slices of the event loop: the work is a generator that
 * yields wherever it may be paused; a slice runs it until its time is spent, then lets other
 * requests in before the next. Work that fits in the first slice is done at once.
 */

/** Time one slice may hold the event loop. */
export const SLICE_MS = 8;

/** The work's value when it finished within the first slice, else the promise of it. */
export type Sliced<T> = { done: true; value: T } | { done: false; promise: Promise<T> };

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Runs one slice of `work`: its value when it ended, or undefined when time ran out first (throws what it throws). */
function slice<T>(work: Iterator<unknown, T>, sliceMs: number): { value: T } | undefined {
  const started = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return { value: step.value };
    if (performance.now() - started >= sliceMs) return undefined;
  }
}

/** Runs `work` for a slice now and, if it is not done, in later slices. */
export function runSliced<T>(work: Iterator<unknown, T>, sliceMs = SLICE_MS): Sliced<T> {
  const first = slice(work, sliceMs);
  if (first !== undefined) return { done: true, value: first.value };
  const promise = (async () => {
    for (;;) {
      await nextTurn();
      const next = slice(work, sliceMs);
      if (next !== undefined) return next.value;
    }
  })();
  return { done: false, promise };
}
