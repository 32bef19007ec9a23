/** Files beside the database: written whole or not at all, and the temporary files a killed writer left. */
import { existsSync, lstatSync, readdirSync, readlinkSync, renameSync, rmSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/**
 * The file a path names, through any symbolic links (the target may not exist yet): a symlinked
 * database is written through, its target replaced in its own directory, the link kept.
 */
export function resolveLink(path: string): string {
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    let isLink = false;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return current;
    }
    if (!isLink) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw new Error(`${path}: too many levels of symbolic links`);
}

/** A unique temporary path beside `path`, on the same file system so rename is atomic. */
export function temporaryPath(path: string): string {
  return `${path}.tmp-${process.pid}-${Date.now().toString(36)}`;
}

/** Lets `write` fill a temporary file, then renames it over `path`: readers see the old file or the new one. */
export function writeAtomically<T>(path: string, write: (tmp: string) => T): T {
  const target = resolveLink(path);
  const tmp = temporaryPath(target);
  try {
    const result = write(tmp);
    renameSync(tmp, target);
    return result;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The same off the serving thread's way: `write` fills the temporary file asynchronously. */
export async function writeAtomicallyAsync<T>(path: string, write: (tmp: string) => Promise<T>): Promise<T> {
  const target = resolveLink(path);
  const tmp = temporaryPath(target);
  try {
    const result = await write(tmp);
    await rename(tmp, target);
    return result;
  } finally {
    await rm(tmp, { force: true });
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
 * Removes temporary files a killed run left beside the database (`<db>.tmp-<pid>-…`,
 * `<db>-refresh.json.tmp-<pid>-…`, `<db>.lock.new-<pid>-…`) whose writer is no longer running.
 */
export function removeLeftovers(databasePath: string, isRunning = isOtherProcessRunning): string[] {
  const removed: string[] = [];
  // A symlinked database's temporary files lie beside its target.
  for (const path of new Set([databasePath, resolveLink(databasePath)])) {
    const dir = dirname(path);
    const prefix = basename(path);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const pid = name.startsWith(prefix) ? /\.(?:tmp|new|stale)-(\d+)-[0-9a-z]+$/.exec(name)?.[1] : undefined;
      if (pid === undefined || isRunning(Number(pid))) continue;
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}
