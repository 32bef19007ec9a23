/**
 * Several instances and one Redis, all real processes: src/index.ts three or four times on their
 * own ports and database files, a real redis-server, and the fake hosting platform for the refresh.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "../helpers";
import { within } from "../refresh/cli";
import { Env, OLD_SNAPSHOT_AT } from "../refresh/support";
import { ensureStopped, type Service, startService } from "../reliability/support/process";
import { RedisServer } from "./redis-server";

/** A cron pattern that fires once, `seconds` from now (UTC). */
function onceIn(seconds: number): string {
  const at = new Date(Date.now() + seconds * 1000);
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
}

async function snapshotAt(service: Service): Promise<string> {
  const body = (await (await fetch(`${service.url}/readyz`)).json()) as { snapshotAt: string };
  return body.snapshotAt;
}

async function readyRedis(service: Service): Promise<{ status: string; limiter: string }> {
  const body = (await (await fetch(`${service.url}/readyz`)).json()) as { redis: { status: string; limiter: string } };
  return body.redis;
}

function count(services: Service[], event: string): number {
  return services.reduce((n, s) => n + s.events.filter((e) => e.event === event).length, 0);
}

/** A fresh database per instance, each a copy of the fake's starting snapshot. */
function instanceEnv(env: Env, redis: RedisServer, name: string, extra: Record<string, string>) {
  const dir = join(env.dir, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(env.databasePath, join(dir, "catalog.sqlite"));
  return {
    DATABASE_PATH: join(dir, "catalog.sqlite"),
    REDIS_URL: redis.url,
    GITHUB_API_URL: env.github.url,
    GITHUB_TOKEN: "test-token",
    REFRESH_DATA_DIR: env.dataDir,
    TZ: "UTC",
    ...extra,
  };
}

describe("three instances and one Redis", () => {
  let env: Env;
  let redis: RedisServer;
  const services: Service[] = [];
  let fireAt: number;
  let gate: ReturnType<Env["github"]["hold"]>;

  beforeAll(async () => {
    env = new Env();
    env.github.add({ full_name: "acme/one", stars: 3 });
    env.publishFake();
    redis = await new RedisServer().start();
    // The fetch waits until every instance's tick has come, so the three ticks meet one running refresh.
    gate = env.github.hold("graphql");
    const pattern = onceIn(8);
    fireAt = Date.now() + 8000;
    const started = await Promise.all(
      ["a", "b", "c"].map((name) => startService(instanceEnv(env, redis, name, { REFRESH_CRON: pattern }))),
    );
    services.push(...started);
  }, 30_000);

  afterAll(async () => {
    gate.release();
    for (const s of services) await ensureStopped(s);
    await redis.stop();
    await env.stop();
  });

  test("a client alternating between instances gets 429 from the second within the window", async () => {
    const [a, b] = services;
    const first = await fetch(`${a!.url}/api/v1/plugins?q=limit`);
    const second = await fetch(`${b!.url}/api/v1/plugins?q=limit`);
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(second.headers.get("retry-after"))).toBeLessThanOrEqual(2);
    expect(await readyRedis(b!)).toMatchObject({ status: "up", limiter: "shared" });
  });

  test("the schedule firing on all three runs one refresh, and all three serve its snapshot within 5 s", async () => {
    await within(gate.arrived, fireAt - Date.now() + 10_000, "a refresh");
    await eventually(() => count(services, "refresh.locked") === 2, 5000, "the two other ticks to find the lock held");
    gate.release();
    const publisher = await Promise.any(services.map((s) => s.waitFor("refresh.published", 15_000).then(() => s)));
    const published = await snapshotAt(publisher);
    expect(published).not.toBe(OLD_SNAPSHOT_AT);
    const took = await eventually(
      async () => (await Promise.all(services.map(snapshotAt))).every((at) => at === published),
      5000,
      "every instance serving the new snapshot",
    );
    expect(took).toBeLessThan(5000);
    expect(count(services, "refresh.started")).toBe(1);
    expect(services.filter((s) => s.events.some((e) => e.event === "refresh.published"))).toEqual([publisher]);
    await eventually(() => count(services, "snapshot.fetched") === 2, 2000, "two snapshot.fetched lines");
  }, 30_000);

  test("a fourth instance started later serves the shared snapshot, not the one on its disk", async () => {
    const published = await snapshotAt(services[0]!);
    expect(published).not.toBe(OLD_SNAPSHOT_AT);
    const fourth = await startService(instanceEnv(env, redis, "d", {}));
    services.push(fourth);
    const ready = await fetch(`${fourth.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { snapshotAt: string }).snapshotAt).toBe(published);
  });

  test("Redis killed: every request answered from the local table; Redis back: the shared limit again", async () => {
    const [a, b] = services;
    await redis.kill();
    await Promise.all(services.map((s) => s.waitFor("redis.down", 5000)));
    for (const s of services) expect(await readyRedis(s)).toMatchObject({ status: "down", limiter: "in-process" });
    // Each instance limits on its own: the client's first request to each is admitted.
    for (const [i, s] of services.entries()) {
      for (const path of [`/api/v1/plugins?q=down${i}`, "/api/v1/plugins/acme/one", "/plugins/feed.xml"]) {
        const response = await fetch(s.url + path);
        expect(response.status).toBe(200);
      }
      expect((await fetch(`${s.url}/api/v1/plugins?q=down${i}`)).status).toBe(429);
    }
    // The outage goes on through reconnections (each instance tries two connections every 500 ms):
    // a stand-in on the port counts them, and each instance still logged its outage once.
    const standIn = redis.standIn();
    const tries = 2 * 2 * services.length;
    await eventually(() => standIn.tries() >= tries, 10_000, `${tries} connections tried`);
    standIn.stop();
    for (const s of services) expect(s.events.filter((e) => e.event === "redis.down")).toHaveLength(1);

    await redis.start();
    await Promise.all(services.map((s) => s.waitFor("redis.up", 10_000)));
    // A route no instance's own table counted during the outage: b's 429 can only be the shared table's.
    expect((await fetch(`${a!.url}/market/manifest.json`)).status).toBe(200);
    expect((await fetch(`${b!.url}/market/manifest.json`)).status).toBe(429);
    expect(await readyRedis(b!)).toMatchObject({ status: "up", limiter: "shared" });
  }, 30_000);
});

describe("the refreshing instance killed mid-refresh", () => {
  let env: Env;
  let redis: RedisServer;
  const services: Service[] = [];
  afterEach(async () => {
    for (const s of services) await ensureStopped(s);
    await redis.stop();
    await env.stop();
  });

  test("its lock expires and a later tick on another instance refreshes", async () => {
    env = new Env();
    env.github.add({ full_name: "acme/one", stars: 3 });
    env.publishFake();
    redis = await new RedisServer().start();
    const gate = env.github.hold("graphql");
    const extra = { REFRESH_CRON: "*/2 * * * * *", REDIS_LOCK_TTL_MS: "2000" };
    services.push(...(await Promise.all(["a", "b"].map((name) => startService(instanceEnv(env, redis, name, extra))))));
    await within(gate.arrived, 10_000, "a refresh to start fetching");
    const started = (s: Service) => s.events.some((e) => e.event === "refresh.started");
    await eventually(() => services.some(started), 5000, "the refresh.started line");
    const holder = services.find(started)!;
    const other = services.find((s) => s !== holder)!;
    holder.proc.kill("SIGKILL");
    await holder.exited;
    gate.release();
    const lockedBefore = other.events.filter((e) => e.event === "refresh.locked").length;
    await other.waitFor("refresh.published", 15_000);
    expect(lockedBefore + other.events.filter((e) => e.event === "refresh.locked").length).toBeGreaterThan(0);
    expect(await snapshotAt(other)).not.toBe(OLD_SNAPSHOT_AT);
  }, 30_000);
});

describe("an instance whose Redis is down", () => {
  test("starts and serves its local snapshot, and its ticks start no refresh", async () => {
    const env = new Env();
    const redis = await new RedisServer().start();
    let service: Service | undefined;
    try {
      env.github.add({ full_name: "acme/one", stars: 3 });
      env.publishFake();
      await redis.kill();
      service = await startService(instanceEnv(env, redis, "a", { REFRESH_CRON: "* * * * * *" }));
      const response = await fetch(`${service.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        snapshotAt: OLD_SNAPSHOT_AT,
        redis: { status: "down", limiter: "in-process" },
      });
      const ticks = () => service!.events.filter((e) => e.event === "refresh.locked").length;
      await eventually(() => ticks() >= 2, 5000, "two ticks");
      expect(service.events.some((e) => e.event === "refresh.started")).toBe(false);
      expect(Object.keys(env.github.calls)).toEqual([]);
      expect(service.events.filter((e) => e.event === "redis.down")).toHaveLength(1);
    } finally {
      await ensureStopped(service);
      await redis.stop();
      await env.stop();
    }
  }, 20_000);
});
