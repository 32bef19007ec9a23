/** Small JSON files the refresher keeps beside the database, written atomically like the snapshot itself. */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { temporaryPath } from "../catalog/publish";

/** `db/catalog.sqlite` → `db/catalog.sqlite-<suffix>`: beside the database, and ignored by git with it. */
export function sidePath(databasePath: string, suffix: string): string {
  return `${databasePath}-${suffix}`;
}

/** The parsed file, or null when it is missing or unreadable (a side file is only ever an optimisation). */
export function readJsonFile<T>(path: string): T | null {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return null;
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export function writeJsonFile(path: string, value: unknown): void {
  const tmp = temporaryPath(path);
  try {
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Removes temporary files a killed run left beside the database (`<db>.tmp-<pid>-…`,
 * `<db>-refresh.json.tmp-<pid>-…`, `<db>.lock.new-<pid>-…`) whose writer is no longer running.
 */
export function removeLeftovers(databasePath: string, isRunning: (pid: number) => boolean): string[] {
  const dir = dirname(databasePath);
  const prefix = basename(databasePath);
  const removed: string[] = [];
  if (!existsSync(dir)) return removed;
  for (const name of readdirSync(dir)) {
    const pid = name.startsWith(prefix) ? /\.(?:tmp|new|stale)-(\d+)-[0-9a-z]+$/.exec(name)?.[1] : undefined;
    if (pid === undefined || isRunning(Number(pid))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
