/**
 * Whether a snapshot file can serve, and a copy of the last one that could. The copy lets a start
 * with a damaged database (truncated by a full disk, overwritten in place) fall back to the newest
 * catalog it had rather than to the older embedded default.
 */
import { Database } from "bun:sqlite";
import { closeSync, copyFileSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import { copyFile, rename, rm } from "node:fs/promises";
import { temporaryPath } from "./publish";
import { Snapshot } from "./snapshot";

/** `db/catalog.sqlite` → `db/catalog.sqlite-last-good` (ignored by git with the database). */
export function lastGoodPath(path: string): string {
  return `${path}-last-good`;
}

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
    if (readSync(fd, header, 0, 100, 0) < 100 || header.toString("latin1", 0, 16) !== MAGIC) return "not a SQLite database";
  } finally {
    closeSync(fd);
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // The page count in the header is valid only when the change counter matches (SQLite file format, 1.3.7).
  const expected = header.readUInt32BE(24) === header.readUInt32BE(92) ? pages * pageSize : 0;
  return size < expected ? `truncated: ${size} of ${expected} bytes` : null;
}

/** Why the file at `path` cannot serve (damaged pages, not a database, not a snapshot), or null. */
export function snapshotProblem(path: string): string | null {
  try {
    const damage = headerProblem(path);
    if (damage !== null) return damage;
  } catch (error) {
    return (error as Error).message;
  }
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true, strict: true });
    const rows = db.query<{ quick_check: string }, []>("PRAGMA quick_check").all();
    const findings = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
    if (findings.length) return `integrity check failed: ${findings.slice(0, 3).join("; ")}`;
  } catch (error) {
    return (error as Error).message;
  } finally {
    db?.close();
  }
  try {
    Snapshot.open(path).close();
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

/** The snapshot time a good file records, or null when it cannot be read. */
function snapshotAtOf(path: string): string | null {
  try {
    const snapshot = Snapshot.open(path);
    const at = snapshot.snapshotAt;
    snapshot.close();
    return at;
  } catch {
    return null;
  }
}

/** True when the last-good copy already holds this file's snapshot. */
function copyIsCurrent(path: string): boolean {
  const copy = lastGoodPath(path);
  if (!existsSync(copy) || statSync(copy).size !== statSync(path).size) return false;
  return snapshotAtOf(copy) === snapshotAtOf(path);
}

/** Copies `from` to `to` through a temporary file beside `to`, so the copy is whole or absent. */
function copyWhole(from: string, to: string): void {
  const tmp = temporaryPath(to);
  try {
    copyFileSync(from, tmp);
    renameSync(tmp, to);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Copies a checked snapshot to the last-good path (through a temporary file, so a copy is whole or absent). */
export function saveLastGood(path: string): boolean {
  if (copyIsCurrent(path)) return false;
  copyWhole(path, lastGoodPath(path));
  return true;
}

/**
 * The same off the request path, when a running server swaps in a new snapshot; the copy gets the
 * cheap checks only (the refresher ran the full one before publishing).
 */
export async function saveLastGoodInBackground(path: string): Promise<boolean> {
  if (copyIsCurrent(path)) return false;
  const copy = lastGoodPath(path);
  const tmp = temporaryPath(copy);
  try {
    await copyFile(path, tmp);
    const damage = headerProblem(tmp) ?? (snapshotAtOf(tmp) === null ? "not a snapshot" : null);
    if (damage !== null) throw new Error(`not kept as the last good snapshot: ${damage}`);
    await rename(tmp, copy);
  } finally {
    await rm(tmp, { force: true });
  }
  return true;
}

/** Puts the last-good copy back at `path` when it passes the check; its snapshot time, or null. */
export function restoreLastGood(path: string): string | null {
  const copy = lastGoodPath(path);
  if (!existsSync(copy) || snapshotProblem(copy) !== null) return null;
  copyWhole(copy, path);
  return snapshotAtOf(path);
}
