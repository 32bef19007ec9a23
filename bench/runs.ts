/**
 * One measured run of wrk against a server, told clean or not from /proc, and the bare baseline's
 * runs that each hot run is judged against (see bench/measure.ts for why runs go in rounds).
 */
import { machineBusySeconds, processCpuSeconds } from "./cpu";
import { CLIENT_HEADERS, type Scenario } from "./scenarios";
import type { RunningServer } from "./server";
import type { Row } from "./table";
import { runWrk, type WrkResult } from "./wrk";

export interface Cpus {
  server: number | null;
  load: number | null;
}

export interface Bench {
  bare: RunningServer;
  cpu: Cpus;
  workDir: string;
  /** Every bare run so far: the baseline row is the best of them. */
  bareRuns: Run[];
  /** Every measured run in order, for `bench/out/runs.json` (how a row's figure came about). */
  log: RunRecord[];
  /** The latest bare run and when it ended (ms): the first neighbour of the next hot run. */
  lastBare?: { run: Run; at: number };
}

export const HOT = { connections: 32, seconds: 1, runs: 3 };
/** A bare run older than this is no neighbour of the next hot run: a fresh one is made. */
const NEIGHBOUR_MS = 2000;
/** The baseline's requests: its small JSON, asked for as clients ask (it never compresses). */
export const BARE: Scenario = { name: "bare Bun.serve, small JSON", paths: ["/"], headers: { ...CLIENT_HEADERS } };

/** One run as `bench/out/runs.json` keeps it. */
export interface RunRecord {
  catalog: string;
  kind: string;
  endpoint: string;
  /** Server CPU time per request, µs; for a hot run also the bare runs' beside it. */
  cpuUs: number;
  bareBeforeUs?: number;
  bareAfterUs?: number;
  reqPerSec: number;
  clean: boolean;
}

export interface Run extends WrkResult {
  clean: boolean;
  /** The server's CPU time per request, in microseconds. */
  cpuUs: number;
}

export interface Contender {
  server: RunningServer;
  kind: Row["kind"];
  scenario: Scenario;
}

export function record(b: Bench, catalog: string, c: Contender, run: Run, before?: Run, after?: Run): void {
  b.log.push({
    catalog,
    kind: c.kind,
    endpoint: c.scenario.name,
    cpuUs: run.cpuUs,
    bareBeforeUs: before?.cpuUs,
    bareAfterUs: after?.cpuUs,
    reqPerSec: run.reqPerSec,
    clean: run.clean,
  });
}

export async function hotOnce(
  b: Bench,
  server: RunningServer,
  scenario: Scenario,
  varyForwardedFor = false,
): Promise<Run> {
  const busy = machineBusySeconds();
  const cpu = processCpuSeconds(server.pid);
  const r = await runWrk({
    url: server.url,
    paths: scenario.paths,
    headers: scenario.headers,
    ...HOT,
    varyForwardedFor,
    cpu: b.cpu.load,
    workDir: b.workDir,
  });
  const serverCpu = processCpuSeconds(server.pid) - cpu;
  const foreign = machineBusySeconds() - busy - serverCpu - r.wrkCpuSeconds;
  return {
    ...r,
    clean: serverCpu >= 0.9 * r.wallSeconds && foreign <= 0.1 * r.wallSeconds,
    cpuUs: (serverCpu / Math.max(1, r.requests)) * 1e6,
  };
}

/** The clean runs, or all of them when none is clean. */
function pool<T extends { clean: boolean }>(runs: T[]): T[] {
  return runs.some((r) => r.clean) ? runs.filter((r) => r.clean) : runs;
}

export function best(runs: Run[]): Run {
  return pool(runs).reduce((a, r) => (r.reqPerSec > a.reqPerSec ? r : a));
}

export function bestBare(b: Bench): Run {
  return best(b.bareRuns);
}

/** The latest bare run when it is recent enough to neighbour the next run, else a new one. */
export async function neighbourBare(b: Bench): Promise<Run> {
  return b.lastBare && performance.now() - b.lastBare.at < NEIGHBOUR_MS ? b.lastBare.run : await bareRun(b);
}

export async function bareRun(b: Bench): Promise<Run> {
  const run = await hotOnce(b, b.bare, BARE);
  b.bareRuns.push(run);
  b.lastBare = { run, at: performance.now() };
  return run;
}
