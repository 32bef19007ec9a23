/**
 * The client-sync answers computed straight from a snapshot, the plain way: the oracle that the
 * per-snapshot documents (src/http/syncdocs.ts) are checked against, and the bench's baseline.
 */
import { composeEvents } from "../src/catalog/model/history";
import type { Snapshot } from "../src/catalog/snapshot/snapshot";
import { parseFilters } from "../src/http/list-params";
import { withLastUpdate } from "../src/market/doc-writer";

/** catalog.json rendered at once from every row, by stars descending (rowid order). */
export function wholeCatalog(snapshot: Snapshot): string {
  const counts = snapshot.categoryCounts(parseFilters(new URLSearchParams()));
  const categories = snapshot.categories.map((c) => ({ ...c, count: counts.get(c.id) ?? 0 }));
  const head = JSON.stringify({ snapshotAt: snapshot.snapshotAt, total: snapshot.stats.total, categories, items: [] });
  const items = snapshot.catalogRowsAfter(0, -1).map((row) => withLastUpdate(row.json, snapshot.lastUpdate(row.id)));
  return `${head.slice(0, -2)}${items.join(",")}]}`;
}

/**
 * What changed since the snapshot published at `since`; null when the history does not reach it.
 * A plugin first seen after `since` is added; any other whose catalog record changed after it is updated;
 * each with its `last_update`.
 */
export function changesSince(snapshot: Snapshot, since: string) {
  if (since !== snapshot.snapshotAt && !snapshot.historySnapshots().includes(since)) return null;
  const rows = snapshot.catalogRowsAfter(0, -1);
  const added: string[] = [];
  const updated: string[] = [];
  for (const row of rows) {
    const item = withLastUpdate(row.json, snapshot.lastUpdate(row.id));
    if (row.changedAt > since) (row.firstSeenAt > since ? added : updated).push(item);
  }
  const ids = new Set(rows.map((row) => row.id.toLowerCase()));
  const { removed, renamed } = composeEvents(snapshot.historyEvents(), since, ids);
  return { added, updated, removed, renamed };
}
