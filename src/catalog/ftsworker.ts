/**
 * Worker thread of the builder: writes the full-text index (and the schema) of a new snapshot file
 * while the builder's own thread sorts and serializes the plugins. It answers through shared
 * memory, since the builder waits synchronously: `state[0]` becomes DONE or FAILED, and on
 * failure `message` holds the error text, UTF-8, its length in `state[1]`.
 */
import { INDEX_DONE, INDEX_FAILED, writeIndex, type IndexJob } from "./ftsindex";

declare const self: Worker;

self.onmessage = (event: MessageEvent<IndexJob>) => {
  const { path, rows, state, message } = event.data;
  const flags = new Int32Array(state);
  try {
    writeIndex(path, rows);
    Atomics.store(flags, 0, INDEX_DONE);
  } catch (error) {
    const { written } = new TextEncoder().encodeInto(String((error as Error).message ?? error), new Uint8Array(message));
    Atomics.store(flags, 1, written);
    Atomics.store(flags, 0, INDEX_FAILED);
  }
  Atomics.notify(flags, 0);
};
