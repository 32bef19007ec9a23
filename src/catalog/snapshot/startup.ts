/**
 * Start-up (and repair while serving): make sure the database path holds a snapshot that can serve.
 * A missing file, or a damaged one (truncated, garbage, not a snapshot: moved aside, never
 * deleted), is replaced by the newest good data: the last good copy unless the embedded default is
 * newer.
 */
import { existsSync, renameSync } from "node:fs";
import { removeLeftovers, resolveLink } from "../../base/atomic-write";
import type { Log } from "../../base/log";
import { loadDefaultData } from "../model/editorial";
import type { Policy } from "../model/policy";
import { lastGoodPath, lastGoodSnapshotAt, restoreLastGood, saveLastGood } from "./last-good";
import { ensureDatabase } from "./publish";
import { snapshotProblem } from "./validity";

/** `db/catalog.sqlite` → `db/catalog.sqlite-corrupt-20260102T030405Z`: kept for a person to inspect. */
export function asidePath(path: string, now = new Date()): string {
  return `${path}-corrupt-${now.toISOString().replace(/[-:]|\.\d{3}/g, "")}`;
}

/** True when the default was built. */
function buildDefault(path: string, log: Log, policy: Policy | null): boolean {
  try {
    ensureDatabase(path, policy);
    log("snapshot.created_default", { path });
    return true;
  } catch (error) {
    // The server still starts: /readyz says 503 until a refresh publishes a snapshot.
    log("snapshot.default_failed", { path, error: (error as Error).message });
    return false;
  }
}

/** The embedded default's snapshot time, or null when it cannot be read. */
function defaultSnapshotAt(): string | null {
  try {
    return loadDefaultData().snapshotAt;
  } catch {
    return null;
  }
}

/** True when the last good copy, or the default when it is newer, now stands at the missing `path`. */
function restoreNewest(path: string, log: Log, policy: Policy | null): boolean {
  const copyAt = lastGoodSnapshotAt(path);
  const defaultAt = copyAt === null ? null : defaultSnapshotAt();
  if (copyAt !== null && (defaultAt === null || Date.parse(copyAt) >= Date.parse(defaultAt))) {
    const restored = restoreLastGood(path);
    if (restored !== null) {
      log("snapshot.restored_last_good", { path, from: lastGoodPath(path), snapshotAt: restored });
      return true;
    }
  }
  return buildDefault(path, log, policy);
}

/** True when a good snapshot took the damaged one's place. */
function replaceDamaged(path: string, problem: string, log: Log, policy: Policy | null): boolean {
  // A symlinked database: its target is moved aside and replaced, the link kept.
  const target = resolveLink(path);
  const aside = asidePath(target);
  renameSync(target, aside);
  log("snapshot.corrupt", { path, problem, movedTo: aside });
  return restoreNewest(path, log, policy);
}

/** Refreshes the last good copy; a failure (full disk, read-only volume) is logged, never fatal. */
function keepLastGood(path: string, log: Log): void {
  try {
    if (saveLastGood(path)) log("snapshot.last_good_saved", { path: lastGoodPath(path) });
  } catch (error) {
    log("snapshot.last_good_failed", { path: lastGoodPath(path), error: (error as Error).message });
  }
}

/**
 * Leaves a snapshot that passes its integrity check at `path`, logging every step it takes; a
 * default built here serves only what `policy` admits.
 */
export function prepareDatabase(path: string, log: Log, policy: Policy | null = null): void {
  const leftovers = removeLeftovers(path);
  if (leftovers.length) log("snapshot.leftovers_removed", { files: leftovers });
  restoreDatabase(path, log, policy);
}

/**
 * The same without removing leftovers, for a running server: a refresh of this process may be
 * writing its temporary file right now.
 */
export function restoreDatabase(path: string, log: Log, policy: Policy | null = null): void {
  let good: boolean;
  if (!existsSync(path)) {
    log("snapshot.missing", { path });
    good = restoreNewest(path, log, policy);
  } else {
    const problem = snapshotProblem(path);
    good = problem === null || replaceDamaged(path, problem, log, policy);
  }
  if (good) keepLastGood(path, log);
}
