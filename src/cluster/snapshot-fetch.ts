/**
 * Fetching a shared snapshot whose head was already checked (signature, declared size): in a child
 * process, so the bytes, the hash and the check never touch the serving thread. Each part's length
 * is read first (STRLEN) and must be the one the head implies, so a part swollen by a writer is not
 * fetched; the parts are written to the temporary file one at a time, hashed as they come, and the
 * file must hash to the head's SHA-256 before the checks of verify.ts run on it.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { RedisClient } from "bun";
import { partCount, partKey, partSize, type SnapshotHead } from "./snapshot-head";
import { type Verdict, verdictOfChild, verifyHere } from "./verify";

/** Longer than fetching and checking a sound snapshot of 100,000 plugins takes (bench/RESULTS.md). */
export const FETCH_TIMEOUT_MS = 90_000;

interface FetchRequest {
  url: string;
  head: SnapshotHead;
  path: string;
}

/** Fetches the snapshot `head` describes into `path` and checks it, in a child process. */
export function fetchSnapshotFile(url: string, head: SnapshotHead, path: string, timeoutMs = FETCH_TIMEOUT_MS) {
  // The address may hold a password: given on standard input, never on the command line.
  const request: FetchRequest = { url, head, path };
  return verdictOfChild(import.meta.path, [], JSON.stringify(request), timeoutMs);
}

/** Writes the parts into `path`; null when they are the declared bytes, else why not. */
async function download(client: RedisClient, { head, path }: FetchRequest): Promise<string | null> {
  const hash = new Bun.CryptoHasher("sha256");
  const fd = openSync(path, "w", 0o644);
  try {
    for (let part = 0; part < partCount(head.bytes); part++) {
      const expected = partSize(head.bytes, part);
      const length = await client.strlen(partKey(head.snapshotAt, part));
      if (length !== expected) return `part ${part} holds ${length} bytes where ${expected} are declared`;
      const bytes = await client.getBuffer(partKey(head.snapshotAt, part));
      if (bytes === null || bytes.byteLength !== expected) return `part ${part} changed while it was fetched`;
      hash.update(bytes);
      for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex") === head.sha256 ? null : "its bytes do not hash to the SHA-256 its head declares";
}

async function fetchHere(request: FetchRequest): Promise<Verdict> {
  const options = { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 2000 };
  const client = new RedisClient(request.url, options);
  let problem: string | null;
  try {
    await client.connect();
    problem = await download(client, request);
  } catch (error) {
    return { ok: false, problem: `Redis: ${(error as Error).message}`, retry: true };
  } finally {
    client.close();
  }
  return problem === null ? verifyHere(request.path) : { ok: false, problem };
}

if (import.meta.main) {
  const request = JSON.parse(await Bun.stdin.text()) as FetchRequest;
  process.stdout.write(JSON.stringify(await fetchHere(request)));
}
