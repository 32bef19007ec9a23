/** Files beside the database: written whole or not at all, and the temporary files a killed writer left. */
import { existsSync, lstatSync, readdirSync, readlinkSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/**
 * The file a path names: a symbolic link's target (followed to the end, even when the target is
 * missing), so a database path that is a link is written through, never replaced by a plain file.
 */
export function linkTarget(path: string): string {
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return current;
    }
    if (!isLink) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  return current;
}

/** A unique temporary path beside `path`, on the same file system so rename is atomic. */
export function temporaryPath(path: string): string {
  return `${path}.tmp-${process.pid}-${Date.now().toString(36)}`;
}

/**
 * Lets `write` fill a temporary file, then renames it over `path` (over a link's target, in the
 * target's own directory): readers see the old file or the new one.
 */
export function writeAtomically<T>(path: string, write: (tmp: string) => T): T {
  const target = linkTarget(path);
  const tmp = temporaryPath(target);
  try {
    const result = write(tmp);
    renameSync(tmp, target);
    return result;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Whether another process with this pid is running. */
export function isOtherProcessRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException | null)?.code === "EPERM";
  }
}

/**
 * Removes temporary files a killed run left beside the database, or beside its link's target
 * (`<db>.tmp-<pid>-…` with SQLite's `-journal`, `-wal` and `-shm` beside it,
 * `<db>-refresh.json.tmp-<pid>-…`, `<db>.lock.new-<pid>-…`) whose writer is no longer running.
 */
export function removeLeftovers(databasePath: string, isRunning = isOtherProcessRunning): string[] {
  const removed: string[] = [];
  const places = new Set([databasePath, linkTarget(databasePath)]);
  for (const place of places) {
    const dir = dirname(place);
    const prefix = basename(place);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const pid = name.startsWith(prefix)
        ? /\.(?:tmp|new|stale)-(\d+)-[0-9a-z]+(?:-journal|-wal|-shm)?$/.exec(name)?.[1]
        : undefined;
      if (pid === undefined || isRunning(Number(pid))) continue;
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}
