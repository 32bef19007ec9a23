/** Whether a snapshot file can serve: the one check at start-up, at each swap, and before publishing. */
import { Database } from "bun:sqlite";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { Snapshot } from "./snapshot";

const MAGIC = "SQLite format 3\0";

/**
 * A check that costs one 100-byte read, cheap enough for the request that notices a swap:
 * the file starts with SQLite's header and is as long as the header says (a truncated copy is not).
 */
export function headerProblem(path: string): string | null {
  const header = Buffer.alloc(100);
  let size: number;
  const fd = openSync(path, "r");
  try {
    size = statSync(path).size;
    if (readSync(fd, header, 0, 100, 0) < 100 || header.toString("latin1", 0, 16) !== MAGIC) {
      return "not a SQLite database";
    }
  } finally {
    closeSync(fd);
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // The header's page count is valid only when the change counter matches (SQLite file format, 1.3.7).
  const expected = header.readUInt32BE(24) === header.readUInt32BE(92) ? pages * pageSize : 0;
  return size < expected ? `truncated: ${size} of ${expected} bytes` : null;
}

/** Why the file at `path` cannot serve (damaged pages, not a database, not a snapshot), or null. */
export function snapshotProblem(path: string): string | null {
  let db: Database | undefined;
  try {
    const damage = headerProblem(path);
    if (damage !== null) return damage;
    db = new Database(path, { readonly: true, strict: true });
    const rows = db.query<{ quick_check: string }, []>("PRAGMA quick_check").all();
    const findings = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
    if (findings.length) return `integrity check failed: ${findings.slice(0, 3).join("; ")}`;
    Snapshot.open(path).close();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    db?.close();
  }
}

/** Throws when a freshly built file is not a sound snapshot of `expectedTotal` plugins, all indexed. */
export function checkBuiltSnapshot(path: string, expectedTotal: number): void {
  const problem = snapshotProblem(path);
  if (problem !== null) throw new Error(`snapshot file fails its check: ${problem}`);
  checkCounts(path, expectedTotal);
}

/** Throws unless the snapshot at `path` (already checked sound) holds `expectedTotal` plugins, all indexed. */
export function checkCounts(path: string, expectedTotal: number): void {
  const db = new Database(path, { readonly: true, strict: true });
  try {
    const plugins = db.query<{ n: number }, []>("SELECT count(*) AS n FROM plugins").get()?.n;
    const indexed = db.query<{ n: number }, []>("SELECT count(*) AS n FROM plugins_fts").get()?.n;
    if (plugins !== expectedTotal || indexed !== expectedTotal) {
      throw new Error(`snapshot file holds ${plugins} plugins (${indexed} indexed), expected ${expectedTotal}`);
    }
  } finally {
    db.close();
  }
}
