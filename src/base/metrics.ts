/**
 * What an operator scrapes (GET /metrics, the Prometheus text format, through prom-client): requests
 * by route and status with their latency, rate-limit refusals, response-cache use, the snapshot
 * served, the scheduled refreshes and what they spent on the hosting platform, the shared state,
 * and the process itself (heap, RSS, CPU, event-loop lag, under the names prom-client's defaults use).
 *
 * The request path only adds to numbers held per route in typed arrays; prom-client reads them
 * when scraped, so a request allocates nothing for its metrics.
 */
import { Counter, Gauge, Registry } from "prom-client";
import { processMetrics } from "./metrics-process";
import { LATENCY_BUCKETS, RouteTally, requestMetrics, STATUSES } from "./metrics-requests";

/** The route label of a request no route matched: the raw path would let clients grow the series. */
const UNMATCHED_ROUTE = "unmatched";

/** How instances share state: Redis reachable, configured but unreachable, or not configured. */
type SharedMode = "up" | "degraded" | "off";

/** What a scheduled refresh reports when it ends. */
export interface RefreshRun {
  /** published, refused, incomplete, locked, skipped or failed. */
  outcome: string;
  seconds: number;
  /** Platform calls of the run by kind, when it reached the platform. */
  calls?: Readonly<Record<string, number>>;
  /** The budget each platform resource reported last. */
  budgets?: ReadonlyMap<string, { limit: number; remaining: number }>;
}

interface MetricsSources {
  /** The snapshot being served, or null before one is loaded. */
  snapshot?: () => { snapshotAt: string; total: number; security?: unknown; skillCopies?: number } | null;
  sharedMode?: () => SharedMode;
  /** The process's heap, RSS, CPU and event-loop lag; on unless false. */
  processMetrics?: boolean;
  now?: () => number;
}

const REFRESH_OUTCOMES = ["published", "refused", "incomplete", "locked", "skipped", "failed"] as const;

/** The states of each deps.dev signal counted (model/security.ts); a file's other keys are not exported. */
const SECURITY_STATES = {
  scorecard: ["scored", "not_scored", "unknown"],
  advisories: ["none", "any", "unknown", "unpinned"],
} as const;

const asObject = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The served snapshot's coverage by deps.dev, as its builder counted it. */
function securityMetrics(registers: Registry[], snapshot: () => { security?: unknown } | null): void {
  new Gauge({
    name: "catalog_snapshot_security_plugins",
    help:
      "Plugins of the served snapshot by deps.dev signal and state: scorecard (scored, not_scored, unknown) " +
      "and advisories of the pinned versions (none, any, unknown, unpinned).",
    labelNames: ["signal", "state"],
    registers,
    collect() {
      this.reset();
      // Plugins by signal and state, as the snapshot's builder counted them; read from the file, so only counts pass.
      const security = asObject(snapshot()?.security);
      for (const [signal, states] of Object.entries(SECURITY_STATES)) {
        for (const state of states) {
          const n = asObject(security[signal])[state];
          if (Number.isSafeInteger(n) && (n as number) >= 0) this.set({ signal, state }, n as number);
        }
      }
    },
  });
}

/** The served snapshot's age and size, and the mode of the state shared across instances. */
function stateMetrics(registers: Registry[], sources: MetricsSources, now: () => number): void {
  const snapshot = sources.snapshot ?? (() => null);
  new Gauge({
    name: "catalog_snapshot_age_seconds",
    help: "Seconds since the served snapshot's snapshotAt; NaN before a snapshot is loaded.",
    registers,
    collect() {
      const served = snapshot();
      this.set(served ? Math.max(0, (now() - Date.parse(served.snapshotAt)) / 1000) : Number.NaN);
    },
  });
  new Gauge({
    name: "catalog_snapshot_plugins",
    help: "Plugins in the served snapshot.",
    registers,
    collect() {
      this.set(snapshot()?.total ?? 0);
    },
  });
  securityMetrics(registers, snapshot);
  new Gauge({
    name: "catalog_snapshot_skill_copies",
    help: "Skills in the served snapshot whose folder is a copy of one in an earlier-created other repository (copy_of).",
    registers,
    collect() {
      this.set(snapshot()?.skillCopies ?? 0);
    },
  });
  const sharedMode = sources.sharedMode ?? (() => "off" as const);
  new Gauge({
    name: "catalog_shared_state",
    help: "1 for the current mode of the state shared across instances: up (Redis), degraded (REDIS_URL set, Redis unreachable), off (no REDIS_URL).",
    labelNames: ["mode"],
    registers,
    collect() {
      const mode = sharedMode();
      for (const each of ["up", "degraded", "off"] as const) this.set({ mode: each }, each === mode ? 1 : 0);
    },
  });
}

