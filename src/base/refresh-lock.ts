/**
 * One refresh at a time: a lock file beside the database holding the owner's pid. A lock whose
 * owner is no longer running (killed, crashed) is stale and taken over. Works across processes
 * (the cron in the server, `bun run refresh` by hand) and within one.
 */
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { isOtherProcessRunning } from "./atomic-write";

/** Lock paths this process holds: a lock naming our pid that is not here was left by an earlier process with it. */
const heldHere = new Set<string>();

/** `db/catalog.sqlite` → `db/catalog.sqlite.lock`: the refresh lock of a database. */
export function lockPath(databasePath: string): string {
  return `${databasePath}.lock`;
}

export interface Lock {
  path: string;
  release(): void;
}

export class LockHeld extends Error {
  override name = "LockHeld";
  constructor(
    readonly path: string,
    readonly pid: number | null,
  ) {
    super(`another refresh is running (pid ${pid ?? "unknown"}, lock ${path})`);
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

function readPid(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").split("\n")[0] ?? "", 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Whether `pid` still names a running process that may hold `path`. */
function isAlive(pid: number | null, path: string): boolean {
  if (pid === null) return false;
  return pid === process.pid ? heldHere.has(path) : isOtherProcessRunning(pid);
}

/** Creates the lock with its content in one step (a link), so no one ever reads an empty lock. */
function tryCreate(path: string): boolean {
  const tmp = `${path}.new-${process.pid}-${Date.now().toString(36)}`;
  writeFileSync(tmp, `${process.pid}\n${new Date().toISOString()}\n`);
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Moves a stale lock aside atomically, so of two processes clearing it only one succeeds; if what
 * was moved turns out to be a live lock taken meanwhile, it is put back.
 */
function clearStale(path: string, stalePid: number | null): void {
  const aside = `${path}.stale-${process.pid}-${Date.now().toString(36)}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  const moved = readPid(aside);
  if (moved !== stalePid && isAlive(moved, path)) {
    try {
      linkSync(aside, path);
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
  }
  rmSync(aside, { force: true });
}

/** Takes the lock at `path` or throws LockHeld naming the running owner. */
export function acquireLock(path: string): Lock {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) {
      heldHere.add(path);
      return {
        path,
        release() {
          heldHere.delete(path);
          if (readPid(path) === process.pid) rmSync(path, { force: true });
        },
      };
    }
    const pid = readPid(path);
    if (isAlive(pid, path)) throw new LockHeld(path, pid);
    clearStale(path, pid);
  }
  throw new LockHeld(path, readPid(path));
}

/**
 * Removes the refresh lock of `databasePath` when this process holds it or its owner is no longer
 * running (a run cut short by a stop, here or in a child this process ended); returns the lock's
 * file name, or null when there was none such. A live owner's lock is never touched.
 */
export function removeDeadLock(databasePath: string): string | null {
  const path = lockPath(databasePath);
  const pid = readPid(path);
  if (pid === null || (pid !== process.pid && isOtherProcessRunning(pid))) return null;
  rmSync(path, { force: true });
  return basename(path);
}

/** A lock every instance sees (REDIS_URL), taken after the file lock and held until the run ends. */
export interface SharedLock {
  /** Takes the lock, or says why not: another instance holds it, or it cannot be reached. */
  acquire(): Promise<{ release(): Promise<void> } | { refused: string }>;
}
