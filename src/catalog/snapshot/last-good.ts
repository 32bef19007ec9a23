/**
 * A copy of the last snapshot that could serve, so a start with a damaged database (truncated by a
 * full disk, overwritten in place) falls back to the newest catalog it had, not the older default.
 */
import { copyFileSync, existsSync, statSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { writeAtomically, writeAtomicallyAsync } from "../../base/atomic-write";
import { Snapshot } from "./snapshot";
import { headerProblem, snapshotProblem } from "./validity";

/** `db/catalog.sqlite` → `db/catalog.sqlite-last-good` (ignored by git with the database). */
export function lastGoodPath(path: string): string {
  return `${path}-last-good`;
}

/** The snapshot time a good file records, or null when it cannot be read. */
function snapshotAtOf(path: string): string | null {
  try {
    return Snapshot.recorded(path).snapshotAt;
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

/** Copies a checked snapshot to the last-good path, whole or not at all; false when it was current. */
export function saveLastGood(path: string): boolean {
  if (copyIsCurrent(path)) return false;
  writeAtomically(lastGoodPath(path), (tmp) => copyFileSync(path, tmp));
  return true;
}

/**
 * The same off the request path, when a running server swaps in a new snapshot; the copy gets the
 * cheap checks only (the refresher ran the full one before publishing).
 */
export async function saveLastGoodInBackground(path: string): Promise<boolean> {
  if (copyIsCurrent(path)) return false;
  await writeAtomicallyAsync(lastGoodPath(path), async (tmp) => {
    await copyFile(path, tmp);
    const damage = headerProblem(tmp) ?? (snapshotAtOf(tmp) === null ? "not a snapshot" : null);
    if (damage !== null) throw new Error(`not kept as the last good snapshot: ${damage}`);
  });
  return true;
}

/** The snapshot time of the last-good copy when it passes the check, or null. */
export function lastGoodSnapshotAt(path: string): string | null {
  const copy = lastGoodPath(path);
  if (!existsSync(copy) || snapshotProblem(copy) !== null) return null;
  return snapshotAtOf(copy);
}

/** Puts the last-good copy back at `path` when it passes the check; its snapshot time, or null. */
export function restoreLastGood(path: string): string | null {
  const copy = lastGoodPath(path);
  if (!existsSync(copy) || snapshotProblem(copy) !== null) return null;
  writeAtomically(path, (tmp) => copyFileSync(copy, tmp));
  return snapshotAtOf(path);
}
