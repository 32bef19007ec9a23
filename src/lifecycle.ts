/**
 * The end of the process life cycle: on SIGTERM or SIGINT readiness goes off, the server stops
 * accepting, lets the requests in flight finish (each closing its connection after it), stops
 * whatever else was registered (the scheduled refresh first, so nothing new starts while
 * draining), and exits 0. A stop that hangs past the deadline exits 1.
 */
import { removeLeftovers } from "./base/atomic-write";
import type { Log } from "./base/log";
import { removeDeadLock } from "./base/refresh-lock";
import { endRefreshProcesses } from "./scheduler/refresh-process";

/** One thing to stop, in order; `run` may be asynchronous. */
interface StopStep {
  name: string;
  run: () => unknown;
}

/** A stop finishes within 10 s, well inside the 30 s orchestrators usually wait before SIGKILL. */
const STOP_DEADLINE_MS = 9_500;

interface ShutdownOptions {
  log: Log;
  deadlineMs?: number;
  exit?: (code: number) => void;
}

export class Shutdown {
  private readonly steps: StopStep[] = [];
  private stopping: Promise<void> | null = null;

  constructor(private readonly options: ShutdownOptions) {}

  /** Adds a step; steps run in the order they were added. */
  add(name: string, run: () => unknown): this {
    this.steps.push({ name, run });
    return this;
  }

  /** Runs every step once, however many signals arrive, then exits. */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.runSteps(reason);
    return this.stopping;
  }

  /** Stops on SIGTERM and SIGINT. */
  listen(): this {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void this.stop(signal));
    return this;
  }

  private async runSteps(reason: string): Promise<void> {
    const { log, deadlineMs = STOP_DEADLINE_MS, exit = (code) => process.exit(code) } = this.options;
    const started = performance.now();
    log("server.stopping", { reason });
    const deadline = setTimeout(() => {
      log("server.stop_timeout", { deadlineMs });
      exit(1);
    }, deadlineMs);
    let code = 0;
    for (const step of this.steps) {
      try {
        await step.run();
      } catch (error) {
        code = 1;
        log("server.stop_failed", { step: step.name, error: (error as Error).message });
      }
    }
    clearTimeout(deadline);
    log("server.stopped", { durationMs: Math.round(performance.now() - started) });
    exit(code);
  }
}

/**
 * Stops every job scheduled by the cron plugin (`app.store.cron`), so no refresh starts while
 * draining, and ends a refresh running in its child process; returns how many were ended.
 */
export function stopScheduledJobs(store: unknown): Promise<number> {
  const jobs = (store as { cron?: Record<string, { stop(): void }> }).cron ?? {};
  for (const job of Object.values(jobs)) job.stop();
  return endRefreshProcesses();
}

/**
 * Removes what a refresh cut short by the stop leaves beside the database: temporary files of
 * writers no longer running (this process counts as gone) and the refresh lock if this process
 * or a refresh child it ended held it (its owner is no longer running). The snapshot itself is never touched: it is replaced whole or not at all.
 */
export function removeRefreshLeftovers(databasePath: string): string[] {
  const removed = removeLeftovers(databasePath);
  const lock = removeDeadLock(databasePath);
  return lock === null ? removed : [...removed, lock];
}
