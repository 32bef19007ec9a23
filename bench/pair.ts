/**
 * `bun run bench:pair [path] [pairs] [env…]`: one hot URL against the bare baseline, closely: the
 * service and the baseline take turns (1 s wrk runs, pinned as in the bench) for `pairs` rounds
 * (10 by default), and each service run is printed with its server CPU time per request and its
 * ratios to the bare runs just before and after it. For a quiet comparison of one endpoint, or of
 * two settings (`KEY=value` arguments go to the service's environment). Uses the 100k snapshot
 * the bench left in bench/out (run `bun run bench` once first).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { processCpuSeconds } from "./cpu";
import { CLIENT_HEADERS } from "./scenarios";
import { freePort, startBare, startService, type RunningServer } from "./server";
import { runWrk } from "./wrk";

const OUT = join(import.meta.dir, "out");
const SNAPSHOT = join(OUT, "synthetic-100000.sqlite");

const args = process.argv.slice(2);
/** `NAME=value` arguments are the service's environment; a path may hold `=` in its query. */
const isSetting = (a: string) => /^[A-Z_][A-Z0-9_]*=/.test(a);
const settings = args.filter(isSetting);
const env = Object.fromEntries(settings.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));
const [path = "/api/v1/plugins", pairsArg = "10"] = args.filter((a) => !isSetting(a));
const pairs = Number(pairsArg);
const varyForwardedFor = env.TRUST_PROXY === "true";

async function once(server: RunningServer, target: string): Promise<{ rps: number; us: number }> {
  const cpu = processCpuSeconds(server.pid);
  const r = await runWrk({ url: server.url, paths: [target], headers: { ...CLIENT_HEADERS }, connections: 32, seconds: 1, varyForwardedFor, cpu: 1, workDir: OUT });
  if (r.errors > 0) throw new Error(`${target}: ${r.errors} failed requests`);
  return { rps: r.reqPerSec, us: ((processCpuSeconds(server.pid) - cpu) / r.requests) * 1e6 };
}

if (!existsSync(SNAPSHOT)) {
  console.error(`${SNAPSHOT} is missing: run \`bun run bench\` once first.`);
  process.exit(1);
}
mkdirSync(OUT, { recursive: true });
const bare = await startBare(await freePort(), 0);
const service = await startService(SNAPSHOT, await freePort(), 0, env);
try {
  await runWrk({ url: service.url, paths: [path], headers: { ...CLIENT_HEADERS }, connections: 32, seconds: 2, varyForwardedFor, cpu: 1, workDir: OUT });
  let before = await once(bare, "/");
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const run = await once(service, path);
    const after = await once(bare, "/");
    const ratio = run.rps / ((before.rps + after.rps) / 2);
    const cpuRatio = (before.us + after.us) / 2 / run.us;
    ratios.push(ratio);
    console.log(`${run.rps.toFixed(0).padStart(6)} req/s  ${run.us.toFixed(2)} µs/req   bare ${before.rps.toFixed(0)}/${after.rps.toFixed(0)}   x bare ${ratio.toFixed(2)} (CPU ${cpuRatio.toFixed(2)})`);
    before = after;
  }
  const sorted = ratios.sort((a, b) => a - b);
  console.log(`${path}${settings.length ? ` with ${settings.join(" ")}` : ""}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}x bare over ${pairs} pairs (range ${sorted[0]!.toFixed(2)}-${sorted.at(-1)!.toFixed(2)})`);
} finally {
  await service.stop();
  await bare.stop();
}
