/**
 * `bun run bench:metrics`: what counting a request costs, beside what the request costs without
 * it: the request log's call with and without the metrics, alternated for 12 rounds, in
 * nanoseconds per request (no network, no app: only the added work). Pin it to a CPU
 * (`taskset -c 0`) for steadier figures.
 */

import { Metrics } from "../src/base/metrics";
import { logRequest, type RequestNote } from "../src/http/request-log";

const ROUNDS = 12;
const PER_ROUND = 1_000_000;
const metrics = new Metrics({ processMetrics: false });
metrics.limitGroup("/api/v1/plugins", "catalog");
const log = () => {};
const note: RequestNote = { arrivedAt: performance.now(), cache: "hit", ip: null, limit: null };
const routes = ["/api/v1/plugins", "/market/v1/plugins", "/api/v1/plugins/:owner/:repo"];
const statuses = [200, 304, 429];

function run(withMetrics: boolean): number {
  const start = Bun.nanoseconds();
  for (let i = 0; i < PER_ROUND; i++) {
    note.arrivedAt = performance.now() - 0.2;
    logRequest(log, "GET", routes[i % 3], statuses[i % 3]!, note, withMetrics ? metrics : undefined);
  }
  return (Bun.nanoseconds() - start) / PER_ROUND;
}

run(true);
run(false);
const without: number[] = [];
const withIt: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  without.push(run(false));
  withIt.push(run(true));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const heap = process.memoryUsage().heapUsed;
for (let i = 0; i < 3; i++) run(true);
Bun.gc(true);
console.log(`request log alone:        median ${median(without).toFixed(1)} ns per request over ${ROUNDS} rounds`);
console.log(`request log with metrics: median ${median(withIt).toFixed(1)} ns per request over ${ROUNDS} rounds`);
console.log(
  `heap growth over 3M more counted requests: ${((process.memoryUsage().heapUsed - heap) / 1024).toFixed(0)} KiB`,
);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
