/**
 * Work that grows with the catalog, run in slices of the event loop: the work is a generator that
 * yields wherever it may be paused; a slice runs it until its time is spent, then lets other
 * requests in before the next. Work that fits in the first slice is done at once. A step that
 * yields a promise (work done elsewhere, on a worker thread) ends the slice, and the work goes on
 * with the promise's value once it settles.
 */

/** Time one slice may hold the event loop. */
export const SLICE_MS = 8;

/** The work's value when it finished within the first slice, else the promise of it. */
export type Sliced<T> = { done: true; value: T } | { done: false; promise: Promise<T> };

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

type Ended<T> = { value: T } | { waitFor: Promise<unknown> } | undefined;

/** Runs one slice of `work`, resumed with `input`: its value when it ended, what it waits for, or undefined when time ran out. */
function slice<T>(work: Iterator<unknown, T, unknown>, sliceMs: number, input?: unknown): Ended<T> {
  const started = performance.now();
  let step = work.next(input);
  for (;;) {
    if (step.done) return { value: step.value };
    if (step.value instanceof Promise) return { waitFor: step.value };
    if (performance.now() - started >= sliceMs) return undefined;
    step = work.next();
  }
}

/** Runs `work` for a slice now and, if it is not done, in later slices. */
export function runSliced<T>(work: Iterator<unknown, T, unknown>, sliceMs = SLICE_MS): Sliced<T> {
  const first = slice(work, sliceMs);
  if (first !== undefined && "value" in first) return { done: true, value: first.value };
  const promise = (async (): Promise<T> => {
    let ended: Ended<T> = first;
    for (;;) {
      const input: unknown =
        ended === undefined ? await nextTurn() : await (ended as { waitFor: Promise<unknown> }).waitFor;
      ended = slice(work, sliceMs, input);
      if (ended !== undefined && "value" in ended) return ended.value;
    }
  })();
  return { done: false, promise };
}
