/**
 * Each plugin's last update, carried from snapshot to snapshot: a new snapshot compares every
 * plugin's details with the previous snapshot's (update-diff.ts) and keeps the diff, with the two
 * commits and the snapshot it was seen in, until the next change. Computed once when a snapshot is
 * built; a request only reads what was stored.
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { PluginDetails } from "./details";
import type { PluginRecord, SnapshotHistory } from "./types";
import { type LastUpdate, LastUpdateSchema, readingOf, updateDiff } from "./update-diff";

/** What the predecessor held of each plugin: its details and the last update it kept. */
export interface PreviousUpdates {
  snapshotAt: string | null;
  /** By lowercased id. */
  plugins: ReadonlyMap<string, { details: PluginDetails | null; lastUpdate?: LastUpdate | null }>;
}

const checkUpdate = TypeCompiler.Compile(LastUpdateSchema);

/** The stored JSON of a last update if it is what the schema says; null otherwise. */
export function validUpdate(json: string): LastUpdate | null {
  try {
    const value: unknown = JSON.parse(json);
    return checkUpdate.Check(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The last update of every plugin of `records` in the snapshot of `snapshotAt`, by lowercased id
 * (a plugin without one is not in the map). A plugin the previous snapshot did not hold, under its
 * id or a former one, is `new`; one whose details changed gets the diff; one unchanged keeps the
 * update it had. A catalog built from scratch, or a plugin whose manifests were not read on both
 * sides, has nothing to compare: no update.
 */
export function carryUpdates(
  previous: PreviousUpdates,
  records: readonly PluginRecord[],
  snapshotAt: string,
): Map<string, LastUpdate> {
  const updates = new Map<string, LastUpdate>();
  const since = previous.snapshotAt;
  if (since === null) return updates;
  for (const record of records) {
    const key = record.id.toLowerCase();
    const before =
      previous.plugins.get(key) ??
      record.previous_ids.map((id) => previous.plugins.get(id.toLowerCase())).find((p) => p !== undefined);
    const details = record.details ?? null;
    if (before === undefined) {
      updates.set(key, { kind: "new", at: snapshotAt, since, to: readingOf(details) });
      continue;
    }
    const diff = before.details && details ? updateDiff(before.details, details, snapshotAt, since) : null;
    const kept = diff ?? before.lastUpdate ?? null;
    if (kept !== null) updates.set(key, kept);
  }
  return updates;
}

/**
 * A plugin updated in this snapshot changed in it, even where its catalog record did not (a risk
 * note, say): its change time is this snapshot, so a `changes` answer holds it with its update.
 */
export function markUpdated(history: SnapshotHistory, updates: ReadonlyMap<string, LastUpdate>, snapshotAt: string) {
  for (const [key, update] of updates) if (update.at === snapshotAt) history.changedAt.delete(key);
}
