/**
 * A worker thread that reads a snapshot's correction vocabulary (large blobs in a large catalog)
 * and finds its words' starts and trigram counts, so the event loop only receives them.
 * Message in: { path, snapshotAt }; out: VocabularyParts, or null when the file at `path` is
 * another snapshot or has no stored vocabulary.
 */
import { Database } from "bun:sqlite";
import { blobReader } from "./orders";
import { decodeParts, TRIGRAMS, VOCABULARY } from "./vocabulary";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ path: string; snapshotAt: string }>) => {
  const { path, snapshotAt } = event.data;
  let db: Database | null = null;
  try {
    db = new Database(path, { readonly: true });
    const stats = db.query<{ value: string }, []>(`SELECT value FROM meta WHERE key = 'stats'`).get();
    if (stats === null || (JSON.parse(stats.value) as { snapshotAt: string }).snapshotAt !== snapshotAt) {
      return postMessage(null);
    }
    const blob = blobReader(db);
    const text = blob(VOCABULARY);
    const index = blob(TRIGRAMS);
    if (!text || !index) return postMessage(null);
    const parts = decodeParts(text, index);
    const buffers = new Set([parts.text.buffer, parts.index.buffer, parts.starts.buffer, parts.gramCounts.buffer]);
    postMessage(parts, [...buffers] as ArrayBuffer[]);
  } catch {
    postMessage(null);
  } finally {
    db?.close();
  }
};
