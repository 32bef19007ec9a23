/**
 * The request metrics: numbers held per route in typed arrays, added to on every request without
 * allocating, and read by prom-client only when scraped.
 */
import { Counter, type Metric, type Registry } from "prom-client";

/** Upper bounds (seconds) of the latency buckets: a cached page answers in well under a millisecond. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

export const STATUSES = 600;

/** One route's numbers, added to on every request. */
export class RouteTally {
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

/** Requests by route and status, their latency, rate-limit refusals and response-cache use. */
export function requestMetrics(registers: Registry[], tallies: () => Iterable<RouteTally>): void {
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
  const histogram = latencyHistogram(
    "catalog_http_request_duration_seconds",
    "Time from arrival to answer, by route.",
    tallies,
  );
  for (const registry of registers) registry.registerMetric(histogram);
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
}
