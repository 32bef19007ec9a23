/**
 * The check of a shared snapshot file, run once and on a worker thread: an integrity check of a
 * large file takes long enough to stall every request if it ran on the event loop.
 */
import { Snapshot } from "../catalog/snapshot";
import { checkCounts, snapshotProblem } from "../catalog/validity";

export interface CheckedSnapshot {
  snapshotAt: string;
  total: number;
}

/** The whole check, on the calling thread: sound, a snapshot, every plugin indexed. */
export function checkSnapshotFile(path: string): CheckedSnapshot {
  const problem = snapshotProblem(path);
  if (problem !== null) throw new Error(`the shared snapshot fails its check: ${problem}`);
  const snapshot = Snapshot.open(path);
  let found: CheckedSnapshot;
  try {
    found = { snapshotAt: snapshot.snapshotAt, total: snapshot.stats.total };
  } finally {
    snapshot.close();
  }
  checkCounts(path, found.total);
  return found;
}

type Reply = { ok: true; found: CheckedSnapshot } | { ok: false; error: string };

/** Runs `checkSnapshotFile` on a worker thread; rejects with its error. */
export function checkSnapshotOffThread(path: string): Promise<CheckedSnapshot> {
  const worker = new Worker(new URL("./snapshot-check-worker.ts", import.meta.url).href);
  return new Promise<CheckedSnapshot>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<Reply>) => {
      if (event.data.ok) resolve(event.data.found);
      else reject(new Error(event.data.error));
    };
    worker.onerror = (event) => reject(new Error(`the snapshot check failed: ${event.message}`));
    worker.postMessage(path);
  }).finally(() => worker.terminate());
}
