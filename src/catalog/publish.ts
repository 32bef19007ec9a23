/**
 * Publishing: a snapshot is built in a temporary file beside the target and renamed over it,
 * so readers see the old file or the new one, never a part of either.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { buildSnapshot } from "./build";
import { toRecords } from "./classify";
import { DB_DIR, loadDefaultData, loadEditorial } from "./editorial";
import { writeAtomically } from "./files";
import type { SnapshotInput, SnapshotStats } from "./types";

/** Builds `input` into a temporary file, lets `check` refuse it, then renames it over `path`. */
export function publishSnapshot(path: string, input: SnapshotInput, check?: (tmp: string) => void): SnapshotStats {
  mkdirSync(dirname(path), { recursive: true });
  return writeAtomically(path, (tmp) => {
    const stats = buildSnapshot(tmp, input);
    check?.(tmp);
    return stats;
  });
}

/** The embedded default snapshot: db/plugins.json classified with the editors' data. */
export function defaultSnapshotInput(dir = DB_DIR): SnapshotInput {
  const editorial = loadEditorial(dir);
  const { snapshotAt, facts } = loadDefaultData(dir);
  const plugins = toRecords(facts, editorial, () => ({ firstSeenAt: snapshotAt }));
  return { snapshotAt, plugins, categoryIds: editorial.categories.map((c) => c.id) };
}

/** Creates the database from the embedded default when the file is missing; true when it did. */
export function ensureDatabase(path: string): boolean {
  if (existsSync(path)) return false;
  publishSnapshot(path, defaultSnapshotInput());
  return true;
}
