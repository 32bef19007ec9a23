/**
 * `bun run bench`: builds synthetic catalogs of 10,000 and 100,000 plugins, serves each with the
 * real service pinned to CPU 0, loads it with wrk pinned to CPU 1, and prints one table against a
 * bare Bun.serve baseline measured in the same run, then the issue's targets checked against it.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { bareRow, COLD, LIMITER_RUNS, measureCold, measureInRounds, measureLimiter } from "./measure";
import { type BuiltSnapshot, buildSnapshotFile, catalogFacts, type SearchQueries, searchQueries } from "./prepare";
import { type Bench, type Cpus, HOT } from "./runs";
import { CLIENT_HEADERS, coldScenarios, hotScenarios, identityScenarios } from "./scenarios";
import { freePort, type RunningServer, startBare, startService } from "./server";
import { formatTable, formatTargets, type Row } from "./table";
import { checkTargets } from "./targets";
import { warm, warmBare } from "./warm";

const SIZES = [10_000, 100_000];
/**
 * The catalog measured on every hot endpoint and on the largest bodies without compression; the
 * smaller one gets the list page only (a cached answer costs the same at any catalog size).
 */
const FULL_SIZE = 100_000;
const OUT = join(import.meta.dir, "out");

function progress(message: string): void {
  console.error(`[bench] ${message}`);
}

/** wrk and taskset, two CPUs: say what is missing and how to get it. */
function cpus(): Cpus {
  if (!Bun.which("wrk")) {
    console.error(
      "wrk is not installed. On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y wrk\nElsewhere: https://github.com/wg/wrk",
    );
    process.exit(1);
  }
  if (Bun.which("taskset") && availableParallelism() >= 2) return { server: 0, load: 1 };
  progress(
    "WARNING: taskset (util-linux) or a second CPU is missing; server and wrk share the CPUs, numbers are lower and noisier.",
  );
  return { server: null, load: null };
}

