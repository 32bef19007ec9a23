/**
 * A worker thread that finds or writes a snapshot's client-sync documents (docfiles.ts), so the
 * event loop only receives their index. Message in: { path, root, snapshotAt }; out: WorkerAnswer.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Snapshot } from "../catalog/snapshot/snapshot";
import { documentsKey, verifiedIndex, type WorkerAnswer } from "./docfiles";
import { writeDocuments } from "./docwriter";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ path: string; root: string; snapshotAt: string }>) => {
  const { path, root, snapshotAt } = event.data;
  let snapshot: Snapshot | null = null;
  let answer: WorkerAnswer;
  try {
    snapshot = Snapshot.open(path);
    if (snapshot.snapshotAt !== snapshotAt) throw new Error(`${path} holds another snapshot now`);
    const key = documentsKey(snapshot, path);
    const dir = join(root, key);
    const found = verifiedIndex(dir, key);
    if (found !== null) answer = { index: found, dir, reused: true };
    else {
      mkdirSync(root, { recursive: true });
      answer = { index: writeDocuments(snapshot, key, dir), dir, reused: false };
    }
  } catch (error) {
    answer = { error: (error as Error).message };
  } finally {
    snapshot?.close();
  }
  postMessage(answer);
};
