/**
 * The scheduled refresh's work runs in a child process (refresh-child.ts), never on the serving
 * thread: parsing manifests, weighing evidence and building the snapshot take seconds of CPU at a
 * large catalog. The child reports its log events and its result over IPC; the server only opens
 * the file it published. A child is killed when the server stops or exits, and exits by itself
 * when the server is gone.
 */
import { join } from "node:path";
import type { Log } from "../base/log";
import type { RefreshOptions, RefreshResult } from "../refresh/run";
import type { SharedSettings } from "./shared-settings";

const CHILD_ENTRY = join(import.meta.dir, "refresh-child.ts");
/** How much of a crashed child's stderr is kept for the log line that reports it. */
const STDERR_TAIL_CHARS = 4000;
/** How long a result may trail the child's exit (IPC delivery) before the run counts as failed. */
const RESULT_GRACE_MS = 1000;

/** The options a run can take across processes: its functions (log, progress, clock, shared lock) stay behind. */
export type PortableOptions = Omit<RefreshOptions, "log" | "write" | "now" | "sharedLock">;

export interface ChildRequest {
  options: PortableOptions;
  shared: SharedSettings | null;
}

/** A finished run as the child reports it: the result without its report's objects. */
export interface RunOutcome {
  status: RefreshResult["status"];
  reason?: string;
  /** The summary lines of report.ts. */
  summary: string[];
  calls?: Record<string, number>;
  budgets?: Array<[string, { limit: number; remaining: number }]>;
  /** The process the run's work ran in. */
  pid: number;
}

export interface FailedRun {
  status: "failed";
  error: string;
  pid?: number;
}

export type ChildMessage =
  | { log: [string, Record<string, unknown>] }
  | { published: true }
  | { outcome: RunOutcome | FailedRun };

export function portable(options: RefreshOptions): PortableOptions {
  const { log: _log, write: _write, now: _now, sharedLock: _shared, ...rest } = options;
  return rest;
}

/** What a child's RefreshResult becomes on the wire. */
export function outcomeOf(result: RefreshResult, summary: string[], pid: number): RunOutcome {
  const outcome: RunOutcome = { status: result.status, summary, pid };
  if ("reason" in result) outcome.reason = result.reason;
  if ("report" in result) {
    outcome.calls = { ...result.report.usage.calls };
    outcome.budgets = [...result.report.usage.budgets].map(([name, b]) => [
      name,
      { limit: b.limit, remaining: b.remaining },
    ]);
  }
  return outcome;
}

const running = new Set<Bun.Subprocess>();

async function tail(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) text = (text + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL_CHARS);
  return text;
}

export interface RefreshProcess {
  pid: number;
  result: Promise<RunOutcome | FailedRun>;
}

/** Starts one run in a child process; `published` is called once the child published, before it shares. */
export function startRefreshProcess(request: ChildRequest, log: Log, published: () => void): RefreshProcess {
  let outcome: RunOutcome | FailedRun | null = null;
  let arrived: () => void = () => {};
  const outcomeArrived = new Promise<void>((resolve) => (arrived = resolve));
  const child = Bun.spawn([process.execPath, CHILD_ENTRY], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    serialization: "json",
    ipc(message: ChildMessage) {
      if ("log" in message) log(message.log[0], message.log[1]);
      else if ("published" in message) published();
      else if ("outcome" in message) {
        outcome = message.outcome;
        arrived();
      }
    },
  });
  running.add(child);
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  child.send(request);
  const result = (async (): Promise<RunOutcome | FailedRun> => {
    const [stderr] = await Promise.all([tail(child.stderr), child.exited]);
    running.delete(child);
    process.off("exit", orphaned);
    if (outcome === null) await Promise.race([outcomeArrived, Bun.sleep(RESULT_GRACE_MS)]);
    if (outcome !== null) return outcome;
    const how = child.signalCode ? `was killed (${child.signalCode})` : `exited with code ${child.exitCode}`;
    return { status: "failed", error: `the refresh process ${how}: ${stderr.trim()}`, pid: child.pid };
  })();
  return { pid: child.pid, result };
}

/** Kills every refresh child of this process and waits until each is gone (the server is stopping). */
export async function endRefreshProcesses(): Promise<number> {
  const children = [...running];
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  return children.length;
}
