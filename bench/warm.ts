/** Warm-ups before measuring: the service's response cache and JIT, and the bare baseline's first runs. */
import { BARE, type Bench, bareRun, HOT } from "./runs";
import type { Scenario } from "./scenarios";
import type { RunningServer } from "./server";
import { runWrk } from "./wrk";

/**
 * Fills the response cache with every hot URL and lets the JIT settle on the first, sent as it
 * will be measured (with a new X-Forwarded-For each when the limiter is on: else the warm-up
 * trains the JIT on 429s).
 */
export async function warm(
  b: Bench,
  server: RunningServer,
  scenarios: Scenario[],
  varyForwardedFor = false,
): Promise<void> {
  for (const s of scenarios)
    for (const path of s.paths)
      await (await fetch(`${server.url}${path}`, { headers: s.headers, decompress: false })).arrayBuffer();
  const first = scenarios[0]!;
  await runWrk({
    url: server.url,
    paths: first.paths,
    headers: first.headers,
    connections: HOT.connections,
    seconds: 3,
    varyForwardedFor,
    cpu: b.cpu.load,
    workDir: b.workDir,
  });
}

/** Starts the baseline's record with a few runs, after a warm-up. */
export async function warmBare(b: Bench): Promise<void> {
  await runWrk({
    url: b.bare.url,
    paths: BARE.paths,
    headers: BARE.headers,
    connections: HOT.connections,
    seconds: 2,
    cpu: b.cpu.load,
    workDir: b.workDir,
  });
  for (let i = 0; i < 2; i++) await bareRun(b);
}
