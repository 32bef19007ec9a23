/** The store looks at its file again after a change event, and on its check interval when an event is missed. */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { tempDir } from "../helpers";
import { publishMarked } from "../reliability/support/catalog";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function storeOn(checkIntervalMs: number): { store: CatalogStore; path: string } {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "catalog.sqlite");
  publishMarked(path, "2026-01-01T00:00:00.000Z");
  const store = new CatalogStore(path, { checkIntervalMs });
  cleanups.push(() => {
    store.close();
    cleanup();
  });
  // Change events are what a missed one looks like: none.
  (store as unknown as { watcher: { close(): void } | null }).watcher?.close();
  return { store, path };
}

describe("the periodic check", () => {
  test("picks up a replaced file whose change event never came, once the interval has passed", async () => {
    const { store, path } = storeOn(40);
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    publishMarked(path, "2026-02-02T00:00:00.000Z");
    let seen = store.current()?.snapshotAt;
    for (let waited = 0; seen !== "2026-02-02T00:00:00.000Z" && waited < 2000; waited += 10) {
      await Bun.sleep(10);
      seen = store.current()?.snapshotAt;
    }
    expect(seen).toBe("2026-02-02T00:00:00.000Z");
  });

  test("between checks a request does not look at the file", () => {
    const { store, path } = storeOn(60_000);
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    publishMarked(path, "2026-02-02T00:00:00.000Z");
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
  });

  test("with an interval of 0 every request looks", () => {
    const { store, path } = storeOn(0);
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    publishMarked(path, "2026-02-02T00:00:00.000Z");
    expect(store.current()?.snapshotAt).toBe("2026-02-02T00:00:00.000Z");
  });
});
