/**
 * `bun bench/vocabulary-aside.ts <snapshot> [rounds]`: what reading a snapshot's correction
 * vocabulary costs the event loop, read in line (`prepareVocabulary()`, as the first correction
 * did before a snapshot was prepared) against read on a worker thread (`readVocabularyOnWorker`, as the
 * store prepares a large snapshot): the wall time, the longest the event loop was held (a 1 ms
 * timer's largest gap) and the first correction afterwards, alternating, in one process.
 */

import { readVocabularyOnWorker } from "../src/catalog/search/vocabulary";
import { Snapshot } from "../src/catalog/snapshot/snapshot";

const [path, roundsArg] = process.argv.slice(2);
if (!path) {
  console.error("usage: bun bench/vocabulary-aside.ts <snapshot> [rounds]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 5);

/** Runs `work` while a 1 ms timer ticks: its wall time and the timer's largest gap. */
async function held(work: () => Promise<unknown> | unknown): Promise<{ wallMs: number; heldMs: number }> {
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  await Bun.sleep(5);
  clearInterval(timer);
  gap = Math.max(gap, performance.now() - last);
  return { wallMs, heldMs: gap };
}

const f = (n: number) => n.toFixed(1);
for (let round = 0; round < rounds; round++) {
  for (const way of ["in line", "worker"] as const) {
    const snapshot = Snapshot.open(path);
    try {
      const { wallMs, heldMs } = await held(async () => {
        if (way === "in line") snapshot.prepareVocabulary();
        else snapshot.prepareVocabulary((await readVocabularyOnWorker(path, snapshot.snapshotAt)) ?? undefined);
      });
      const started = performance.now();
      snapshot.suggestions("zqvxblorp");
      const firstMs = performance.now() - started;
      console.log(
        `${way}: wall ${f(wallMs)} ms, event loop held at most ${f(heldMs)} ms; first correction then ${f(firstMs)} ms`,
      );
    } finally {
      snapshot.close();
    }
  }
}
