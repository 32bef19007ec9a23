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

/** A store whose periodic check ticks only when the test calls `tick` (each interval passing). */
function storeOn(checkIntervalMs: number): {
  store: CatalogStore;
  path: string;
  tick: () => void;
  intervals: number[];
} {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "catalog.sqlite");
  publishMarked(path, "2026-01-01T00:00:00.000Z");
  const ticks: Array<() => void> = [];
  const intervals: number[] = [];
  const every = (ms: number, tick: () => void) => {
    intervals.push(ms);
    ticks.push(tick);
    return () => void ticks.splice(0);
  };
  const store = new CatalogStore(path, { checkIntervalMs, every });
  cleanups.push(() => {
    store.close();
    cleanup();
  });
  // Change events are what a missed one looks like: none.
  (store as unknown as { watcher: { close(): void } | null }).watcher?.close();
  const tick = () => {
    for (const each of ticks) each();
  };
  return { store, path, tick, intervals };
}

describe("the periodic check", () => {
  test("picks up a replaced file whose change event never came, once the interval has passed", () => {
    const { store, path, tick, intervals } = storeOn(40);
    expect(intervals).toEqual([40]);
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    publishMarked(path, "2026-02-02T00:00:00.000Z");
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    tick();
    expect(store.current()?.snapshotAt).toBe("2026-02-02T00:00:00.000Z");
  });

  test("between checks a request does not look at the file", () => {
    const { store, path } = storeOn(60_000);
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    publishMarked(path, "2026-02-02T00:00:00.000Z");
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
  });

  test("with an interval of 0 every request looks", () => {
    const { store, path, intervals } = storeOn(0);
    expect(intervals).toEqual([]);
    expect(store.current()?.snapshotAt).toBe("2026-01-01T00:00:00.000Z");
    publishMarked(path, "2026-02-02T00:00:00.000Z");
    expect(store.current()?.snapshotAt).toBe("2026-02-02T00:00:00.000Z");
  });
});
