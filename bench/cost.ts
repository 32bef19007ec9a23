/**
 * What one admitted request can cost at catalog scale: a worst-case table per endpoint (cold and
 * warm time, bytes, RSS) and a swarm of polite clients on expensive endpoints while a prober asks
 * /healthz, on a synthetic catalog with a realistic vocabulary and a day of history.
 * Usage: bun run bench:cost [count] [SOURCE_TREE=<dir>…]   (count: 100000 by default; each
 * SOURCE_TREE runs that checkout's service too, one after another in the same run, for ratios)
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COST_OUT, historyFile } from "./cost-history";
import { type Memory, memoryOf } from "./cost-memory";
import { f, printTable, printTargets } from "./cost-report";
import { afterSwap, neverReading } from "./cost-stress";
import { everydayMix, expensiveMix, probeIdle, SWARM, type SwarmRequest, swarm } from "./cost-swarm";
import { costTable } from "./cost-table";
import { heldIds, lookupMix } from "./lookup-bodies";
import { clientsOffServerCpu, freePort, memoryLimitCollections, type RunningServer, startService } from "./server";

const ROOT = join(import.meta.dir, "..");

const args = process.argv.slice(2);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const trees: Array<[string, string]> = [
  ...args.filter((a) => a.startsWith("SOURCE_TREE=")).map((a): [string, string] => [a.slice(12), a.slice(12)]),
  ["this tree", ROOT],
];
const cpus = navigator.hardwareConcurrency ?? 1;

/** The server's request.slow lines (handler time over 50 ms) written after `from` characters of its log. */
function slowRequests(logPath: string, from: number): Array<{ route: string; durationMs: number }> {
  return readFileSync(logPath, "utf8")
    .slice(from)
    .split("\n")
    .filter((line) => line.includes('"request.slow"'))
    .map((line) => JSON.parse(line) as { route: string; durationMs: number });
}

/** A swarm on `mix`, printed with the server's slow requests and the memory limit's collections meanwhile. */
async function swarmed(name: string, server: RunningServer, memory: Memory, mix: SwarmRequest[], logPath: string) {
  const logged = readFileSync(logPath, "utf8").length;
  const before = await memoryLimitCollections(server.url);
  const s = await swarm(server, memory, mix);
  const after = await memoryLimitCollections(server.url);
  const slow = slowRequests(logPath, logged);
  const slowest = slow.sort((a, b) => b.durationMs - a.durationMs).slice(0, 3);
  console.log(
    `swarm on ${name} (${SWARM.clients} clients, 1 request / ${SWARM.everyMs / 1000} s each, ${SWARM.seconds} s, junk parameters): ` +
      `/healthz p50 ${f(s.p50, 1)} ms, p99 ${f(s.p99, 1)} ms, max ${f(s.max, 1)} ms over ${s.probes} probes (${s.failures} failed); ` +
      `peak RSS ${f(s.peakRssMb)} MB (${f(s.rssBefore)} MB as it began); statuses ${JSON.stringify(s.statuses)}, ${f(s.mb)} MB read`,
  );
  console.log(
    `the server's request.slow lines during it (handler time over 50 ms): ${slow.length}` +
      (slowest.length ? `, slowest ${slowest.map((l) => `${l.route} ${f(l.durationMs)} ms`).join(", ")}` : "") +
      `; the memory limit's collections during it: ${after.count - before.count}, ` +
      `pausing ${f(after.pauseMs - before.pauseMs)} ms in all`,
  );
  return s;
}

/** Every measurement of bench:cost on one tree's service, printed as it comes. */
async function measureTree(label: string, tree: string, path: string, times: string[]): Promise<void> {
  const db = join(COST_OUT, `serve-${count}.sqlite`);
  copyFileSync(path, db);
  const logPath = join(COST_OUT, "server.log");
  const server = await startService(
    db,
    await freePort(),
    cpus > 1 ? 0 : null,
    { RATE_LIMIT_WINDOW_MS: "2000", TRUST_PROXY: "true", SOURCE_TREE: tree },
    logPath,
  );
  const memory = memoryOf(server.pid);
  try {
    console.log(`\n## ${label}\n`);
    console.log(`the server's RSS once started: ${f(memory.rss())} MB\n`);
    const rows = await costTable(server, memory, times);
    printTable(rows);
    const idle = await neverReading(server, memory, 30);
    console.log(
      `\n30 connections asking catalog.json without gzip, never reading: RSS ${f(idle.before)} -> ${f(idle.after)} MB`,
    );
    const swap = await afterSwap(server, memory, db, times, logPath);
    console.log(
      `20 concurrent requests right after a swap: slowest ${f(swap.slowestMs)} ms, peak RSS +${f(swap.peakDeltaMb)} MB ` +
        `until the new snapshot served, ${f(swap.servedAfterMs / 1000, 1)} s after the file was replaced`,
    );
    const alone = await probeIdle(server, 10);
    console.log(
      `/healthz alone, no clients, 10 s (the machine's own noise): p50 ${f(alone.p50, 1)} ms, p99 ${f(alone.p99, 1)} ms, ` +
        `max ${f(alone.max, 1)} ms over ${alone.probes} probes`,
    );
    const expensive = await swarmed(
      "the expensive mix",
      server,
      memory,
      await expensiveMix(server.url, times),
      logPath,
    );
    const everyday = await swarmed("the everyday mix", server, memory, await everydayMix(server.url), logPath);
    const lookups = lookupMix(heldIds(path), times, SWARM.clients);
    const lookup = await swarmed("the lookup's POST", server, memory, lookups, logPath);
    console.log(`the highest peak RSS of the whole run of this service: ${f(memory.highest())} MB`);
    printTargets(rows, expensive, everyday, lookup);
  } finally {
    await server.stop();
  }
}

const { path, times } = historyFile(count);
const apart = clientsOffServerCpu();
console.log(
  `bench:cost: ${count} plugins (realistic vocabulary), ${times.length} snapshots 6 h apart; ${cpus} CPUs, ` +
    `the server pinned to CPU 0${apart ? ", the clients and the prober on the others" : ", the clients unpinned"}; a shared, noisy machine.`,
);
for (const [label, tree] of trees) await measureTree(label, tree, path, times);
