/** The process's own metrics: heap, RSS, CPU and event-loop lag. */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Counter, Gauge, type Registry } from "prom-client";

/**
 * Heap, RSS, CPU and event-loop lag, named as prom-client's default metrics name them. Those
 * defaults are not used: under Bun their per-space heap and active-handle figures read zero, and
 * three of their names break Prometheus' naming rules (`promtool check metrics`).
 */
export function processMetrics(registers: Registry[]): void {
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
