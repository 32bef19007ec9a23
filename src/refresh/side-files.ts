/** Small JSON files the refresher keeps beside the database, written atomically like the snapshot itself. */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { writeAtomically } from "../base/atomic-write";

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
  writeAtomically(path, (tmp) => writeFileSync(tmp, JSON.stringify(value)));
}

export function removeFile(path: string): void {
  rmSync(path, { force: true });
}
