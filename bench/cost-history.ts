/**
 * bench:cost's catalog: a synthetic catalog with a realistic vocabulary and a day of history (the
 * first snapshot and PUBLISHES more, six hours apart), built once per count and kept in bench/out/cost.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../src/base/atomic-write";
import { buildHistory, syntheticInput } from "./synthetic";

/** Publishes after the first, six hours apart: a day of history. */
const PUBLISHES = 4;
export const COST_OUT = join(import.meta.dir, "out", "cost");

/** The last snapshot of a day of publishes of `count` plugins and the snapshot times, oldest first. */
export function historyFile(count: number): { path: string; times: string[] } {
  mkdirSync(COST_OUT, { recursive: true });
  const path = join(COST_OUT, `catalog-${count}.sqlite`);
  const about = join(COST_OUT, `catalog-${count}.json`);
  const version = "realistic-2";
  if (existsSync(path) && existsSync(about)) {
    const known = JSON.parse(readFileSync(about, "utf8")) as { version: string; times: string[] };
    if (known.version === version) return { path, times: known.times };
  }
  const input = syntheticInput(count, 42, { vocabulary: "realistic" });
  const started = performance.now();
  const { times } = writeAtomically(path, (building) => buildHistory(building, input, PUBLISHES));
  writeFileSync(about, JSON.stringify({ version, times }));
  console.log(
    `built ${count} plugins, ${PUBLISHES + 1} publishes in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { path, times };
}
