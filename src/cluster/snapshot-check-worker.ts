/** The worker thread of snapshot-check.ts: checks the file it is sent and replies once. */
import { checkSnapshotFile } from "./snapshot-check";

declare const self: Worker;

self.onmessage = (event: MessageEvent<string>) => {
  try {
    self.postMessage({ ok: true, found: checkSnapshotFile(event.data) });
  } catch (error) {
    self.postMessage({ ok: false, error: (error as Error).message });
  }
};
