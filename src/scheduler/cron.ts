/**
 * The in-process refresh: `@elysiajs/cron` runs the refresher on REFRESH_CRON (`off` disables it).
 * A tick while a refresh runs is skipped (here) or refused by the lock (another process or
 * instance); a published snapshot is opened at once and serves once prepared (store.ts), every
 * cached response dropped with the old one.
 */
import { cron } from "@elysiajs/cron";
import { Elysia } from "elysia";
import type { Log } from "../base/log";
import type { RefreshRun } from "../base/metrics";
import type { CatalogStore } from "../catalog/snapshot/store";
import { RedisLease } from "../cluster/lease";
import type { RedisLink } from "../cluster/redis";
import type { Config } from "../config";
import { formatResult } from "../refresh/report";
import { type RefreshOptions, type RefreshResult, runRefresh } from "../refresh/run";
import { refreshOptionsFrom } from "./options";

/**
 * A scheduled run may sit out the platform's hourly reset (and a minute's grace), so a run without
 * a token spends as many hourly budgets as it needs; the ticks it spans are skipped.
 */
const SCHEDULED_MAX_WAIT_SECONDS = 3660;

export type TickResult = RefreshResult | { status: "skipped" } | { status: "failed"; error: string };

export interface RefreshCronDeps {
  config: Config;
  store: CatalogStore;
  log: Log;
  /** Scheduled but paused: ticks only when triggered (tests). */
  paused?: boolean;
  /** With REDIS_URL: the refresh takes the lock the instances share. */
  redis?: RedisLink | null;
  /** Overrides of the options the configuration sets (tests: the platform, the data dir, pacing). */
  options?: Partial<RefreshOptions>;
  /** Called once this process opened a published snapshot (REDIS_URL: it is shared with the other instances). */
  published?: () => Promise<void>;
  /** Told of every tick's result and how long it took (the metrics). */
  ended?: (result: TickResult, seconds: number) => void;
}

/** A tick's result as the metrics count it: its outcome, duration and what it spent on the platform. */
export function refreshRun(result: TickResult, seconds: number): RefreshRun {
  const usage = "report" in result ? result.report.usage : undefined;
  return { outcome: result.status, seconds, calls: usage?.calls, budgets: usage?.budgets };
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
    const { log } = this.deps;
    if (this.running) {
      log("refresh.skipped", { reason: "the previous scheduled refresh is still running" });
      return { status: "skipped" };
    }
    this.running = true;
    try {
      const { config, redis, options } = this.deps;
      const overrides = { maxWaitSeconds: SCHEDULED_MAX_WAIT_SECONDS, log, ...options };
      const result = await runRefresh(
        refreshOptionsFrom(config, redis ? new RedisLease(redis, config.redisLockTtlMs) : undefined, overrides),
      );
      log(`refresh.${result.status}`, { summary: formatResult(result) });
      if (result.status === "published") {
        this.deps.store.reloadIfChanged();
        await this.deps.published?.().catch((error: Error) => log("snapshot.share_failed", { error: error.message }));
      }
      return result;
    } catch (error) {
      log("refresh.failed", { error: (error as Error).stack ?? String(error) });
      return { status: "failed", error: String(error) };
    } finally {
      this.running = false;
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
