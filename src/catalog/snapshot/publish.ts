/**
 * Publishing: a snapshot is built in a temporary file beside the target and renamed over it,
 * so readers see the old file or the new one, never a part of either.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { writeAtomically } from "../../base/atomic-write";
import { toRecords } from "../model/classify";
import { loadDefaultDepth } from "../model/depth";
import {
  categoryInfo,
  DB_DIR,
  loadDefaultData,
  loadEditorial,
  loadListingRules,
  loadSynonyms,
} from "../model/editorial";
import type { Policy } from "../model/policy";
import type { SnapshotInput, SnapshotStats } from "../model/types";
import { buildSnapshot } from "./build";
import { withPolicy } from "./policy-apply";

/** Builds `input` into a temporary file, lets `check` refuse it, then renames it over `path`. */
export function publishSnapshot(path: string, input: SnapshotInput, check?: (tmp: string) => void): SnapshotStats {
  mkdirSync(dirname(path), { recursive: true });
  return writeAtomically(path, (tmp) => {
    const stats = buildSnapshot(tmp, input);
    check?.(tmp);
    return stats;
  });
}

/**
 * The embedded default snapshot: db/plugins.json classified with the editors' data, each record
 * with what its repository's manifests said when they were last read (db/depth.json).
 */
export function defaultSnapshotInput(dir = DB_DIR): SnapshotInput {
  const editorial = loadEditorial(dir);
  const { snapshotAt, facts } = loadDefaultData(dir);
  const depth = loadDefaultDepth(dir);
  // The default's records name their former ids (the platform redirects them) in previous_names.
  const former = new Map(
    facts.map((f) => [f.full_name.toLowerCase(), (f as { previous_names?: string[] }).previous_names ?? []]),
  );
  const plugins = toRecords(facts, editorial, (id) => ({
    firstSeenAt: snapshotAt,
    previousIds: former.get(id.toLowerCase()) ?? [],
    details: depth.get(id.toLowerCase()) ?? null,
  }));
  const categories = categoryInfo(editorial);
  const categoryIds = categories.map((c) => c.id);
  const listingRules = loadListingRules(dir);
  return { snapshotAt, plugins, categoryIds, categories, synonyms: loadSynonyms(dir), listingRules };
}

/** Creates the database from the embedded default, held to `policy`, when the file is missing; true when it did. */
export function ensureDatabase(path: string, policy: Policy | null = null): boolean {
  if (existsSync(path)) return false;
  publishSnapshot(path, withPolicy(defaultSnapshotInput(), policy));
  return true;
}
