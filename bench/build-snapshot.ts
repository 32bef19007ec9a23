/**
 * Builds one synthetic snapshot in its own process, so its time and peak memory are the
 * builder's alone: `bun bench/build-snapshot.ts <count> <path>` prints one JSON line.
 * `VOCABULARY=realistic` in the environment builds synthetic.ts's realistic vocabulary instead.
 */
import { rmSync } from "node:fs";
import { buildSnapshot } from "../src/catalog/snapshot/build";
import { syntheticInput } from "./synthetic";

const count = Number(process.argv[2]);
const path = process.argv[3];
if (!Number.isInteger(count) || count < 1 || !path) {
  console.error("usage: bun bench/build-snapshot.ts <count> <path>");
  process.exit(2);
}
const input = syntheticInput(count, 42, process.env.VOCABULARY === "realistic" ? { vocabulary: "realistic" } : {});
rmSync(path, { force: true });
const started = performance.now();
buildSnapshot(path, input);
const buildMs = performance.now() - started;
// maxRSS is in kilobytes on Linux: the peak of the whole process, synthetic input included.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ count, buildMs, peakRssMb }));