async function withServer<T>(start: Promise<RunningServer>, use: (server: RunningServer) => Promise<T>): Promise<T> {
  const server = await start;
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

async function benchCatalog(b: Bench, build: BuiltSnapshot, queries: SearchQueries): Promise<Row[]> {
  const catalog = `${build.count / 1000}k`;
  const facts = catalogFacts(build.path, queries);
  const all = hotScenarios(facts);
  const list = all[0]!;
  const hot = build.count === FULL_SIZE ? all : [list];
  const identity = build.count === FULL_SIZE ? identityScenarios(all) : [];
  const rows = await withServer(startService(build.path, await freePort(), b.cpu.server), async (server) => {
    await warm(b, server, [...hot, ...identity]);
    const measured: Row[] = [];
    const rows = [
      ...hot.map((scenario) => ({ server, kind: "hot" as const, scenario })),
      ...identity.map((scenario) => ({ server, kind: "identity" as const, scenario })),
    ];
    measured.push(...(await measureInRounds(b, catalog, rows, HOT.runs)));
    for (const s of coldScenarios(facts)) measured.push(await measureCold(b, server, catalog, s));
    return measured;
  });
  // The limiter off and on, in turns: the same requests to two fresh services a second apart
  // (a service that has just served the cold rows carries their garbage, and runs slower).
  // TRUST_PROXY on both, so the limiter is the only difference.
  const off = startService(build.path, await freePort(), b.cpu.server, { TRUST_PROXY: "true" });
  rows.push(
    ...(await withServer(off, async (plain) => {
      const on = startService(build.path, await freePort(), b.cpu.server, {
        RATE_LIMIT_WINDOW_MS: "2000",
        TRUST_PROXY: "true",
      });
      return withServer(on, async (limited) => {
        await warm(b, plain, [list], true);
        await warm(b, limited, [list], true);
        return measureLimiter(
          b,
          catalog,
          {
            server: plain,
            kind: "limiter off",
            scenario: { ...list, name: `${list.name}, limiter off, new X-Forwarded-For each` },
          },
          {
            server: limited,
            kind: "limiter on",
            scenario: { ...list, name: `${list.name}, limiter on, new X-Forwarded-For each` },
          },
          LIMITER_RUNS,
        );
      });
    })),
  );
  facts.snapshot.close();
  return rows;
}

async function main(): Promise<void> {
  const cpu = cpus();
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  mkdirSync(OUT, { recursive: true });
  // Earlier runs' files, and the copies the service keeps beside its database (last good, set aside);
  // directories (source trees compared by bench:inprocess) stay.
  for (const entry of readdirSync(OUT, { withFileTypes: true }))
    if (!entry.isDirectory()) rmSync(join(OUT, entry.name), { force: true });
  const builds: BuiltSnapshot[] = [];
  for (const count of SIZES) {
    progress(`building the synthetic ${count / 1000}k snapshot`);
    builds.push(await buildSnapshotFile(count, join(OUT, `synthetic-${count}.sqlite`)));
  }
  const queries = searchQueries(builds[0]!.path);
  progress(
    `${queries.words.length} distinct queries; ${queries.broadWords.length} words and ${queries.broadCombos.length} sets of words in most rows`,
  );
  // The baseline runs beside the service on the same CPU, idle except when it is measured.
  const bench: Bench = {
    bare: await startBare(await freePort(), cpu.server),
    cpu,
    workDir: OUT,
    bareRuns: [],
    log: [],
  };
  const catalogs: Row[] = [];
  let bare: Row;
  try {
    await warmBare(bench);
    const page = await measureInRounds(
      bench,
      "-",
      [
        {
          server: bench.bare,
          kind: "baseline",
          scenario: { name: "bare Bun.serve, fixed 12 KB body", paths: ["/12k"], headers: {} },
        },
        {
          server: bench.bare,
          kind: "baseline",
          scenario: {
            name: "bare Bun.serve, a cached sync page's own work",
            paths: ["/cached"],
            headers: { ...CLIENT_HEADERS },
          },
        },
      ],
      HOT.runs,
    );
    for (const build of builds) catalogs.push(...(await benchCatalog(bench, build, queries)));
    bare = bareRow(bench);
    catalogs.unshift(...page);
  } finally {
    await bench.bare.stop();
  }
  const pinning = cpu.server === null ? "unpinned" : `server on CPU ${cpu.server}, wrk on CPU ${cpu.load} (taskset)`;
  console.log(
    `\n${new Date().toISOString()} · ${pinning} · hot: wrk -t1 -c${HOT.connections}, ${HOT.runs} runs of ${HOT.seconds} s per row, in rounds over the rows, each run between two runs of the bare baseline; x bare = median over the runs of server CPU per request, bare (the runs beside) over the row's · cold: wrk -t1 -c${COLD.connections}, every URL distinct and sent once, best of ${COLD.passes} passes × up to ${COLD.seconds} s · limiter: off, on, off, … (${LIMITER_RUNS} runs on), each on run against the off runs beside it, median · load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`,
  );
  console.log(formatTable([bare, ...catalogs]));
  if ([bare, ...catalogs].some((r) => r.disturbed))
    console.log("\n* no clean run: other load on the machine took CPU from the server or wrk during every run");
  console.log(
    `\n${builds.map((b) => `build ${b.count / 1000}k: ${(b.buildMs / 1000).toFixed(2)} s, peak RSS ${b.peakRssMb.toFixed(0)} MB (synthetic input included), file ${b.fileMb.toFixed(0)} MB`).join("\n")}\n`,
  );
  console.log(formatTargets(checkTargets([bare, ...catalogs], builds)));
  writeFileSync(join(OUT, "runs.json"), `${JSON.stringify(bench.log, null, 1)}\n`);
  console.log(`\nevery run: ${join("bench", "out", "runs.json")}`);
  console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
