/** A shared snapshot is checked once, on a worker thread: a sound file passes, a damaged one is refused. */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { publishSnapshot } from "../../src/catalog/publish";
import { checkSnapshotOffThread } from "../../src/cluster/snapshot-check";
import { plugin, SNAPSHOT_AT, snapshotInput, tempDir } from "../helpers";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function published(): { dir: string; path: string } {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, "catalog.sqlite");
  publishSnapshot(path, snapshotInput([plugin("acme/one", { stars: 3 }), plugin("acme/two")]));
  return { dir, path };
}

test("a sound snapshot: its time and size, read on the worker", async () => {
  const { path } = published();
  expect(await checkSnapshotOffThread(path)).toEqual({ snapshotAt: SNAPSHOT_AT, total: 2 });
});

test("a truncated or foreign file is refused with the reason", async () => {
  const { dir, path } = published();
  const truncated = join(dir, "truncated.sqlite");
  writeFileSync(truncated, readFileSync(path).subarray(0, 4096));
  await expect(checkSnapshotOffThread(truncated)).rejects.toThrow("the shared snapshot fails its check: truncated");
  const foreign = join(dir, "foreign.sqlite");
  writeFileSync(foreign, "not a database at all ".repeat(100));
  await expect(checkSnapshotOffThread(foreign)).rejects.toThrow("not a SQLite database");
});
