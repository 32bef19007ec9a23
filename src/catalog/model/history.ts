/**
 * The change history a snapshot carries, so a client that mirrored an earlier snapshot can ask
 * what changed since it: each plugin's last change, and the removals and renames of the retained
 * publishes. A new snapshot carries its predecessor's history forward, pruned to HISTORY_DAYS.
 */
import { daysBefore } from "./time";
import type { HistoryEvent, PluginRecord, SnapshotHistory } from "./types";
import { catalogRecordJson } from "./views";

/** How long removals, renames and earlier snapshot times are kept. */
export const HISTORY_DAYS = 30;

/** What the predecessor knew: its records' catalog JSON and last change, and its own history. */
export interface PreviousHistory {
  snapshotAt: string | null;
  /** By lowercased id. */
  plugins: ReadonlyMap<string, { catalogJson: string; changedAt: string }>;
  events: readonly HistoryEvent[];
  snapshots: readonly string[];
}

/**
 * The history of a snapshot built at `snapshotAt` from `records`, after `previous`. A plugin keeps
 * its last change time while its catalog record is byte for byte the same; `renamed` are the
 * renames the refresh followed (`from` → `to`).
 */
export function carryHistory(
  previous: PreviousHistory,
  records: readonly PluginRecord[],
  renamed: ReadonlyArray<{ from: string; to: string }>,
  snapshotAt: string,
): SnapshotHistory {
  const changedAt = new Map<string, string>();
  if (previous.snapshotAt === null) return { changedAt, events: [], snapshots: [snapshotAt] };
  const horizon = daysBefore(snapshotAt, HISTORY_DAYS);
  const current = new Set(records.map((r) => r.id.toLowerCase()));
  for (const record of records) {
    const key = record.id.toLowerCase();
    const before = previous.plugins.get(key);
    if (before && before.catalogJson === catalogRecordJson(record)) changedAt.set(key, before.changedAt);
  }
  const events = previous.events.filter((e) => e.at >= horizon);
  const renamedFrom = new Set<string>();
  for (const { from, to } of renamed) {
    if (!previous.plugins.has(from.toLowerCase()) || !current.has(to.toLowerCase())) continue;
    renamedFrom.add(from.toLowerCase());
    events.push({ at: snapshotAt, kind: "renamed", id: from, to });
  }
  for (const [key, before] of previous.plugins) {
    if (current.has(key) || renamedFrom.has(key)) continue;
    const id = (JSON.parse(before.catalogJson) as { id: string }).id;
    events.push({ at: snapshotAt, kind: "removed", id, to: null });
  }
  const snapshots = [...previous.snapshots.filter((at) => at >= horizon && at < snapshotAt), snapshotAt];
  if (!snapshots.includes(previous.snapshotAt)) snapshots.unshift(previous.snapshotAt);
  return { changedAt, events, snapshots: [...new Set(snapshots)].sort() };
}

/** What changed since a snapshot: ids to drop, renames, and the ids whose records are new or changed. */
export interface ChangeSet {
  removed: string[];
  renamed: Array<{ from: string; to: string }>;
}

/**
 * Composes the removals and renames published after `since` into one step from that snapshot to
 * the current one, whose ids (lowercased) are `current`: a plugin renamed twice is one rename from
 * its first id, a renamed plugin later removed is a removal of its first id, and an id removed and
 * published again is no removal.
 */
export function composeEvents(events: readonly HistoryEvent[], since: string, current: ReadonlySet<string>): ChangeSet {
  const origin = new Map<string, { first: string; id: string }>();
  const removed = new Map<string, string>();
  for (const event of events) {
    if (event.at <= since) continue;
    const key = event.id.toLowerCase();
    const first = origin.get(key)?.first ?? event.id;
    origin.delete(key);
    if (event.kind === "renamed" && event.to !== null) origin.set(event.to.toLowerCase(), { first, id: event.to });
    else removed.set(first.toLowerCase(), first);
  }
  const renamed: Array<{ from: string; to: string }> = [];
  for (const [key, { first, id }] of origin) {
    if (first.toLowerCase() !== key && current.has(key)) renamed.push({ from: first, to: id });
  }
  for (const key of current) removed.delete(key);
  return { removed: [...removed.values()], renamed };
}
