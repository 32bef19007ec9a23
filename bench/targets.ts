/** The targets, checked against the rows of one bench run. */
import type { Row, Target } from "./table";

export interface BuildResult {
  count: number;
  buildMs: number;
  peakRssMb: number;
  fileMb: number;
}

const LARGE = "100k";

function worst(rows: Row[], pick: (r: Row) => number, higherIsWorse: boolean): Row | undefined {
  return rows.slice().sort((a, b) => (higherIsWorse ? pick(b) - pick(a) : pick(a) - pick(b)))[0];
}

function check(
  what: string,
  rows: Row[],
  pick: (r: Row) => number,
  holds: (v: number) => boolean,
  higherIsWorse: boolean,
  unit: string,
): Target {
  const w = worst(rows, pick, higherIsWorse);
  if (!w) return { what, holds: false, detail: "not measured" };
  return { what, holds: holds(pick(w)), detail: `worst ${pick(w).toFixed(2)}${unit} (${w.catalog} ${w.endpoint})` };
}

export function checkTargets(rows: Row[], builds: BuildResult[]): Target[] {
  const large = rows.filter((r) => r.catalog === LARGE);
  const cold = large.filter((r) => r.kind === "cold");
  const search = cold.filter((r) => r.endpoint.startsWith("q "));
  const pages = cold.filter((r) => !r.endpoint.startsWith("q "));
  const hot = rows.filter((r) => r.kind === "hot");
  const targets = [
    check(
      "hot requests >= 0.6x bare",
      hot,
      (r) => r.ratioToBare,
      (v) => v >= 0.6,
      false,
      "x",
    ),
    check(
      "cold list/sort/filter/deep pages p99 <= 5 ms at 100k",
      pages,
      (r) => r.p99Ms,
      (v) => v <= 5,
      true,
      " ms",
    ),
    check(
      "cold search p99 <= 15 ms at 100k",
      search,
      (r) => r.p99Ms,
      (v) => v <= 15,
      true,
      " ms",
    ),
    check(
      "server RSS <= 150 MB at 100k",
      large,
      (r) => r.rssMb,
      (v) => v <= 150,
      true,
      " MB",
    ),
  ];
  for (const catalog of new Set(rows.filter((r) => r.kind === "limiter on").map((r) => r.catalog))) {
    const limited = rows.find((r) => r.catalog === catalog && r.kind === "limiter on")!;
    // The same requests (a new X-Forwarded-For each) to the same service with the limiter off.
    const plain = rows.find((r) => r.catalog === catalog && r.kind === "limiter off");
    if (!plain) continue;
    // Each run of the limiter on against the runs of it off a second before and after, so a drift
    // of the machine cancels out (measureLimiter).
    const cost = 1 - (limited.againstOff ?? limited.ratioToBare / plain.ratioToBare);
    targets.push({
      what: `rate limiter costs <= 10% (${catalog})`,
      holds: cost <= 0.1,
      detail: `${(cost * 100).toFixed(1)}% (median of runs against their neighbours; ${plain.ratioToBare.toFixed(2)}x -> ${limited.ratioToBare.toFixed(2)}x bare)`,
    });
  }
  const build = builds.find((b) => b.count === 100_000);
  targets.push(
    build
      ? {
          what: "snapshot build <= 5 s at 100k",
          holds: build.buildMs <= 5000,
          detail: `${(build.buildMs / 1000).toFixed(2)} s`,
        }
      : { what: "snapshot build <= 5 s at 100k", holds: false, detail: "not measured" },
  );
  return targets;
}
