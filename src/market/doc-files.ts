/**
 * Where a snapshot's client-sync documents live on disk: `<database>-sync/<key>/`, the key the
 * snapshot's identity (its time, its statistics, the file's length and SQLite header, the schema
 * and the documents' format). A start finds the documents the previous start wrote for the same
 * snapshot and checks them (every file's length and hash against the index) before it serves them;
 * otherwise they are written again. Both happen in a child process (documents-job.ts).
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isOtherProcessRunning } from "../base/atomic-write";
import { SCHEMA_VERSION } from "../catalog/model/snapshot-schema";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import { DOCUMENTS_FORMAT, type DocumentIndex, FILES, fileFacts, INDEX_FILE } from "./doc-writer";

/** The directory holding the documents of every snapshot served from `databasePath`. */
export function documentsRoot(databasePath: string): string {
  return `${databasePath}-sync`;
}

/** Where the documents go when the database's directory cannot be written: the temporary directory, one per database path. */
export function spareDocumentsRoot(databasePath: string): string {
  return join(tmpdir(), `plugin-catalog-sync-${Bun.hash(resolve(databasePath)).toString(36)}`);
}

/** The identity of the snapshot opened from `path`: its documents' directory name. */
export function documentsKey(snapshot: Snapshot, path: string): string {
  const header = new Uint8Array(100);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, header.byteLength, 0);
  } finally {
    closeSync(fd);
  }
  const facts = `${SCHEMA_VERSION}|${DOCUMENTS_FORMAT}|${statSync(path).size}|${JSON.stringify(snapshot.stats)}`;
  const digest = Bun.hash(header, Bun.hash(facts));
  return `${snapshot.snapshotAt.replace(/[^0-9A-Za-z]/g, "")}-${digest.toString(36)}`;
}

/** True when `index` describes regions within its files, one change set per history time. */
function wellFormed(index: DocumentIndex): boolean {
  const size = (name: string) => index.files[name]?.bytes ?? -1;
  return (
    Array.isArray(index.times) &&
    Array.isArray(index.changeSets) &&
    index.times.length === index.changeSets.length &&
    Array.isArray(index.groups) &&
    index.catalog.plainBytes === size(FILES.catalog) &&
    index.catalog.gzipBytes === size(FILES.catalogGzip) &&
    index.groups.every(
      (g) =>
        g.plainOffset + g.plainBytes <= size(FILES.groups) &&
        g.deflatedOffset + g.deflatedBytes <= size(FILES.groupsDeflate),
    )
  );
}

/** The index of the documents in `dir` when they are whole and of the snapshot `key`, else null. */
export function verifiedIndex(dir: string, key: string): DocumentIndex | null {
  let index: DocumentIndex;
  try {
    index = JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8")) as DocumentIndex;
    if (index.format !== DOCUMENTS_FORMAT || index.key !== key || !wellFormed(index)) return null;
    for (const name of Object.values(FILES)) {
      const facts = fileFacts(join(dir, name));
      const recorded = index.files[name]!;
      if (facts.bytes !== recorded.bytes || facts.hash !== recorded.hash) return null;
    }
  } catch {
    return null;
  }
  return index;
}

/** What the writer answers: the documents' index and directory, or why there are none. */
export type WriterAnswer = { index: DocumentIndex; dir: string; reused: boolean } | { error: string };

const JOB = join(import.meta.dir, "documents-job.ts");

/**
 * The documents of the snapshot at `path` (which must still be the one of `snapshotAt`), found or
 * written by a child process, killed if this process exits first.
 */
export async function documentsInChild(
  path: string,
  snapshotAt: string,
): Promise<{ index: DocumentIndex; dir: string; reused: boolean }> {
  const child = Bun.spawn([process.execPath, JOB, path, documentsRoot(path), snapshotAt], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  try {
    const [output, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    let answer: WriterAnswer;
    try {
      answer = JSON.parse(output) as WriterAnswer;
    } catch {
      throw new Error(`the documents' writer ended with ${code} and no answer`);
    }
    if ("error" in answer) throw new Error(answer.error);
    return answer;
  } finally {
    process.off("exit", orphaned);
  }
}

/**
 * Removes the documents of other snapshots than `keep` under `root`, and the half-written ones of
 * processes no longer running; a response still sending a removed file keeps it open.
 */
export async function removeOtherDocuments(root: string, keep: ReadonlySet<string>): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /\.tmp-(\d+)-[0-9a-z]+$/.exec(name)?.[1];
    if (pid !== undefined ? isOtherProcessRunning(Number(pid)) || Number(pid) === process.pid : keep.has(name))
      continue;
    await rm(join(root, name), { recursive: true, force: true });
  }
}
