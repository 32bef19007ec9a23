/**
 * What an operator scrapes (GET /metrics, the Prometheus text format, through prom-client): requests
 * by route and status with their latency, rate-limit refusals, response-cache use, the snapshot
 * served, the scheduled refreshes and what they spent on the hosting platform, the shared state,
 * and the process itself (heap, RSS, CPU, event-loop lag, under the names prom-client's defaults use).
 *
 * The request path only adds to numbers held per route in typed arrays; prom-client reads them
 * when scraped, so a request allocates nothing for its metrics.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Counter, Gauge, type Metric, Registry } from "prom-client";

/** Upper bounds (seconds) of the latency buckets: a cached page answers in well under a millisecond. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

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
  snapshot?: () => { snapshotAt: string; total: number } | null;
  sharedMode?: () => SharedMode;
  /** The process's heap, RSS, CPU and event-loop lag; on unless false. */
  processMetrics?: boolean;
  now?: () => number;
}

const STATUSES = 600;
const REFRESH_OUTCOMES = ["published", "refused", "incomplete", "locked", "skipped", "failed"] as const;

/** One route's numbers, added to on every request. */
class RouteTally {
  readonly statuses = new Float64Array(STATUSES);
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;
  hits = 0;
  misses = 0;
  refusals = 0;

  constructor(
    readonly route: string,
    /** The rate-limit group the route is in, or null when it is not limited. */
    readonly group: string | null,
  ) {}
}

/** A histogram read from the tallies when scraped, in the shape prom-client's registry prints. */
function latencyHistogram(name: string, help: string, tallies: () => Iterable<RouteTally>): Metric {
  const get = () => {
    const values: Array<{ value: number; labels: Record<string, string | number>; metricName: string }> = [];
    for (const tally of tallies()) {
      if (tally.count === 0) continue;
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += tally.buckets[i]!;
        values.push({ value: cumulative, labels: { route: tally.route, le }, metricName: `${name}_bucket` });
      });
      values.push({ value: tally.count, labels: { route: tally.route, le: "+Inf" }, metricName: `${name}_bucket` });
      values.push({ value: tally.sum, labels: { route: tally.route }, metricName: `${name}_sum` });
      values.push({ value: tally.count, labels: { route: tally.route }, metricName: `${name}_count` });
    }
    return { name, help, type: "histogram", values, aggregator: "sum" };
  };
  return { name, help, type: "histogram", get, reset() {}, aggregator: "sum" } as unknown as Metric;
}

/**
 * Heap, RSS, CPU and event-loop lag, named as prom-client's default metrics name them. Those
 * defaults are not used: under Bun their per-space heap and active-handle figures read zero, and
 * three of their names break Prometheus' naming rules (`promtool check metrics`).
 */
function processMetrics(registers: Registry[]): void {
  // The delay of timers the event loop could not run on time, sampled every 10 ms.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const memory = (name: string, help: string, read: (usage: NodeJS.MemoryUsage) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(process.memoryUsage()));
      },
    });
  memory("process_resident_memory_bytes", "Resident set size of the process.", (m) => m.rss);
  memory("nodejs_heap_size_used_bytes", "JavaScript heap in use.", (m) => m.heapUsed);
  memory("nodejs_heap_size_total_bytes", "JavaScript heap reserved.", (m) => m.heapTotal);
  new Counter({
    name: "process_cpu_seconds_total",
    help: "CPU time the process used, user and system.",
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  const lagGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        // Read once per scrape: each statistic is over the interval since the previous one.
        this.set(lag.count > 0 ? read() / 1e9 : 0);
      },
    });
  lagGauge("nodejs_eventloop_lag_p99_seconds", "99th percentile of event-loop delay since the last scrape.", () =>
    lag.percentile(99),
  );
  lagGauge("nodejs_eventloop_lag_mean_seconds", "Mean event-loop delay since the last scrape.", () => lag.mean);
  // Registered last: a scrape collects in order, and this one starts the next interval.
  new Gauge({
    name: "nodejs_eventloop_lag_max_seconds",
    help: "Longest event-loop delay since the last scrape.",
    registers,
    collect() {
      this.set(lag.count > 0 ? lag.max / 1e9 : 0);
      lag.reset();
    },
  });
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
    new Counter({
      name: "catalog_http_requests_total",
      help: "Requests answered, by route pattern and status.",
      labelNames: ["route", "status"],
      registers,
      collect() {
        this.reset();
        for (const tally of tallies()) {
          for (let status = 0; status < STATUSES; status++) {
            const count = tally.statuses[status]!;
            if (count > 0) this.inc({ route: tally.route, status }, count);
          }
        }
      },
    });
    this.registry.registerMetric(
      latencyHistogram("catalog_http_request_duration_seconds", "Time from arrival to answer, by route.", tallies),
    );
    new Counter({
      name: "catalog_rate_limit_refusals_total",
      help: "Requests refused with 429 by the per-client limit, by rate-limit group and route.",
      labelNames: ["group", "route"],
      registers,
      collect() {
        this.reset();
        for (const tally of tallies()) {
          if (tally.group !== null) this.inc({ group: tally.group, route: tally.route }, tally.refusals);
        }
      },
    });
    new Counter({
      name: "catalog_response_cache_total",
      help: "Answers from the snapshot's response cache (hit) or rendered for it (miss), by route.",
      labelNames: ["route", "result"],
      registers,
      collect() {
        this.reset();
        for (const tally of tallies()) {
          if (tally.hits + tally.misses === 0) continue;
          this.inc({ route: tally.route, result: "hit" }, tally.hits);
          this.inc({ route: tally.route, result: "miss" }, tally.misses);
        }
      },
    });
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
    this.refreshRuns = new Counter({
      name: "catalog_refresh_runs_total",
      help: "Scheduled refreshes by outcome: published, refused, incomplete, locked, skipped, failed.",
      labelNames: ["outcome"],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: "catalog_refresh_last_success_timestamp_seconds",
      help: "When the last scheduled refresh of this process published (Unix seconds); 0 before one has.",
      registers,
    });
    this.lastDuration = new Gauge({
      name: "catalog_refresh_last_duration_seconds",
      help: "How long the last scheduled refresh of each outcome took.",
      labelNames: ["outcome"],
      registers,
    });
    this.githubCalls = new Counter({
      name: "catalog_github_calls_total",
      help: "Calls the scheduled refreshes made to the hosting platform, by kind.",
      labelNames: ["kind"],
      registers,
    });
    this.budgetLeft = new Gauge({
      name: "catalog_github_budget_remaining",
      help: "Calls or points left in the platform's current window, by rate-limit resource, as last reported.",
      labelNames: ["resource"],
      registers,
    });
    this.budgetLimit = new Gauge({
      name: "catalog_github_budget_limit",
      help: "The platform's budget per window, by rate-limit resource, as last reported.",
      labelNames: ["resource"],
      registers,
    });
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

  /** The exposition, in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
