/**
 * `bun run bench:refresh-probe [count…]`: /healthz latency while a scheduled refresh runs. For each
 * count (10,000 and 100,000 by default) the real service starts on a snapshot of that many plugins,
 * the fake platform serves them and 100 newcomers whose SKILL.md front matter nests 4,000 deep, the
 * schedule fires, and bench/prober.ts (a process of its own) asks /healthz every 100 ms until the
 * new snapshot serves (the server opens, prepares and swaps it after the run publishes) and 3 s
 * more. Prints p50/p99/max, the run's duration, and the peak RSS of the server and of the
 * refresh's child process.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deepSkillSeeds } from "../test/fakes/hostile-repos";
import { Env } from "../test/refresh/support";
import { ROOT, startService } from "../test/reliability/support/process";

const HOSTILE = 100;
/** How long the probes go on once the new snapshot serves. */
const SETTLE_MS = 3000;
const counts = process.argv.slice(2).map(Number);

function onceIn(seconds: number): string {
  const at = new Date(Date.now() + seconds * 1000);
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
}

/** A process's resident and peak resident memory in MB, or null once it is gone. */
function memory(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

async function measure(count: number): Promise<void> {
  const env = new Env({ searches: [{ query: "topic:agent-skills" }] });
  for (let i = 0; i < count; i++)
    env.github.add({ full_name: `bench/plugin-${i}`, stars: i % 500, description: `plugin ${i} for agents` });
  env.publishFake();
  for (const seed of deepSkillSeeds(HOSTILE, "agent-skills")) env.github.add(seed);
  const fireIn = 6;
  const service = await startService({
    DATABASE_PATH: env.databasePath,
    GITHUB_API_URL: env.github.url,
    GITHUB_TOKEN: "bench-token",
    REFRESH_DATA_DIR: env.dataDir,
    REFRESH_MAX_GROWTH: "1000",
    REFRESH_CRON: onceIn(fireIn),
    TZ: "UTC",
  });
  // refresh.started comes from wherever the run's work runs (a tree without the child process too).
  await service.waitFor("refresh.started", (fireIn + 10) * 1000);
  const prober = Bun.spawn([process.execPath, join(ROOT, "bench", "prober.ts"), service.url, "100", "100000"], {
    stdout: "pipe",
  });
  const started = performance.now();
  const child = Number(service.events.find((e) => e.event === "refresh.process")?.pid ?? service.proc.pid);
  let childPeak = 0;
  let serverPeak = 0;
  const sampler = setInterval(() => {
    childPeak = Math.max(childPeak, memory(child)?.hwm ?? 0);
    serverPeak = Math.max(serverPeak, memory(service.proc.pid)?.hwm ?? 0);
  }, 100);
  const ended = await Promise.race(
    ["refresh.published", "refresh.failed", "refresh.refused", "refresh.incomplete"].map((event) =>
      service.waitFor(event, 3_600_000).then((e) => (e.summary || e.error ? e : service.waitFor(event, 3_600_000))),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  // The server's own share comes after the publish: it opens the new file, prepares it and swaps.
  // The probes go on until it serves (its second snapshot.loaded) and for SETTLE_MS after.
  const publishedAt = performance.now();
  let swapSeconds = Number.NaN;
  if (ended.event === "refresh.published") {
    const deadline = publishedAt + 600_000;
    while (service.events.filter((e) => e.event === "snapshot.loaded").length < 2 && performance.now() < deadline)
      await Bun.sleep(50);
    swapSeconds = (performance.now() - publishedAt) / 1000;
    await Bun.sleep(SETTLE_MS);
  }
  clearInterval(sampler);
  serverPeak = Math.max(serverPeak, memory(service.proc.pid)?.hwm ?? 0);
  prober.kill("SIGTERM");
  service.proc.kill("SIGTERM");
  await service.exited;
  const text = await new Response(prober.stdout).text();
  const { latencies = [] } = (text ? JSON.parse(text) : {}) as { latencies?: number[] };
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `${count.toLocaleString("en")} plugins + ${HOSTILE} hostile: ${String(ended.event)} in ${seconds.toFixed(1)} s ` +
      `(server pid ${service.proc.pid}, refresh pid ${child}); /healthz ${sorted.length} probes ` +
      `p50 ${ms(percentile(sorted, 50))} p99 ${ms(percentile(sorted, 99))} max ${ms(sorted.at(-1) ?? Number.NaN)}; ` +
      `peak RSS server ${serverPeak.toFixed(0)} MB, refresh child ${childPeak.toFixed(0)} MB; ` +
      `the new snapshot served ${swapSeconds.toFixed(1)} s after the publish (probed until ${SETTLE_MS / 1000} s after)`,
  );
  await env.stop();
}

for (const count of counts.length ? counts : [10_000, 100_000]) await measure(count);
