/**
 * What an instance accepts from Redis, with a real redis-server and the service as a real process:
 * forged, future-dated and unsigned snapshots are refused and logged, and a hung Redis is down.
 */

import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { RedisClient } from "bun";
import { lastGoodPath } from "../../src/catalog/snapshot/last-good";
import { readPrevious } from "../../src/catalog/snapshot/previous";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { SNAPSHOT_CHANNEL, shareSnapshot } from "../../src/cluster/distribution";
import { RedisLink } from "../../src/cluster/redis";
import {
  CURRENT_KEY,
  headKey,
  PART_BYTES,
  partKey,
  type SnapshotHead,
  signHead,
} from "../../src/cluster/snapshot-head";
import { verifySnapshotFile } from "../../src/cluster/verify";
import { eventually } from "../helpers";
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

interface Planting {
  /** Signs the head with this key. */
  key?: string;
  /** Declares this size instead of the bytes' own. */
  bytes?: number;
  /** Replaces the first part, once the head is computed, with this many bytes. */
  swell?: number;
  /** Changes the first part's first byte once the head is computed, keeping its length. */
  tamper?: boolean;
}

/** Writes `bytes` into Redis as the current shared snapshot, as a hostile writer would, and announces it. */
async function plant(url: string, snapshotAt: string, bytes: Uint8Array, how: Planting = {}): Promise<void> {
  const client = new RedisClient(url);
  await client.connect();
  for (let part = 0; part * PART_BYTES < bytes.byteLength; part++)
    await client.set(partKey(snapshotAt, part), bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES));
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const head: SnapshotHead = { snapshotAt, bytes: how.bytes ?? bytes.byteLength, sha256 };
  if (how.key) head.signature = signHead(how.key, head);
  if (how.swell) await client.set(partKey(snapshotAt, 0), new Uint8Array(how.swell));
  if (how.tamper) await client.setrange(partKey(snapshotAt, 0), 0, bytes[0] === 1 ? "\u0002" : "\u0001");
  await client.set(headKey(snapshotAt), JSON.stringify(head));
  await client.set("catalog:snapshot:current", snapshotAt);
  await client.publish(SNAPSHOT_CHANNEL, snapshotAt);
  client.close();
}

