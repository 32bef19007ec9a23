/**
 * `bun run bench:snapshot-refusal [values] [MB]`: what unsigned shared snapshots cost an instance
 * that has REDIS_SNAPSHOT_KEY. A real redis-server and the service; a writer plants `values`
 * unsigned snapshots of `MB` each (5 of 200 MB by default), one after another, each announced; the
 * bench waits for each refusal and prints the server's RSS before and at its peak, the bytes Redis
 * sent to its clients, and /healthz latencies meanwhile (bench/prober.ts, every 100 ms).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RedisClient } from "bun";
import { SNAPSHOT_CHANNEL } from "../src/cluster/distribution";
import { headKey, partKey } from "../src/cluster/snapshot-head";
import { RedisServer } from "../test/cluster/redis-server";
import { Env, record } from "../test/refresh/support";
import { ROOT, startService } from "../test/reliability/support/process";

const [values = 5, megabytes = 200] = process.argv.slice(2).map(Number);

function rssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

const env = new Env();
env.publish([record("acme/local")]);
const redis = await new RedisServer().start();
const service = await startService({
  DATABASE_PATH: env.databasePath,
  REDIS_URL: redis.url,
  REDIS_SNAPSHOT_KEY: "a-key-every-instance-shares",
  TZ: "UTC",
});
await Bun.sleep(1000);
const before = rssMb(service.proc.pid);
const prober = Bun.spawn([process.execPath, join(ROOT, "bench", "prober.ts"), service.url, "100", "100000"], {
  stdout: "pipe",
});
const client = new RedisClient(redis.url);
await client.connect();
const body = new Uint8Array(megabytes * 1024 * 1024).fill(7);
const sha256 = new Bun.CryptoHasher("sha256").update(body).digest("hex");
const started = performance.now();
for (let i = 0; i < values; i++) {
  const at = new Date(Date.now() - 60_000 + i * 1000).toISOString();
  await client.set(partKey(at, 0), body);
  await client.set(headKey(at), JSON.stringify({ snapshotAt: at, bytes: body.byteLength, sha256 }));
  await client.set("catalog:snapshot:current", at);
  await client.publish(SNAPSHOT_CHANNEL, at);
  const refused = () => service.events.some((e) => e.event === "snapshot.refused" && e.snapshotAt === at);
  while (!refused()) await Bun.sleep(20);
}
const seconds = (performance.now() - started) / 1000;
const after = rssMb(service.proc.pid);
const stats = String(await client.send("INFO", ["stats"]));
client.close();
prober.kill("SIGTERM");
const { latencies = [] } = JSON.parse((await new Response(prober.stdout).text()) || "{}") as { latencies?: number[] };
const sorted = latencies.sort((a, b) => a - b);
const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]?.toFixed(1);
console.log(
  `${values} unsigned values of ${megabytes} MB refused in ${seconds.toFixed(1)} s; server RSS ${before.rss.toFixed(0)} MB ` +
    `before, ${after.rss.toFixed(0)} MB after, peak ${after.hwm.toFixed(0)} MB; Redis sent its clients ` +
    `${(Number(/total_net_output_bytes:(\d+)/.exec(stats)?.[1]) / 1024).toFixed(0)} KB; /healthz ${sorted.length} probes ` +
    `p50 ${at(50)} ms p99 ${at(99)} ms max ${sorted.at(-1)?.toFixed(1)} ms`,
);
service.proc.kill("SIGTERM");
await service.exited;
await redis.stop();
await env.stop();
