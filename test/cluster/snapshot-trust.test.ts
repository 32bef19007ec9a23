/**
 * What an instance accepts from Redis, with a real redis-server and the service as a real process:
 * forged, future-dated and unsigned snapshots are refused and logged, and a hung Redis is down.
 */

import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { RedisClient } from "bun";
import { readPrevious } from "../../src/catalog/model/previous";
import { lastGoodPath } from "../../src/catalog/snapshot/lastgood";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { SNAPSHOT_CHANNEL, shareSnapshot, signSnapshot } from "../../src/cluster/distribution";
import { RedisLink } from "../../src/cluster/redis";
import { verifySnapshotFile } from "../../src/cluster/verify";
import { CATEGORY_IDS, Env, OLD_SNAPSHOT_AT, record } from "../refresh/support";
import { ensureStopped, type Service, startService } from "../reliability/support/process";
import { RedisServer } from "./redis-server";

const KEY = "a-key-every-instance-shares";

let env: Env | undefined;
let redis: RedisServer | undefined;
let service: Service | undefined;
afterEach(async () => {
  await ensureStopped(service);
  redis?.resume();
  await redis?.stop();
  await env?.stop();
  service = undefined;
  redis = undefined;
  env = undefined;
});

async function ready(s: Service): Promise<{ snapshotAt: string; redis: { status: string; limiter: string } }> {
  return (await (await fetch(`${s.url}/readyz`)).json()) as {
    snapshotAt: string;
    redis: { status: string; limiter: string };
  };
}

async function eventually(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await Bun.sleep(50);
  }
}

/** A sound snapshot file of one plugin at `snapshotAt`, in the test's directory. */
function snapshotFile(e: Env, name: string, snapshotAt: string): string {
  const path = join(e.dir, name);
  publishSnapshot(path, { snapshotAt, plugins: [record("acme/shared")], categoryIds: CATEGORY_IDS });
  return path;
}

/** One instance with its own copy of the starting snapshot, on a fresh Redis. */
async function start(extra: Record<string, string> = {}): Promise<Service> {
  env = new Env();
  env.publish([record("acme/local")]);
  redis = await new RedisServer().start();
  const dir = join(env.dir, "instance");
  mkdirSync(dir, { recursive: true });
  copyFileSync(env.databasePath, join(dir, "catalog.sqlite"));
  service = await startService({
    DATABASE_PATH: join(dir, "catalog.sqlite"),
    REDIS_URL: redis.url,
    TZ: "UTC",
    ...extra,
  });
  return service;
}

/** Writes `bytes` into Redis as the current shared snapshot, as a hostile writer would, and announces it. */
async function plant(url: string, snapshotAt: string, bytes: Uint8Array, signature?: string): Promise<void> {
  const client = new RedisClient(url);
  await client.connect();
  await client.set(`catalog:snapshot:file:${snapshotAt}`, bytes);
  if (signature) await client.set(`catalog:snapshot:sig:${snapshotAt}`, signature);
  await client.set("catalog:snapshot:current", snapshotAt);
  await client.publish(SNAPSHOT_CHANNEL, snapshotAt);
  client.close();
}

const recent = () => new Date(Date.now() - 60_000).toISOString();

