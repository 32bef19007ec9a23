/**
 * Start-up: make sure the database path holds a snapshot that can serve before the server opens
 * it. A missing file is built from the embedded default; a damaged one (truncated, garbage, not a
 * snapshot) is moved aside, never deleted, and replaced by the last good copy or the default.
 */
import { existsSync, renameSync } from "node:fs";
import { linkTarget, removeLeftovers } from "./files";
import { lastGoodPath, restoreLastGood, saveLastGood } from "./lastgood";
import { ensureDatabase } from "./publish";
import { snapshotProblem } from "./validity";

type Log = (event: string, fields: Record<string, unknown>) => void;

/** `db/catalog.sqlite` → `db/catalog.sqlite-corrupt-20260102T030405Z`: kept for a person to inspect. */
export function asidePath(path: string, now = new Date()): string {
  return `${path}-corrupt-${now.toISOString().replace(/[-:]|\.\d{3}/g, "")}`;
}

/** True when the default was built. */
function buildDefault(path: string, log: Log): boolean {
  try {
    ensureDatabase(path);
    log("snapshot.created_default", { path });
    return true;
  } catch (error) {
    // The server still starts: /readyz says 503 until a refresh publishes a snapshot.
    log("snapshot.default_failed", { path, error: (error as Error).message });
    return false;
  }
}

/**
 * The newest good data this deployment had: the last good copy, and the default only without
 * one; true when a snapshot is in place.
 */
function restoreNewest(path: string, log: Log): boolean {
  const restored = restoreLastGood(path);
  if (restored === null) return buildDefault(path, log);
  log("snapshot.restored_last_good", { path, from: lastGoodPath(path), snapshotAt: restored });
  return true;
}

/** True when a good snapshot took the damaged one's place (a link's target is what moves aside). */
export function replaceDamaged(path: string, problem: string, log: Log): boolean {
  const target = linkTarget(path);
  const aside = asidePath(target);
  renameSync(target, aside);
  log("snapshot.corrupt", { path, problem, movedTo: aside });
  return restoreNewest(path, log);
}

/** Leaves a snapshot that passes its integrity check at `path`, logging every step it takes. */
export function prepareDatabase(path: string, log: Log): void {
  const leftovers = removeLeftovers(path);
  if (leftovers.length) log("snapshot.leftovers_removed", { files: leftovers });
  let good: boolean;
  if (!existsSync(path)) {
    good = restoreNewest(path, log);
  } else {
    const problem = snapshotProblem(path);
    good = problem === null || replaceDamaged(path, problem, log);
  }
  if (!good) return;
  try {
    if (saveLastGood(path)) log("snapshot.last_good_saved", { path: lastGoodPath(path) });
  } catch (error) {
    // The database itself is fine: serve it, and say why there is no fresh copy.
    log("snapshot.last_good_failed", { path: lastGoodPath(path), error: (error as Error).message });
  }
}
