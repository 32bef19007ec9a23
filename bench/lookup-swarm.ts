/**
 * /healthz while 40 clients POST `/api/v1/lookup` with the plugins they have installed
 * (lookup-bodies.ts), on bench:cost's catalog (100,000 plugins, realistic vocabulary, a day of
 * history), the prober in a process of its own; trees side by side, taking turns.
 * Usage: bun run bench:lookup [count] [RUNS=3] [EVERY_MS=2100] [SOURCE_TREE=<dir>…]
 * (each SOURCE_TREE runs that checkout's service beside this tree's, the order turning each run;
 * EVERY_MS: each client's pace, 50 being as fast as the lookup's rate limit admits)
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { COST_OUT, historyFile } from "./cost-history";
import { memoryOf } from "./cost-memory";
import { f } from "./cost-report";
import { probeIdle, SWARM, type SwarmResult, swarm } from "./cost-swarm";
import { heldIds, lookupMix } from "./lookup-bodies";
import { clientsOffServerCpu, freePort, startService } from "./server";
import { median } from "./stats";

const ROOT = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const setting = (key: string, otherwise: number) =>
  Number(args.find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1) ?? otherwise);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const runs = setting("RUNS", 3);
const everyMs = setting("EVERY_MS", SWARM.everyMs);
const trees: Array<[string, string]> = [
  ["this tree", ROOT],
  ...args.filter((a) => a.startsWith("SOURCE_TREE=")).map((a): [string, string] => [a.slice(12), a.slice(12)]),
];
const cpus = navigator.hardwareConcurrency ?? 1;

interface Run extends SwarmResult {
  idleP99: number;
  answersPerSecond: number;
  /** The highest peak of the service's run, its start included, MB. */
  highestRssMb: number;
}

/**
 * One run on one tree's service, started fresh on a copy of the catalog (one file per tree, so a
 * start finds the documents its tree wrote at the previous one): the prober alone, then the swarm.
 */
async function measure(tree: string, k: number, path: string, times: string[]): Promise<Run> {
  const db = join(COST_OUT, `lookup-${count}-${k}.sqlite`);
  copyFileSync(path, db);
  const server = await startService(db, await freePort(), cpus > 1 ? 0 : null, {
    RATE_LIMIT_WINDOW_MS: "2000",
    TRUST_PROXY: "true",
    SOURCE_TREE: tree,
  });
  const memory = memoryOf(server.pid);
  try {
    // Ten seconds of the prober alone: the machine's own noise, and the start's work settled.
    const idle = await probeIdle(server, 10);
    const s = await swarm(server, memory, lookupMix(heldIds(path), times, SWARM.clients), everyMs);
    return {
      ...s,
      idleP99: idle.p99,
      answersPerSecond: (s.statuses["200"] ?? 0) / SWARM.seconds,
      highestRssMb: memory.highest(),
    };
  } finally {
    await server.stop();
  }
}

const spread = (values: number[], digits = 1) =>
  `${f(median(values), digits)} (${f(Math.min(...values), digits)}-${f(Math.max(...values), digits)})`;

function printSummary(results: Map<string, Run[]>): void {
  console.log(
    "\n| tree | /healthz p50 ms | p99 ms | max ms | alone p99 ms | lookup 200 | 503 | other | answers/s | lookup p99 ms | peak RSS MB (swarm) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const [label, rs] of results) {
    const of = (pick: (r: Run) => number, digits = 1) => spread(rs.map(pick), digits);
    const other = (r: Run) =>
      Object.entries(r.statuses).reduce((n, [s, c]) => n + (s === "200" || s === "503" ? 0 : c), 0);
    console.log(
      `| ${label} | ${of((r) => r.p50)} | ${of((r) => r.p99)} | ${of((r) => r.max)} | ${of((r) => r.idleP99)} | ` +
        `${of((r) => r.statuses["200"] ?? 0, 0)} | ${of((r) => r.statuses["503"] ?? 0, 0)} | ${of(other, 0)} | ` +
        `${of((r) => r.answersPerSecond)} | ${of((r) => r.answerP99)} | ${of((r) => r.peakRssMb, 0)} |`,
    );
  }
  console.log("\nmedian (range) over the runs; /healthz target p99 <= 50 ms (bench/cost-report.ts)");
}

const { path, times } = historyFile(count);
const apart = clientsOffServerCpu();
console.log(
  `bench:lookup: ${count} plugins, ${SWARM.clients} clients POSTing /api/v1/lookup, one request / ${everyMs} ms each, ` +
    `${SWARM.seconds} s, /healthz every ${SWARM.probeEveryMs} ms; ${runs} runs per tree, taking turns; ` +
    `the server on CPU 0${apart ? ", the clients and the prober on the others" : ", the clients unpinned"}.`,
);
const results = new Map<string, Run[]>(trees.map(([label]) => [label, []]));
for (let run = 0; run < runs; run++) {
  for (let k = 0; k < trees.length; k++) {
    const t = (run + k) % trees.length;
    const [label, tree] = trees[t]!;
    const r = await measure(tree, t, path, times);
    results.get(label)!.push(r);
    console.log(
      `run ${run + 1}, ${label}: /healthz p50 ${f(r.p50, 1)} p99 ${f(r.p99, 1)} max ${f(r.max, 1)} ms over ${r.probes} ` +
        `probes (${r.failures} failed; alone p99 ${f(r.idleP99, 1)}); statuses ${JSON.stringify(r.statuses)}, ` +
        `${f(r.answersPerSecond, 1)} answers/s, lookup p50 ${f(r.answerP50, 1)} p99 ${f(r.answerP99, 1)} ms; ` +
        `peak RSS during the swarm ${f(r.peakRssMb)} MB (${f(r.rssBefore)} MB as it began, ${f(r.highestRssMb)} MB with the start)`,
    );
  }
}
printSummary(results);
