/**
 * `bun run bench`: builds synthetic catalogs of 10,000 and 100,000 plugins, serves each with the
 * real service pinned to CPU 0, loads it with wrk pinned to CPU 1, and prints one table against a
 * bare Bun.serve baseline measured in the same run, then the issue's targets checked against it.
 */
import { mkdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { buildSnapshotFile, catalogFacts, searchQueries, type BuiltSnapshot } from "./prepare";
import { coldScenarios, hotScenarios, type Scenario } from "./scenarios";
import { freePort, startBare, startService, type RunningServer } from "./server";
import { formatTable, formatTargets, type Row } from "./table";
import { checkTargets } from "./targets";
import { runWrk, type WrkResult } from "./wrk";

const SIZES = [10_000, 100_000];
/** Hot runs: the best of three one-second runs, which discounts bursts of other load on the machine. */
const HOT = { connections: 32, seconds: 1, repeats: 3 };
/**
 * Cold runs: one connection, so latency is a request's own cost, not time queued behind others;
 * the better of two passes over disjoint halves of the URLs, for the same reason as hot runs.
 */
const COLD = { connections: 1, seconds: 1, repeats: 2 };
const OUT = join(import.meta.dir, "out");

function progress(message: string): void {
  console.error(`[bench] ${message}`);
}

interface Cpus {
  server: number | null;
  load: number | null;
}

/** wrk and taskset, two CPUs: say what is missing and how to get it. */
function cpus(): Cpus {
  if (!Bun.which("wrk")) {
    console.error("wrk is not installed. On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y wrk\nElsewhere: https://github.com/wg/wrk");
    process.exit(1);
  }
  if (Bun.which("taskset") && availableParallelism() >= 2) return { server: 0, load: 1 };
  progress("WARNING: taskset (util-linux) or a second CPU is missing; server and wrk share the CPUs, numbers are lower and noisier.");
  return { server: null, load: null };
}

interface Target {
  server: RunningServer;
  catalog: string;
  kind: Row["kind"];
  bare: number;
  cpu: Cpus;
}

async function hotRun(t: Target, scenario: Scenario, varyForwardedFor = false): Promise<WrkResult> {
  let best: WrkResult | null = null;
  for (let i = 0; i < HOT.repeats; i++) {
    const r = await runWrk({ url: t.server.url, paths: scenario.paths, ...HOT, varyForwardedFor, cpu: t.cpu.load, workDir: OUT });
    if (best === null || r.reqPerSec > best.reqPerSec) best = r;
  }
  return best!;
}

async function coldRun(t: Target, scenario: Scenario): Promise<WrkResult> {
  const part = Math.ceil(scenario.paths.length / COLD.repeats);
  let best: WrkResult | null = null;
  for (let i = 0; i < COLD.repeats; i++) {
    const paths = scenario.paths.slice(i * part, (i + 1) * part);
    const r = await runWrk({ url: t.server.url, paths, ...COLD, onePass: true, cpu: t.cpu.load, workDir: OUT });
    if (best === null || r.p99Ms < best.p99Ms) best = r;
  }
  return best!;
}

async function measure(t: Target, scenario: Scenario, varyForwardedFor = false): Promise<Row> {
  const result = t.kind === "cold" ? await coldRun(t, scenario) : await hotRun(t, scenario, varyForwardedFor);
  if (result.errors > 0) throw new Error(`${scenario.name}: ${result.errors} failed requests`);
  const row: Row = {
    catalog: t.catalog, kind: t.kind, endpoint: scenario.name, reqPerSec: result.reqPerSec, p50Ms: result.p50Ms,
    p99Ms: result.p99Ms, ratioToBare: t.bare ? result.reqPerSec / t.bare : 1, rssMb: t.server.rssMb(),
  };
  progress(`${row.catalog} ${row.kind} ${row.endpoint}: ${row.reqPerSec.toFixed(0)} req/s, p99 ${row.p99Ms.toFixed(2)} ms, RSS ${row.rssMb.toFixed(0)} MB (${result.requests} requests)`);
  return row;
}

/** Fills the response cache with every hot URL and lets the JIT settle. */
async function warm(server: RunningServer, scenarios: Scenario[], cpu: Cpus): Promise<void> {
  for (const s of scenarios) for (const path of s.paths) await (await fetch(`${server.url}${path}`)).arrayBuffer();
  await runWrk({ url: server.url, paths: scenarios[0]!.paths, connections: HOT.connections, seconds: 1, cpu: cpu.load, workDir: OUT });
}

async function withServer<T>(start: Promise<RunningServer>, use: (server: RunningServer) => Promise<T>): Promise<T> {
  const server = await start;
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

async function benchCatalog(build: BuiltSnapshot, queries: ReturnType<typeof searchQueries>, bare: number, cpu: Cpus): Promise<Row[]> {
  const catalog = `${build.count / 1000}k`;
  const facts = catalogFacts(build.path, queries);
  const hot = hotScenarios(facts);
  const rows = await withServer(startService(build.path, await freePort(), cpu.server), async (server) => {
    await warm(server, hot, cpu);
    const measured: Row[] = [];
    for (const s of hot) measured.push(await measure({ server, catalog, kind: "hot", bare, cpu }, s));
    for (const s of coldScenarios(facts)) measured.push(await measure({ server, catalog, kind: "cold", bare, cpu }, s));
    return measured;
  });
  const limited = startService(build.path, await freePort(), cpu.server, { RATE_LIMIT_WINDOW_MS: "2000", TRUST_PROXY: "true" });
  rows.push(await withServer(limited, async (server) => {
    await warm(server, [hot[0]!], cpu);
    const scenario = { name: `${hot[0]!.name}, limiter on, new X-Forwarded-For each`, paths: hot[0]!.paths };
    return measure({ server, catalog, kind: "limiter", bare, cpu }, scenario, true);
  }));
  facts.snapshot.close();
  return rows;
}

async function bareRow(cpu: Cpus): Promise<Row> {
  return withServer(startBare(await freePort(), cpu.server), async (server) => {
    const scenario = { name: "bare Bun.serve, small JSON", paths: ["/"] };
    await warm(server, [scenario], cpu);
    return measure({ server, catalog: "-", kind: "baseline", bare: 0, cpu }, scenario);
  });
}

async function main(): Promise<void> {
  const cpu = cpus();
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  mkdirSync(OUT, { recursive: true });
  const builds: BuiltSnapshot[] = [];
  for (const count of SIZES) {
    progress(`building the synthetic ${count / 1000}k snapshot`);
    builds.push(await buildSnapshotFile(count, join(OUT, `synthetic-${count}.sqlite`), cpu.server));
  }
  const queries = searchQueries(builds[0]!.path);
  progress(`${queries.words.length} distinct queries; ${queries.broadWords.length} words and ${queries.broadCombos.length} sets of words in most rows`);
  // The baseline before and after the catalogs: the better of the two, as for every hot run.
  const bareFirst = await bareRow(cpu);
  const catalogs: Row[] = [];
  for (const build of builds) catalogs.push(...(await benchCatalog(build, queries, bareFirst.reqPerSec, cpu)));
  const bareLast = await bareRow(cpu);
  const bare = bareLast.reqPerSec > bareFirst.reqPerSec ? bareLast : bareFirst;
  for (const row of catalogs) row.ratioToBare = row.reqPerSec / bare.reqPerSec;
  const pinning = cpu.server === null ? "unpinned" : `server on CPU ${cpu.server}, wrk on CPU ${cpu.load} (taskset)`;
  console.log(`\n${new Date().toISOString()} · ${pinning} · hot: wrk -t1 -c${HOT.connections}, best of ${HOT.repeats} × ${HOT.seconds} s · cold: wrk -t1 -c${COLD.connections}, every URL distinct and sent once, best of ${COLD.repeats} × up to ${COLD.seconds} s · load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`);
  console.log(formatTable([bare, ...catalogs]));
  console.log(`\n${builds.map((b) => `build ${b.count / 1000}k: ${(b.buildMs / 1000).toFixed(2)} s, peak RSS ${b.peakRssMb.toFixed(0)} MB (synthetic input included), file ${b.fileMb.toFixed(0)} MB`).join("\n")}\n`);
  console.log(formatTargets(checkTargets([bare, ...catalogs], builds)));
  console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