/** What Redis reports of the commands it ran and the bytes it sent to its clients. */
async function redisStats(url: string): Promise<{ gets: number; sentBytes: number }> {
  const client = new RedisClient(url);
  await client.connect();
  const commands = String(await client.send("INFO", ["commandstats"]));
  const stats = String(await client.send("INFO", ["stats"]));
  client.close();
  return {
    gets: Number(/cmdstat_get:calls=(\d+)/.exec(commands)?.[1] ?? 0),
    sentBytes: Number(/total_net_output_bytes:(\d+)/.exec(stats)?.[1]),
  };
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
    // REDIS_URL without REDIS_SNAPSHOT_KEY is a warning at start.
    expect(String((await s.waitFor("snapshot.unsigned", 1000)).warning)).toContain("REDIS_SNAPSHOT_KEY");
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
    await plant(redis!.url, unsigned, bytes, { key: "another-key-entirely" });
    expect(await s.waitFor("snapshot.refused", 15_000)).toMatchObject({ reason: "not signed with REDIS_SNAPSHOT_KEY" });
    expect(s.events.some((e) => e.event === "snapshot.unsigned")).toBe(false);

    const link = new RedisLink(redis!.url, () => {});
    await link.connect();
    const signed = new Date(Date.parse(unsigned) + 1000).toISOString();
    await shareSnapshot(link, snapshotFile(env!, "signed.sqlite", signed), () => {}, { key: KEY });
    link.close();
    await eventually(async () => (await ready(s)).snapshotAt === signed, 15_000, "the signed snapshot is taken");
  }, 30_000);

  test("with REDIS_SNAPSHOT_KEY, a current pointer whose head is not signed does not stop the next genuine share", async () => {
    await start({ REDIS_SNAPSHOT_KEY: KEY });
    const client = new RedisClient(redis!.url);
    // Anyone who can write to Redis points the current key at a near-future time with no signed head.
    const pointer = new Date(Date.now() + 30_000).toISOString();
    await client.set(CURRENT_KEY, pointer);
    client.close();
    const events: Array<Record<string, unknown>> = [];
    const link = new RedisLink(redis!.url, () => {});
    await link.connect();
    const genuine = recent();
    await shareSnapshot(
      link,
      snapshotFile(env!, "genuine.sqlite", genuine),
      (event, fields) => events.push({ event, ...fields }),
      {
        key: KEY,
      },
    );
    link.close();
    expect(events.map((e) => e.event)).toEqual(["snapshot.share_replacing", "snapshot.shared"]);
    expect(events[0]).toMatchObject({ current: pointer, reason: expect.stringContaining("no head") });
    await eventually(
      async () => (await ready(service!)).snapshotAt === genuine,
      15_000,
      "the genuine snapshot is taken",
    );
  }, 30_000);

  test("with REDIS_SNAPSHOT_KEY, an unsigned snapshot is refused from its head: not one of its parts is fetched", async () => {
    const s = await start({ REDIS_SNAPSHOT_KEY: KEY });
    await plant(redis!.url, recent(), new Uint8Array(24 * 1024 * 1024));
    expect(await s.waitFor("snapshot.refused", 15_000)).toMatchObject({ reason: "not signed with REDIS_SNAPSHOT_KEY" });
    const stats = await redisStats(redis!.url);
    expect(stats.gets).toBe(0);
    expect(stats.sentBytes).toBeLessThan(1024 * 1024);
  }, 30_000);

  test("declaring more than REDIS_SNAPSHOT_MAX_BYTES, or with a part longer than its head says, is refused unread; a sound one is taken", async () => {
    const s = await start({ REDIS_SNAPSHOT_KEY: KEY, REDIS_SNAPSHOT_MAX_BYTES: String(1024 * 1024) });
    const big = recent();
    await plant(redis!.url, big, new Uint8Array(24 * 1024 * 1024), { key: KEY });
    const tooBig = await s.waitFor("snapshot.refused", 15_000);
    expect(String(tooBig.reason)).toContain("more than REDIS_SNAPSHOT_MAX_BYTES");

    const swollen = new Date(Date.parse(big) + 1000).toISOString();
    const bytes = await Bun.file(snapshotFile(env!, "swollen.sqlite", swollen)).bytes();
    await plant(redis!.url, swollen, bytes, { key: KEY, swell: 24 * 1024 * 1024 });
    await eventually(
      () => s.events.some((e) => e.event === "snapshot.refused" && e.snapshotAt === swollen),
      15_000,
      "the swollen snapshot refused",
    );
    const refused = s.events.find((e) => e.event === "snapshot.refused" && e.snapshotAt === swollen)!;
    expect(String(refused.reason)).toContain("part 0 holds");
    const stats = await redisStats(redis!.url);
    expect(stats.gets).toBe(0);
    expect(stats.sentBytes).toBeLessThan(1024 * 1024);

    const tampered = new Date(Date.parse(big) + 2000).toISOString();
    const original = await Bun.file(snapshotFile(env!, "tampered.sqlite", tampered)).bytes();
    await plant(redis!.url, tampered, original, { key: KEY, tamper: true });
    await eventually(
      () => s.events.some((e) => e.event === "snapshot.refused" && e.snapshotAt === tampered),
      15_000,
      "the tampered snapshot refused",
    );
    const changed = s.events.find((e) => e.event === "snapshot.refused" && e.snapshotAt === tampered)!;
    expect(String(changed.reason)).toContain("do not hash to the SHA-256");

    const sound = new Date(Date.parse(big) + 3000).toISOString();
    await plant(redis!.url, sound, await Bun.file(snapshotFile(env!, "sound.sqlite", sound)).bytes(), { key: KEY });
    await eventually(async () => (await ready(s)).snapshotAt === sound, 15_000, "the sound snapshot is taken");
    expect((await redisStats(redis!.url)).gets).toBe(2);
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
