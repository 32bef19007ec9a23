/** What bench:cost prints: its worst-case table, and the targets checked against the table and the swarm. */
import type { SwarmResult } from "./cost-swarm";
import type { CostRow } from "./cost-table";

const TARGETS = { healthP99: 50, healthMax: 200, peakRssMb: 512, revalidateMs: 20, changesWarmMs: 100 };
const TARGETS_MORE = { categoriesMs: 300, openapiColdMs: 300 };

export const f = (n: number, digits = 0) => n.toFixed(digits);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(n < 2 ** 20 ? 3 : 1)} MB`;

export function printTable(rows: CostRow[]): void {
  console.log(
    "| request | status | cold ms | warm ms (median of 3) | warm, first byte | bytes | RSS delta | peak delta |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.request} | ${r.status} | ${f(r.coldMs)} | ${f(r.warmMs, 1)} | ${f(r.warmFirstMs, 1)} | ${mb(r.bytes)} | ${f(r.rssDeltaMb)} MB | ${f(r.peakDeltaMb)} MB |`,
    );
  }
}

export function printTargets(rows: CostRow[], s: SwarmResult, everyday: SwarmResult, lookup: SwarmResult): void {
  const get = (prefix: string) => rows.find((r) => r.request.startsWith(prefix))!;
  const checks: Array<[string, number, number]> = [
    ["/healthz p99 during the swarm on the expensive mix (ms)", s.p99, TARGETS.healthP99],
    ["/healthz max during the swarm on the expensive mix (ms)", s.max, TARGETS.healthMax],
    ["peak RSS during the swarm on the expensive mix (MB)", s.peakRssMb, TARGETS.peakRssMb],
    ["/healthz p99 during the swarm on the everyday mix (ms)", everyday.p99, TARGETS.healthP99],
    ["/healthz max during the swarm on the everyday mix (ms)", everyday.max, TARGETS.healthMax],
    ["/healthz p99 during the swarm POSTing the lookup (ms)", lookup.p99, TARGETS.healthP99],
    ["/healthz max during the swarm POSTing the lookup (ms)", lookup.max, TARGETS.healthMax],
    ["304 without gzip, warm (ms)", get("catalog.json 304").warmMs, TARGETS.revalidateMs],
    [
      "changes since 24 h repeated, gzip, whole answer (ms)",
      get("changes since 24 h older, gzip").warmMs,
      TARGETS.changesWarmMs,
    ],
    [
      "changes since 24 h repeated, without gzip, first byte (ms)",
      get("changes since 24 h older, without gzip").warmFirstMs,
      TARGETS.changesWarmMs,
    ],
    ["categories?q= four unknown words, cold (ms)", get("categories?q=").coldMs, TARGETS_MORE.categoriesMs],
    ["/openapi.json cold (ms)", get("/openapi.json").coldMs, TARGETS_MORE.openapiColdMs],
  ];
  console.log("\n| target | measured | limit | met |\n|---|---|---|---|");
  for (const [name, value, limit] of checks)
    console.log(`| ${name} | ${f(value, 1)} | ${limit} | ${value <= limit ? "yes" : "NO"} |`);
}
