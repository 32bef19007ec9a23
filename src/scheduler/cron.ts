/**
 * The scheduled refresh: `@elysiajs/cron` ticks on REFRESH_CRON (`off` disables it) in the server,
 * and each tick's work runs in a child process (refresh-process.ts), so the serving thread never
 * parses, weighs or builds. A tick while a refresh runs is skipped (here) or refused by the lock
 * (another process or instance); a published snapshot is opened at once and serves once prepared
 * (store.ts), every cached response dropped with the old one.
 */
import { cron } from "@elysiajs/cron";
import { Elysia } from "elysia";
import type { Log } from "../base/log";
import type { RefreshRun } from "../base/metrics";
import type { CatalogStore } from "../catalog/snapshot/store";
import type { Config } from "../config";
import type { RefreshOptions } from "../refresh/run";
import { refreshOptionsFrom } from "./options";
import { type ChildRequest, type FailedRun, portable, type RunOutcome, startRefreshProcess } from "./refresh-process";
import { REDIS_UNREACHABLE, sharedSettings } from "./shared-settings";

/**
 * A scheduled run may sit out the platform's hourly reset (and a minute's grace), so a run without
 * a token spends as many hourly budgets as it needs; the ticks it spans are skipped.
 */
const SCHEDULED_MAX_WAIT_SECONDS = 3660;

export type TickResult = RunOutcome | FailedRun | { status: "skipped" };

export interface RefreshCronDeps {
  config: Config;
  store: CatalogStore;
  log: Log;
  /** Scheduled but paused: ticks only when triggered (tests). */
  paused?: boolean;
  /** Overrides of the options the configuration sets (tests: the platform, the data dir, pacing). */
  options?: Partial<RefreshOptions>;
  /** With REDIS_URL: whether the server's own link to Redis is up; while it is not, no run starts. */
  redisUp?: () => boolean;
  /** Told of every tick's result and how long it took (the metrics). */
  ended?: (result: TickResult, seconds: number) => void;
}

/** A tick's result as the metrics count it: its outcome, duration and what it spent on the platform. */
export function refreshRun(result: TickResult, seconds: number): RefreshRun {
  const usage = "calls" in result ? result : undefined;
  return { outcome: result.status, seconds, calls: usage?.calls, budgets: new Map(usage?.budgets ?? []) };
}

/** One refresh per tick, never two at once; never throws into the scheduler. */
export class RefreshJob {
  private running = false;

  constructor(private readonly deps: RefreshCronDeps) {}

  async tick(): Promise<TickResult> {
    const started = performance.now();
    const result = await this.run();
    this.deps.ended?.(result, (performance.now() - started) / 1000);
    return result;
  }

  private async run(): Promise<TickResult> {
    const { log, config, store, options } = this.deps;
    if (this.running) {
      log("refresh.skipped", { reason: "the previous scheduled refresh is still running" });
      return { status: "skipped" };
    }
    if (this.deps.redisUp?.() === false) {
      const summary = [`refresh skipped: ${REDIS_UNREACHABLE}`];
      log("refresh.locked", { summary });
      return { status: "locked", reason: REDIS_UNREACHABLE, summary, pid: process.pid };
    }
    this.running = true;
    try {
      const overrides = { maxWaitSeconds: SCHEDULED_MAX_WAIT_SECONDS, ...options };
      const request = {
        options: portable(refreshOptionsFrom(config, undefined, overrides)),
        shared: sharedSettings(config),
      };
      const result = await this.inChild(request);
      if (result.status === "failed") log("refresh.failed", { error: result.error, pid: result.pid });
      else log(`refresh.${result.status}`, { summary: result.summary, pid: result.pid });
      // Also when the child's word was lost: the store looks at the file either way.
      if (result.status === "published") store.reloadIfChanged();
      return result;
    } finally {
      this.running = false;
    }
  }

  private async inChild(request: ChildRequest): Promise<RunOutcome | FailedRun> {
    const { log, store } = this.deps;
    try {
      const child = startRefreshProcess(request, log, () => store.reloadIfChanged());
      log("refresh.process", { pid: child.pid });
      return await child.result;
    } catch (error) {
      return { status: "failed", error: (error as Error).stack ?? String(error) };
    }
  }
}

/** The scheduler as an Elysia plugin: the job is `store.cron.refresh`. Nothing is scheduled when REFRESH_CRON is off. */
export function refreshCron(deps: RefreshCronDeps) {
  const plugin = new Elysia({ name: "refresh.cron" });
  const pattern = deps.config.refreshCron;
  if (pattern === null) return plugin;
  const job = new RefreshJob(deps);
  deps.log("refresh.scheduled", { pattern, paused: deps.paused ?? false });
  return plugin.use(
    cron({
      name: "refresh",
      pattern,
      paused: deps.paused ?? false,
      // The timer alone never keeps the process alive: the server does.
      unref: true,
      run: () => job.tick(),
    }),
  );
}
