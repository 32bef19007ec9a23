/**
 * The batch lookup's answer: for each id asked, what a client holding that plugin needs to know
 * to update it (its current id after renames, last push, latest release, deprecated, archived or
 * removed, and whether it changed since the snapshot the client holds). Each id is a few indexed
 * lookups; what the history says of removals is read once per snapshot.
 */
import { known } from "../../catalog/snapshot/known";
import type { Snapshot } from "../../catalog/snapshot/snapshot";

/** Ids one lookup may ask. */
export const MAX_LOOKUP_IDS = 100;

export type LookupStatus = "listed" | "removed" | "rejected" | "unknown";

export interface LookupItem {
  id: string;
  status: LookupStatus;
  current_id: string | null;
  renamed: boolean;
  pushed_at: string | null;
  latest_release: { tag: string; date: string } | null;
  deprecated: boolean | null;
  archived: boolean | null;
  removed_at: string | null;
  changed: boolean | null;
  /** What the plugin's last update changed (update-diff.ts), or null. */
  last_update: unknown;
}

/** What the history of a snapshot says: when each id was last removed, and how far back it reaches. */
interface HistoryFacts {
  removedAt: Map<string, string>;
  oldest: string;
}

const histories = new WeakMap<Snapshot, HistoryFacts>();

function historyOf(snapshot: Snapshot): HistoryFacts {
  let facts = histories.get(snapshot);
  if (facts === undefined) {
    const removedAt = new Map<string, string>();
    for (const event of snapshot.historyEvents())
      if (event.kind === "removed") removedAt.set(event.id.toLowerCase(), event.at);
    facts = { removedAt, oldest: snapshot.historySnapshots()[0] ?? snapshot.snapshotAt };
    histories.set(snapshot, facts);
  }
  return facts;
}

interface Listed {
  pushed_at: string;
  archived: boolean;
  deprecated: boolean;
  latest_release: { tag: string; date: string } | null;
  first_seen_at?: string;
}

/** A listed plugin's last update as stored (checked by the snapshot), or null. */
function lastUpdateOf(snapshot: Snapshot, id: string): unknown {
  const json = snapshot.lastUpdate(id);
  return json === null ? null : JSON.parse(json);
}

/** One id's answer; `since` is a time the client read the catalog at, or null. */
function lookupOne(snapshot: Snapshot, id: string, since: string | null, history: HistoryFacts): LookupItem {
  const k = known(snapshot, id);
  const none = { pushed_at: null, latest_release: null, deprecated: null, archived: null };
  const reaches = since !== null && since >= history.oldest;
  if (k.status === "listed") {
    const current = k.id;
    const plugin = JSON.parse(snapshot.plugin(current, ["flags"])!) as Listed;
    const changedAt = snapshot.changedAt(current);
    return {
      id,
      status: "listed",
      current_id: current,
      renamed: current.toLowerCase() !== id.toLowerCase(),
      pushed_at: plugin.pushed_at,
      latest_release: plugin.latest_release,
      deprecated: plugin.deprecated,
      archived: plugin.archived,
      removed_at: null,
      changed: reaches && changedAt !== null ? changedAt > since : null,
      last_update: lastUpdateOf(snapshot, current),
    };
  }
  const removedAt = history.removedAt.get(id.toLowerCase()) ?? null;
  if (removedAt !== null) {
    const changed = since === null ? null : removedAt > since ? true : reaches ? false : null;
    return {
      id,
      status: "removed",
      current_id: null,
      renamed: false,
      ...none,
      removed_at: removedAt,
      changed,
      last_update: null,
    };
  }
  const status = k.status === "rejected" ? "rejected" : "unknown";
  return { id, status, current_id: null, renamed: false, ...none, removed_at: null, changed: null, last_update: null };
}

/** The `data` of a lookup of `ids`, serialized. */
export function lookupData(snapshot: Snapshot, ids: readonly string[], since: string | null): string {
  const history = historyOf(snapshot);
  const items = ids.map((id) => lookupOne(snapshot, id, since, history));
  const unknown = items.filter((item) => item.status === "unknown").map((item) => item.id);
  return JSON.stringify({ items, unknown, since, generatedAt: snapshot.snapshotAt });
}
