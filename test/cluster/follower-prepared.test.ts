/**
 * A follower fetching a large shared snapshot: the snapshot is prepared before it serves (see
 * test/api/swap-prepared.test.ts), and the follower's fetch ends once it serves, so an instance
 * that starts on Redis listens with the shared snapshot in place.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { CatalogStore, PREPARED_AT_ONCE } from "../../src/catalog/snapshot/store";
import { SnapshotFollower, shareSnapshot } from "../../src/cluster/distribution";
import { RedisLink } from "../../src/cluster/redis";
import { plugin, snapshotInput, tempDir } from "../helpers";
import { RedisServer } from "./redis-server";

let redis: RedisServer;
let dir: { dir: string; cleanup: () => void };
beforeAll(async () => {
  redis = await new RedisServer().start();
  dir = tempDir();
});
afterAll(async () => {
  await redis.stop();
  dir.cleanup();
});

test("a shared snapshot larger than is prepared at once serves when the follower's fetch ends", async () => {
  const local = `${dir.dir}/catalog.sqlite`;
  publishSnapshot(local, snapshotInput([plugin("acme/local")], "2026-08-22T00:00:00.000Z"));
  const shared = new Date(Date.now() - 60_000).toISOString();
  const records = Array.from({ length: PREPARED_AT_ONCE * 2 }, (_, i) => plugin(`acme/p${i}`, { stars: i }));
  publishSnapshot(`${dir.dir}/shared.sqlite`, snapshotInput(records, shared));
  const sharer = new RedisLink(redis.url, () => {});
  await sharer.connect();
  await shareSnapshot(sharer, `${dir.dir}/shared.sqlite`, () => {});
  sharer.close();

  const events: string[] = [];
  const log = (event: string) => void events.push(event);
  const store = new CatalogStore(local, { checkIntervalMs: 0, sliceMs: 0, log });
  const link = new RedisLink(redis.url, () => {});
  try {
    expect(store.current()!.snapshotAt).toBe("2026-08-22T00:00:00.000Z");
    await link.connect();
    const follower = new SnapshotFollower(link, store, log);
    await Promise.all([follower.start(), follower.sync()]);
    expect(store.pending).toBe(false);
    expect(store.current()!.snapshotAt).toBe(shared);
    expect(store.current()!.stats.total).toBe(PREPARED_AT_ONCE * 2);
    // Fetched once, though asked again while it was being prepared.
    expect(events.filter((e) => e === "snapshot.fetched")).toEqual(["snapshot.fetched"]);
  } finally {
    link.close();
    store.close();
  }
});
