/** The bench's printed results: one row per run, aligned columns, and the targets checked against them. */

export interface Row {
  catalog: string;
  kind: "baseline" | "hot" | "identity" | "cold" | "limiter off" | "limiter on";
  endpoint: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Hot rows: bare's server CPU time per request over this row's; cold rows: req/s over bare's. */
  ratioToBare: number;
  /** Hot rows: the best run's req/s over the best bare run's beside it. */
  reqRatioToBare: number | null;
  rssMb: number;
  /** No clean run: other load on the machine took CPU from the server or wrk. */
  disturbed?: boolean;
  /**
   * The limiter-on row: the median, over its runs, of the mean server CPU time per request of the
   * limiter-off runs just before and after it over its own (see `measureLimiter`).
   */
  againstOff?: number;
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

/** A plain-text table that reads the same in a terminal and in a Markdown file. */
export function formatTable(rows: Row[]): string {
  const header = ["catalog", "kind", "endpoint", "req/s", "p50 ms", "p99 ms", "x bare", "x bare req/s", "RSS MB"];
  const cells = rows.map((r) => [
    r.catalog,
    r.kind,
    `${r.endpoint}${r.disturbed ? " *" : ""}`,
    fixed(r.reqPerSec, 0),
    fixed(r.p50Ms, 2),
    fixed(r.p99Ms, 2),
    fixed(r.ratioToBare, 2),
    r.reqRatioToBare === null ? "-" : fixed(r.reqRatioToBare, 2),
    fixed(r.rssMb, 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const numeric = (i: number) => i >= 3;
  const line = (c: string[]) =>
    `| ${c.map((v, i) => (numeric(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric(i) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(header), rule, ...cells.map(line)].join("\n");
}

export interface Target {
  what: string;
  holds: boolean;
  detail: string;
}

export function formatTargets(targets: Target[]): string {
  return targets.map((t) => `${t.holds ? "PASS" : "MISS"}  ${t.what}: ${t.detail}`).join("\n");
}