/** What the scheduled refreshes report: runs by outcome, their last success and duration, platform calls and budgets. */
function refreshMetrics(registers: Registry[]) {
  const runs = new Counter({
    name: "catalog_refresh_runs_total",
    help: "Scheduled refreshes by outcome: published, refused, incomplete, locked, skipped, failed.",
    labelNames: ["outcome"],
    registers,
  });
  const lastSuccess = new Gauge({
    name: "catalog_refresh_last_success_timestamp_seconds",
    help: "When the last scheduled refresh of this process published (Unix seconds); 0 before one has.",
    registers,
  });
  const lastDuration = new Gauge({
    name: "catalog_refresh_last_duration_seconds",
    help: "How long the last scheduled refresh of each outcome took.",
    labelNames: ["outcome"],
    registers,
  });
  const githubCalls = new Counter({
    name: "catalog_github_calls_total",
    help: "Calls the scheduled refreshes made to the hosting platform, by kind.",
    labelNames: ["kind"],
    registers,
  });
  const budgetLeft = new Gauge({
    name: "catalog_github_budget_remaining",
    help: "Calls or points left in the platform's current window, by rate-limit resource, as last reported.",
    labelNames: ["resource"],
    registers,
  });
  const budgetLimit = new Gauge({
    name: "catalog_github_budget_limit",
    help: "The platform's budget per window, by rate-limit resource, as last reported.",
    labelNames: ["resource"],
    registers,
  });
  return { runs, lastSuccess, lastDuration, githubCalls, budgetLeft, budgetLimit };
}

export class Metrics {
  readonly registry = new Registry();
  private readonly tallies = new Map<string, RouteTally>();
  private readonly groups = new Map<string, string>();
  private readonly unmatched = new RouteTally(UNMATCHED_ROUTE, null);
  private readonly refreshRuns: Counter<"outcome">;
  private readonly githubCalls: Counter<"kind">;
  private readonly budgetLeft: Gauge<"resource">;
  private readonly budgetLimit: Gauge<"resource">;
  private readonly lastSuccess: Gauge;
  private readonly lastDuration: Gauge<"outcome">;
  private readonly now: () => number;

  constructor(sources: MetricsSources = {}) {
    const registers = [this.registry];
    const tallies = () => [...this.tallies.values(), this.unmatched];
    const now = sources.now ?? Date.now;
    requestMetrics(registers, tallies);
    stateMetrics(registers, sources, now);
    const refresh = refreshMetrics(registers);
    this.refreshRuns = refresh.runs;
    this.lastSuccess = refresh.lastSuccess;
    this.lastDuration = refresh.lastDuration;
    this.githubCalls = refresh.githubCalls;
    this.budgetLeft = refresh.budgetLeft;
    this.budgetLimit = refresh.budgetLimit;
    // Every outcome is exported from the start, so a rule on its increase sees the first one.
    for (const outcome of REFRESH_OUTCOMES) this.refreshRuns.inc({ outcome }, 0);
    if (sources.processMetrics !== false) processMetrics(registers);
    this.now = now;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Names the rate-limit group of each limited route, so its refusals carry it. */
  limitGroup(route: string, group: string): void {
    this.groups.set(route, group);
  }

  /** Counts one answered request; `seconds` is NaN when its arrival is unknown. */
  request(route: string | undefined, status: number, seconds: number, cache: "hit" | "miss" | null): void {
    let tally = route ? this.tallies.get(route) : this.unmatched;
    if (tally === undefined) {
      // Routes are the app's own patterns, so this map holds one entry per route at most.
      tally = new RouteTally(route!, this.groups.get(route!) ?? null);
      this.tallies.set(route!, tally);
    }
    if (status >= 0 && status < STATUSES) tally.statuses[status]!++;
    if (status === 429) tally.refusals++;
    if (cache === "hit") tally.hits++;
    else if (cache === "miss") tally.misses++;
    if (!(seconds >= 0)) return;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    tally.buckets[bucket]!++;
    tally.sum += seconds;
    tally.count++;
  }

  /** Records a scheduled refresh that ended. */
  refresh(run: RefreshRun): void {
    this.refreshRuns.inc({ outcome: run.outcome });
    this.lastDuration.set({ outcome: run.outcome }, run.seconds);
    if (run.outcome === "published") this.lastSuccess.set(this.now() / 1000);
    for (const [kind, count] of Object.entries(run.calls ?? {})) this.githubCalls.inc({ kind }, count);
    for (const [resource, budget] of run.budgets ?? []) {
      this.budgetLeft.set({ resource }, budget.remaining);
      this.budgetLimit.set({ resource }, budget.limit);
    }
  }

  /** Exports the queue renderings wait in (http/turns.ts): how many wait now, how many were refused. */
  renders(queue: { readonly length: number; readonly refused: number }): void {
    new Gauge({
      name: "catalog_renders_waiting",
      help: "Renderings (answers the response cache did not hold) waiting for their turn of the event loop.",
      registers: [this.registry],
      collect() {
        this.set(queue.length);
      },
    });
    this.countedBy(
      "catalog_renders_refused_total",
      "Renderings refused with 503 because RENDER_QUEUE_MAX were already waiting.",
      () => queue.refused,
    );
  }

  /** Exports what the soft memory limit (memory-limit.ts) asked of the collector. */
  memoryLimit(limit: { readonly collections: number; readonly pauseSeconds: number }): void {
    this.countedBy(
      "catalog_memory_limit_collections_total",
      "Full collections asked for because the resident set passed MEMORY_LIMIT_MB.",
      () => limit.collections,
    );
    this.countedBy(
      "catalog_memory_limit_pause_seconds_total",
      "Time those collections held the event loop.",
      () => limit.pauseSeconds,
    );
  }

  /** A counter whose total another object keeps, read at each scrape. */
  private countedBy(name: string, help: string, total: () => number): void {
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(total());
      },
    });
  }

  /** The exposition, in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
