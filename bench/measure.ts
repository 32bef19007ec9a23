/**
 * Rows of the table: scenarios run against servers. The machine's speed drifts (other tenants
 * share its cores, invisibly: the same run can differ by half from one second to the next, and a
 * slow spell lasts seconds to a minute), so hot runs alternate with runs of the bare baseline on
 * the same CPU, and go in rounds: each round runs every scenario of a set once, each run between
 * two bare runs (bare, A, bare, B, bare, C, …). A row's three runs are thus a round apart and
 * meet different spells; three runs in a row mostly met the same one. A run's ratio to bare
 * compares server CPU time per request (what throughputs compare as when the server's CPU is the
 * bottleneck): the mean of the two bare runs beside it over its own. The row keeps the median of
 * all its runs' ratios. A run is *clean* when it and both bare runs beside it had their CPU (busy
 * 90% of the run) and nothing else in the machine used a tenth of a CPU; a row with no clean run
 * is marked, but the flag does not choose runs: the slow spells come from outside the guest and
 * pass as clean, while a quarter of the bare runs fail it at normal speed, so counting only clean
 * runs left one or two, and a median of two is their mean (a feed row's 0.48, 0.66 and 0.68 came
 * out 0.57). Comparing each side's best run instead was tried: the
 * bare baseline's rare fast seconds then set the ratio, and rows doing the same work scattered
 * from 0.54 to 0.96x. The req/s ratio, the best run over the best bare run beside it, is shown
 * too. Cold runs keep the better of two passes over disjoint halves of their URLs.
 */
import {
  BARE,
  type Bench,
  bareRun,
  best,
  bestBare,
  type Contender,
  hotOnce,
  neighbourBare,
  type Run,
  record,
} from "./runs";
import type { Scenario } from "./scenarios";
import type { RunningServer } from "./server";
import { median } from "./stats";
import type { Row } from "./table";
import { runWrk, type WrkResult } from "./wrk";

/** Runs of the limiter on, each between two of the limiter off: the cost is their median. */
export const LIMITER_RUNS = 8;
/** One connection, so latency is a request's own cost, not time queued behind others. */
export const COLD = { connections: 1, seconds: 1, passes: 2 };

/** A run between two bare runs: its ratio to them, and whether all three were clean. */
interface Paired {
  ratio: number;
  clean: boolean;
}

function paired(before: Run, run: Run, after: Run): Paired {
  return { ratio: (before.cpuUs + after.cpuUs) / 2 / run.cpuUs, clean: before.clean && run.clean && after.clean };
}

/** The median ratio of the runs, all of them (see the top of this file). */
function medianRatio(pairs: Paired[]): number {
  return median(pairs.map((p) => p.ratio));
}

async function coldRun(b: Bench, server: RunningServer, scenario: Scenario): Promise<WrkResult> {
  const part = Math.ceil(scenario.paths.length / COLD.passes);
  let chosen: WrkResult | null = null;
  for (let i = 0; i < COLD.passes; i++) {
    const paths = scenario.paths.slice(i * part, (i + 1) * part);
    const r = await runWrk({
      url: server.url,
      paths,
      headers: scenario.headers,
      ...COLD,
      onePass: true,
      cpu: b.cpu.load,
      workDir: b.workDir,
    });
    if (chosen === null || r.p99Ms < chosen.p99Ms) chosen = r;
  }
  return chosen!;
}

function row(
  catalog: string,
  kind: Row["kind"],
  scenario: Scenario,
  r: WrkResult,
  ratio: number,
  reqRatio: number | null,
  rssMb: number,
  disturbed: boolean,
): Row {
  if (r.errors > 0) throw new Error(`${scenario.name}: ${r.errors} failed requests`);
  const made: Row = {
    catalog,
    kind,
    endpoint: scenario.name,
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    ratioToBare: ratio,
    reqRatioToBare: reqRatio,
    rssMb,
    disturbed,
  };
  console.error(
    `[bench] ${catalog} ${kind} ${scenario.name}: ${r.reqPerSec.toFixed(0)} req/s (${ratio.toFixed(2)}x bare), p99 ${r.p99Ms.toFixed(2)} ms, RSS ${rssMb.toFixed(0)} MB${disturbed ? ", disturbed" : ""}`,
  );
  return made;
}

