/**
 * `bun run bench:pair [path] [pairs] [KEY=value…] [vs KEY=value…]`: one hot URL against the bare
 * baseline, closely: the service and the baseline take turns (1 s wrk runs, pinned as in the
 * bench) for `pairs` rounds (10 by default), and each service run is printed with its server CPU
 * time per request and its ratios to the bare runs just before and after it. `KEY=value`
 * arguments go to the service's environment. After `vs`, a second service with its own settings
 * joins the turns (first, bare, second, bare, …), and each round also gives the second's CPU time
 * per request over the first's: how two settings compare (the limiter off and on, say:
 * `TRUST_PROXY=true vs TRUST_PROXY=true RATE_LIMIT_WINDOW_MS=2000`; with `TRUST_PROXY=true` every
 * request carries a new `X-Forwarded-For`). With `IDENTITY=1` in its own environment the requests
 * carry no `Accept-Encoding`: bodies are sent as they are, not gzip-compressed. Uses the 100k snapshot the bench left in bench/out
 * (run `bun run bench` once first).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { processCpuSeconds } from "./cpu";
import { CLIENT_HEADERS } from "./scenarios";
import { freePort, type RunningServer, startBare, startService } from "./server";
import { sidesOf } from "./settings";
import { runWrk } from "./wrk";

const OUT = join(import.meta.dir, "out");
const SNAPSHOT = join(OUT, "synthetic-100000.sqlite");

const { positional, sides } = sidesOf(process.argv.slice(2));
const [path = "/api/v1/plugins", pairsArg = "10"] = positional;
const pairs = Number(pairsArg);
const headers = process.env.IDENTITY === "1" ? {} : { ...CLIENT_HEADERS };

interface Measured {
  rps: number;
  us: number;
}

async function once(server: RunningServer, target: string, varyForwardedFor: boolean): Promise<Measured> {
  const cpu = processCpuSeconds(server.pid);
  const r = await runWrk({
    url: server.url,
    paths: [target],
    headers,
    connections: 32,
    seconds: 1,
    varyForwardedFor,
    cpu: 1,
    workDir: OUT,
  });
  if (r.errors > 0) throw new Error(`${target}: ${r.errors} failed requests`);
  return { rps: r.reqPerSec, us: ((processCpuSeconds(server.pid) - cpu) / r.requests) * 1e6 };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function range(values: number[]): string {
  return `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
}

if (!existsSync(SNAPSHOT)) {
  console.error(`${SNAPSHOT} is missing: run \`bun run bench\` once first.`);
  process.exit(1);
}
mkdirSync(OUT, { recursive: true });
const bare = await startBare(await freePort(), 0);
const services: RunningServer[] = [];
try {
  for (const s of sides) services.push(await startService(SNAPSHOT, await freePort(), 0, s.env));
  const varies = sides.map((s) => s.env.TRUST_PROXY === "true");
  for (const [k, service] of services.entries()) {
    await runWrk({
      url: service.url,
      paths: [path],
      headers,
      connections: 32,
      seconds: 2,
      varyForwardedFor: varies[k]!,
      cpu: 1,
      workDir: OUT,
    });
  }
  let before = await once(bare, "/", false);
  const ratios = sides.map((): number[] => []);
  const costs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const round: Measured[] = [];
    for (const [k, service] of services.entries()) {
      const run = await once(service, path, varies[k]!);
      const after = await once(bare, "/", false);
      const ratio = (before.us + after.us) / 2 / run.us;
      ratios[k]!.push(ratio);
      round.push(run);
      const label = sides.length > 1 ? `${k === 0 ? "first " : "second"} ` : "";
      console.log(
        `${label}${run.rps.toFixed(0).padStart(6)} req/s  ${run.us.toFixed(2)} µs/req   bare ${before.us.toFixed(2)}/${after.us.toFixed(2)} µs/req   x bare ${ratio.toFixed(2)} (req/s ${(run.rps / ((before.rps + after.rps) / 2)).toFixed(2)})`,
      );
      before = after;
    }
    if (round.length > 1) costs.push(round[1]!.us / round[0]!.us - 1);
  }
  for (const [k, s] of sides.entries()) {
    const what = s.settings.length ? ` with ${s.settings.join(" ")}` : "";
    console.log(
      `${path}${what}: median ${median(ratios[k]!).toFixed(2)}x bare (server CPU per request) over ${pairs} pairs (range ${range(ratios[k]!)})`,
    );
  }
  if (costs.length) {
    console.log(
      `second over first, CPU per request: median ${(median(costs) * 100).toFixed(1)}% over ${pairs} rounds (range ${(Math.min(...costs) * 100).toFixed(1)}% to ${(Math.max(...costs) * 100).toFixed(1)}%)`,
    );
  }
} finally {
  for (const service of services) await service.stop();
  await bare.stop();
}
