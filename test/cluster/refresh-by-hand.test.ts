/** `bun run refresh` with REDIS_URL: it takes the lock the instances share and shares what it publishes. */
import { afterEach, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { LOCK_KEY } from "../../src/cluster/lease";
import { spawnRefresh } from "../refresh/cli";
import { Env, OLD_SNAPSHOT_AT } from "../refresh/support";
import { RedisServer } from "./redis-server";

let env: Env;
let redis: RedisServer;
let client: RedisClient;
afterEach(async () => {
  client.close();
  await redis.stop();
  await env.stop();
});

async function setUp(): Promise<void> {
  env = new Env();
  env.github.add({ full_name: "acme/one", stars: 3 });
  env.publishFake();
  redis = await new RedisServer().start();
  client = new RedisClient(redis.url);
  await client.connect();
}

test("a run while another holds the lock exits 4; a free lock is taken, released, and the result shared", async () => {
  await setUp();
  await client.set(LOCK_KEY, "another-instance", "PX", 10_000);
  const before = env.bytes();
  const held = await spawnRefresh(env, { REDIS_URL: redis.url }).done();
  expect(held.code).toBe(4);
  expect(held.stdout).toContain("another instance is refreshing");
  expect(env.bytes().equals(before)).toBe(true);
  expect(await client.get(LOCK_KEY)).toBe("another-instance");

  await client.del(LOCK_KEY);
  const run = await spawnRefresh(env, { REDIS_URL: redis.url }).done();
  expect(run.code).toBe(0);
  const shared = await client.get("catalog:snapshot:current");
  expect(shared).not.toBeNull();
  expect(shared).not.toBe(OLD_SNAPSHOT_AT);
  const head = JSON.parse((await client.get(`catalog:snapshot:head:${shared}`))!) as { bytes: number };
  expect(head.bytes).toBe(env.bytes().byteLength);
  expect((await client.getBuffer(`catalog:snapshot:file:${shared}:0`))!.byteLength).toBe(env.bytes().byteLength);
  expect(await client.exists(LOCK_KEY)).toBe(false);
}, 30_000);

test("with Redis unreachable no refresh starts", async () => {
  await setUp();
  await redis.kill();
  const before = env.bytes();
  const run = await spawnRefresh(env, { REDIS_URL: redis.url }).done();
  expect(run.code).toBe(4);
  expect(run.stdout).toContain("Redis is unreachable");
  expect(env.bytes().equals(before)).toBe(true);
  expect(Object.keys(env.github.calls)).toEqual([]);
}, 30_000);
