/** The categories with their plugin counts: `/api/v1/categories` items and catalog.json's `categories`. */
import type { Snapshot } from "./snapshot";

/** The categories with their plugin counts, as the list endpoint's `category` filter counts them. */
export function categoriesJson(snapshot: Snapshot, counts: ReadonlyMap<string, number>): string {
  return JSON.stringify(snapshot.categories.map((c) => ({ ...c, count: counts.get(c.id) ?? 0 })));
}
