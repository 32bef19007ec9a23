/**
 * `bun bench/share-snapshot.ts [snapshot]`: a signed snapshot shared through a real redis-server to
 * one instance with REDIS_SNAPSHOT_KEY (the 100k one `bun run bench:redis` builds in bench/out by
 * default): the time to store it, the time until the instance serves it (head read, parts fetched,
 * hashed and checked in a child process, swap), and the instance's peak RSS before and after.
 */
import { readFileSync } from "node:fs";
import { Snapshot } from "../src/catalog/snapshot/snapshot";
import { shareSnapshot } from "../src/cluster/distribution";
import { RedisLink } from "../src/cluster/redis";
import { RedisServer } from "../test/cluster/redis-server";
import { Env, record } from "../test/refresh/support";
import { startService } from "../test/reliability/support/process";

const SNAP = process.argv[2] ?? `${import.meta.dir}/out/synthetic-100000.sqlite`;
const hwm = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
const env = new Env();
env.publish([record("acme/local")], "2000-01-01T00:00:00.000Z");
const redis = await new RedisServer().start();
const key = "a-key-every-instance-shares";
const s = await startService({
  DATABASE_PATH: env.databasePath,
  REDIS_URL: redis.url,
  REDIS_SNAPSHOT_KEY: key,
  TZ: "UTC",
});
const before = hwm(s.proc.pid);
const o = Snapshot.open(SNAP);
const target = o.snapshotAt;
o.close();
const link = new RedisLink(redis.url, () => {});
await link.connect();
const t0 = performance.now();
await shareSnapshot(link, SNAP, () => {}, { key });
const shared = performance.now() - t0;
for (;;) {
  const b = (await (await fetch(`${s.url}/readyz`)).json()) as { snapshotAt?: string };
  if (b.snapshotAt === target) break;
  await Bun.sleep(50);
}
console.log(
  `${(Bun.file(SNAP).size / 2 ** 20).toFixed(0)} MB snapshot, signed: stored ${shared.toFixed(0)} ms, served by the follower ${(performance.now() - t0).toFixed(0)} ms; follower peak RSS ${before.toFixed(0)} -> ${hwm(s.proc.pid).toFixed(0)} MB`,
);
link.close();
s.proc.kill("SIGTERM");
await s.exited;
await redis.stop();
await env.stop();
