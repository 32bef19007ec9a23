/**
 * A child process that finds or writes a snapshot's client-sync documents (doc-files.ts), so the
 * server only receives their index and its memory never holds their writing (a small snapshot's
 * are found or written in the server itself, documentsOf).
 * `bun documents-job.ts <path> <root> <snapshotAt>` prints one WriterAnswer as JSON.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Snapshot } from "../catalog/snapshot/snapshot";
import { documentsKey, spareDocumentsRoot, verifiedIndex, type WriterAnswer } from "./doc-files";
import { type DocumentIndex, writeDocuments } from "./doc-writer";

/**
 * The documents of `snapshot`, opened from `path`, under `root`: found and checked, or written;
 * where `root` cannot be written (a read-only volume), under the temporary directory instead.
 */
export function documentsOf(
  snapshot: Snapshot,
  path: string,
  root: string,
): { index: DocumentIndex; dir: string; reused: boolean } {
  const key = documentsKey(snapshot, path);
  const roots = [root, spareDocumentsRoot(path)];
  for (const where of roots) {
    const found = verifiedIndex(join(where, key), key);
    if (found !== null) return { index: found, dir: join(where, key), reused: true };
  }
  let failure: unknown;
  for (const where of roots) {
    try {
      mkdirSync(where, { recursive: true });
      return { index: writeDocuments(snapshot, key, join(where, key)), dir: join(where, key), reused: false };
    } catch (error) {
      failure ??= error;
    }
  }
  throw failure;
}

/** The documents of the snapshot at `path` (which must hold `snapshotAt`) under `root`, or why there are none. */
function documentsHere(path: string, root: string, snapshotAt: string): WriterAnswer {
  let snapshot: Snapshot | null = null;
  try {
    snapshot = Snapshot.open(path);
    if (snapshot.snapshotAt !== snapshotAt) throw new Error(`${path} holds another snapshot now`);
    return documentsOf(snapshot, path, root);
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    snapshot?.close();
  }
}

if (import.meta.main) {
  const [path = "", root = "", snapshotAt = ""] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(documentsHere(path, root, snapshotAt)));
}