/**
 * Rows measured in rounds (A, bare, B, bare, C, bare, A, bare, …), each run judged against the
 * bare runs beside it. The contenders may be scenarios of one server (the hot rows) or of the bare
 * server itself (the baseline's other rows).
 */
export async function measureInRounds(
  b: Bench,
  catalog: string,
  contenders: Contender[],
  rounds: number,
): Promise<Row[]> {
  const runs = contenders.map((): Run[] => []);
  const pairs = contenders.map((): Paired[] => []);
  const bares = contenders.map((): Run[] => []);
  const rss = contenders.map(() => 0);
  let before = await neighbourBare(b);
  for (let i = 0; i < rounds; i++) {
    for (const [k, c] of contenders.entries()) {
      const run = await hotOnce(b, c.server, c.scenario);
      rss[k] = Math.max(rss[k]!, c.server.rssMb());
      const after = await bareRun(b);
      runs[k]!.push(run);
      bares[k]!.push(before, after);
      pairs[k]!.push(paired(before, run, after));
      record(b, catalog, c, run, before, after);
      before = after;
    }
  }
  return contenders.map((c, k) => {
    const run = best(runs[k]!);
    return row(
      catalog,
      c.kind,
      c.scenario,
      run,
      medianRatio(pairs[k]!),
      run.reqPerSec / best(bares[k]!).reqPerSec,
      rss[k]!,
      !pairs[k]!.some((p) => p.clean),
    );
  });
}

/**
 * The limiter off and on, two services answering the same requests (a new X-Forwarded-For each):
 * off, on, off, on, …, off, with no bare run between, so each run of the limiter on sits a second
 * from a run of it off on either side. Its cost is read against the mean of those two, which
 * cancels a drift of the machine across the three seconds, and the limiter's row keeps the median
 * of its runs' (`againstOff`: the off side's CPU time per request over the on side's). Both rows'
 * ratios to bare are against the bare runs just before and after the whole sequence.
 */
export async function measureLimiter(
  b: Bench,
  catalog: string,
  off: Contender,
  on: Contender,
  rounds: number,
): Promise<Row[]> {
  const offRuns: Run[] = [];
  const onRuns: Run[] = [];
  const rss = [0, 0];
  const before = await neighbourBare(b);
  const next = async (c: Contender, runs: Run[], k: number) => {
    const run = await hotOnce(b, c.server, c.scenario, true);
    runs.push(run);
    rss[k] = Math.max(rss[k]!, c.server.rssMb());
    record(b, catalog, c, run);
  };
  await next(off, offRuns, 0);
  for (let i = 0; i < rounds; i++) {
    await next(on, onRuns, 1);
    await next(off, offRuns, 0);
  }
  const after = await bareRun(b);
  const bareUs = (before.cpuUs + after.cpuUs) / 2;
  const bestBareRps = Math.max(before.reqPerSec, after.reqPerSec);
  const disturbed = ![before, after, ...offRuns, ...onRuns].some((r) => r.clean);
  const make = (c: Contender, runs: Run[], k: number): Row => {
    const run = best(runs);
    return row(
      catalog,
      c.kind,
      c.scenario,
      run,
      bareUs / median(runs.map((r) => r.cpuUs)),
      run.reqPerSec / bestBareRps,
      rss[k]!,
      disturbed,
    );
  };
  const limited = make(on, onRuns, 1);
  limited.againstOff = median(onRuns.map((r, i) => (offRuns[i]!.cpuUs + offRuns[i + 1]!.cpuUs) / 2 / r.cpuUs));
  return [make(off, offRuns, 0), limited];
}

/** A cold row; its ratio is against the best bare run so far. */
export async function measureCold(b: Bench, server: RunningServer, catalog: string, scenario: Scenario): Promise<Row> {
  const r = await coldRun(b, server, scenario);
  return row(catalog, "cold", scenario, r, r.reqPerSec / bestBare(b).reqPerSec, null, server.rssMb(), false);
}

/** The baseline row: the best of every bare run of the bench. */
export function bareRow(b: Bench): Row {
  const r = bestBare(b);
  return {
    catalog: "-",
    kind: "baseline",
    endpoint: BARE.name,
    reqPerSec: r.reqPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    ratioToBare: 1,
    reqRatioToBare: 1,
    rssMb: b.bare.rssMb(),
    disturbed: !r.clean,
  };
}
