/**
 * `bun run bench:redis [rounds]`: what sharing through Redis costs. Hot req/s and p99 of the list
 * endpoint with the in-process limiter and with the Redis limiter, the two services taking turns
 * (1 s wrk runs, `rounds` each, 4 by default, a new client per request so every request is
 * admitted); then the time a 100k-plugin snapshot takes from being shared to being served by two
 * other instances. Starts its own redis-server; uses or builds bench/out/synthetic-100000.sqlite.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishSnapshot } from "../src/catalog/snapshot/publish";
import { Snapshot } from "../src/catalog/snapshot/snapshot";
import { shareSnapshot } from "../src/cluster/distribution";
import { RedisLink } from "../src/cluster/redis";
import { buildSnapshotFile } from "./prepare";
import { CLIENT_HEADERS } from "./scenarios";
import { freePort, type RunningServer, startService } from "./server";
import { runWrk } from "./wrk";

const OUT = join(import.meta.dir, "out");
const SNAPSHOT = join(OUT, "synthetic-100000.sqlite");
const rounds = Number(process.argv[2] ?? "4");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function startRedis(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"];
  const proc = Bun.spawn(["redis-server", ...args], { stdout: "ignore", stderr: "inherit" });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      (await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } })).end();
      break;
    } catch (error) {
      if (i > 200) throw error;
      await Bun.sleep(25);
    }
  }
  const stop = async () => {
    proc.kill();
    await proc.exited;
  };
  return { url, stop };
}

async function snapshotAtOf(server: RunningServer): Promise<string> {
  return ((await (await fetch(`${server.url}/readyz`)).json()) as { snapshotAt: string }).snapshotAt;
}

mkdirSync(OUT, { recursive: true });
if (!existsSync(SNAPSHOT)) await buildSnapshotFile(100_000, SNAPSHOT);
const work = mkdtempSync(join(tmpdir(), "bench-redis-"));
const redis = await startRedis(work);
const servers: RunningServer[] = [];
try {
  const limited = { RATE_LIMIT_WINDOW_MS: "2000", TRUST_PROXY: "true" };
  const local = await startService(SNAPSHOT, await freePort(), 0, limited);
  const shared = await startService(SNAPSHOT, await freePort(), 0, { ...limited, REDIS_URL: redis.url });
  servers.push(local, shared);
  const runs: Record<string, Array<{ rps: number; p99: number }>> = { "in-process": [], redis: [] };
  for (let round = 0; round <= rounds; round++) {
    for (const [name, server] of [
      ["in-process", local],
      ["redis", shared],
    ] as const) {
      const r = await runWrk({
        url: server.url,
        paths: ["/api/v1/plugins"],
        headers: { ...CLIENT_HEADERS },
        connections: 32,
        seconds: 1,
        varyForwardedFor: true,
        cpu: 1,
        workDir: OUT,
      });
      if (r.errors > 0) throw new Error(`${name}: ${r.errors} failed requests`);
      // The first round warms both up and is not counted.
      if (round > 0) runs[name]!.push({ rps: r.reqPerSec, p99: r.p99Ms });
    }
  }
  const local_ = runs["in-process"]!;
  const redis_ = runs.redis!;
  const rps = (xs: typeof local_) => median(xs.map((x) => x.rps));
  const p99 = (xs: typeof local_) => median(xs.map((x) => x.p99));
  console.log(`hot /api/v1/plugins, limiter on, a new client per request, medians of ${rounds} alternating 1 s runs:`);
  console.log(`  in-process limiter  ${rps(local_).toFixed(0)} req/s  p99 ${p99(local_).toFixed(2)} ms`);
  console.log(`  Redis limiter       ${rps(redis_).toFixed(0)} req/s  p99 ${p99(redis_).toFixed(2)} ms`);
  console.log(`  Redis / in-process  ${(rps(redis_) / rps(local_)).toFixed(2)} × req/s`);
  await Promise.all(servers.splice(0).map((s) => s.stop()));

  // Two instances on a small old snapshot, then the 100k one shared as a refreshing instance would.
  const followers: RunningServer[] = [];
  for (const name of ["b", "c"]) {
    const path = join(work, name, "catalog.sqlite");
    publishSnapshot(path, { snapshotAt: "2000-01-01T00:00:00.000Z", plugins: [], categoryIds: ["other"] });
    followers.push(await startService(path, await freePort(), 0, { REDIS_URL: redis.url }));
  }
  servers.push(...followers);
  const opened = Snapshot.open(SNAPSHOT);
  const target = opened.snapshotAt;
  opened.close();
  const link = new RedisLink(redis.url, () => {});
  await link.connect();
  const started = performance.now();
  await shareSnapshot(link, SNAPSHOT, () => {});
  const sharedMs = performance.now() - started;
  const reached = await Promise.all(
    followers.map(async (f) => {
      while ((await snapshotAtOf(f)) !== target) await Bun.sleep(10);
      return performance.now() - started;
    }),
  );
  link.close();
  const mb = Bun.file(SNAPSHOT).size / 2 ** 20;
  console.log(`100k-plugin snapshot (${mb.toFixed(0)} MB) to two other instances:`);
  console.log(`  stored and announced ${sharedMs.toFixed(0)} ms; served by both ${Math.max(...reached).toFixed(0)} ms`);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
}
