import type { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import { unavailable } from "../http/errors";

/** The snapshot serving this request; 503 when none has been loaded. */
export function currentSnapshot(store: CatalogStore): Snapshot {
  const snapshot = store.current();
  if (snapshot === null) throw unavailable();
  return snapshot;
}