describe("a snapshot from Redis", () => {
  test("whose plugins table is a view (a slow query) is refused and logged; the instance keeps serving and never keeps it as last good", async () => {
    const s = await start();
    const at = recent();
    const path = snapshotFile(env!, "forged.sqlite", at);
    const db = new Database(path);
    db.exec(`ALTER TABLE plugins RENAME TO plugins_data;
      CREATE VIEW plugins AS SELECT p.* FROM plugins_data p,
        (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50000000) SELECT max(x) FROM c);`);
    db.close();
    await plant(redis!.url, at, await Bun.file(path).bytes());
    const refused = await s.waitFor("snapshot.refused", 15_000);
    expect(String(refused.reason)).toContain("schema is not the service's own");
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await ready(s)).snapshotAt).toBe(OLD_SNAPSHOT_AT);
    expect((await fetch(`${s.url}/api/v1/plugins`)).status).toBe(200);
    expect(s.events.some((e) => e.event === "snapshot.fetched")).toBe(false);
    const lastGood = lastGoodPath(join(env!.dir, "instance", "catalog.sqlite"));
    if (existsSync(lastGood)) expect(readPrevious(lastGood).snapshotAt).toBe(OLD_SNAPSHOT_AT);
  }, 30_000);

  test("dated in the future is refused with a log line, and the next instance to publish replaces it", async () => {
    const s = await start();
    const future = "2099-01-01T00:00:00.000Z";
    await plant(redis!.url, future, await Bun.file(snapshotFile(env!, "future.sqlite", future)).bytes());
    const refused = await s.waitFor("snapshot.refused", 15_000);
    expect(refused).toMatchObject({ snapshotAt: future, reason: expect.stringContaining("later than") });
    expect((await ready(s)).snapshotAt).toBe(OLD_SNAPSHOT_AT);

    const events: Array<Record<string, unknown>> = [];
    const link = new RedisLink(redis!.url, () => {});
    await link.connect();
    const at = recent();
    await shareSnapshot(link, snapshotFile(env!, "next.sqlite", at), (event, fields) =>
      events.push({ event, ...fields }),
    );
    expect(events.map((e) => e.event)).toEqual(["snapshot.share_replacing", "snapshot.shared"]);
    await eventually(async () => (await ready(s)).snapshotAt === at, 15_000, "the instance takes the new snapshot");
    // An older one is not shared over it, and the skip is logged.
    events.length = 0;
    await shareSnapshot(
      link,
      snapshotFile(env!, "older.sqlite", new Date(Date.parse(at) - 1000).toISOString()),
      (event, fields) => events.push({ event, ...fields }),
    );
    expect(events).toEqual([expect.objectContaining({ event: "snapshot.share_skipped", current: at })]);
    link.close();
  }, 30_000);

  test("with REDIS_SNAPSHOT_KEY, only a snapshot signed with the key is taken", async () => {
    const s = await start({ REDIS_SNAPSHOT_KEY: KEY });
    const unsigned = recent();
    const bytes = await Bun.file(snapshotFile(env!, "unsigned.sqlite", unsigned)).bytes();
    await plant(redis!.url, unsigned, bytes, signSnapshot("another-key-entirely", unsigned, bytes));
    expect(await s.waitFor("snapshot.refused", 15_000)).toMatchObject({ reason: "not signed with REDIS_SNAPSHOT_KEY" });

    const link = new RedisLink(redis!.url, () => {});
    await link.connect();
    const signed = new Date(Date.parse(unsigned) + 1000).toISOString();
    await shareSnapshot(link, snapshotFile(env!, "signed.sqlite", signed), () => {}, { key: KEY });
    link.close();
    await eventually(async () => (await ready(s)).snapshotAt === signed, 15_000, "the signed snapshot is taken");
  }, 30_000);

  test("is checked off the event loop within a time limit: past it the check is refused", async () => {
    env = new Env();
    const path = snapshotFile(env, "slow.sqlite", recent());
    expect(await verifySnapshotFile(path)).toMatchObject({ ok: true, total: 1 });
    expect(await verifySnapshotFile(path, 1)).toEqual({ ok: false, problem: "the check took longer than 1 ms" });
  });
});

describe("a hung Redis", () => {
  test("after a few missed deadlines /readyz says degraded, the limit is in-process and requests stop waiting on Redis until it answers again", async () => {
    const s = await start();
    expect((await ready(s)).redis).toMatchObject({ status: "up", limiter: "shared" });
    redis!.pause();
    // Each limited request waits one deadline; three in a row and Redis counts as down.
    for (const path of ["/api/v1/plugins", "/api/v1/categories", "/market/v1/plugins"]) {
      expect((await fetch(`${s.url}${path}`)).status).toBe(200);
    }
    await eventually(async () => (await ready(s)).redis.status === "degraded", 5000, "degraded");
    expect((await ready(s)).redis).toMatchObject({ status: "degraded", limiter: "in-process" });
    await s.waitFor("redis.degraded", 1000);
    // The in-process limit answers: a second request inside the window is refused without Redis.
    const more = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(`${s.url}/plugins/feed.xml`)));
    expect(more.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429]);

    redis!.resume();
    await eventually(async () => (await ready(s)).redis.status === "up", 10_000, "up again");
    // Only the three requests before the degraded state ever sent Redis a command.
    const client = new RedisClient(redis!.url);
    await client.connect();
    const stats = String(await client.send("INFO", ["commandstats"]));
    client.close();
    expect(/cmdstat_set:calls=(\d+)/.exec(stats)?.[1]).toBe("3");
  }, 30_000);
});
