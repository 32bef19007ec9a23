/**
 * bench:cost's swarm: polite clients on expensive endpoints while a prober (bench/prober.ts, a
 * process of its own) asks /healthz; and the prober alone, for the machine's own noise.
 */
import { join } from "node:path";
import type { Memory } from "./cost-memory";
import { catalogEtag, GZIP, PLAIN, unknownWords } from "./cost-requests";
import type { RunningServer } from "./server";
import { percentile } from "./stats";
import { random } from "./synthetic";

export const SWARM = { clients: 40, everyMs: 2100, seconds: 60, probeEveryMs: 100 };

/**
 * Starts the prober for `seconds` on the bench's own CPUs (bench/cost.ts moves them off the
 * server's); the answer reads its latencies.
 */
function startProber(url: string, seconds: number): () => Promise<{ latencies: number[]; failures: number }> {
  const command = [process.execPath, join(import.meta.dir, "prober.ts"), url, String(SWARM.probeEveryMs)];
  const prober = Bun.spawn([...command, String(seconds)], { stdout: "pipe", stderr: "inherit" });
  return async () => JSON.parse((await new Response(prober.stdout).text()).trim());
}

/** The prober alone for `seconds`, no clients: what /healthz costs on this machine right now. */
export async function probeIdle(server: RunningServer, seconds: number) {
  const { latencies } = await startProber(server.url, seconds)();
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, probes: sorted.length };
}

/** The swarm: polite clients on distinct addresses, each one request per 2.1 s to an expensive endpoint. */
export async function swarm(server: RunningServer, memory: Memory, times: string[]) {
  const url = server.url;
  const etag = await catalogEtag(url);
  const expensive: Array<(junk: string) => [string, Record<string, string>, string?]> = [
    (j) => [`/market/v1/changes?since=${encodeURIComponent(times[0]!)}&${j}`, PLAIN],
    (j) => [`/market/v1/changes?since=${encodeURIComponent(times.at(-2)!)}&${j}`, GZIP],
    (j) => [`/market/v1/catalog.json?${j}`, PLAIN],
    (j) => [`/market/v1/catalog.json?${j}`, PLAIN, "HEAD"],
    (j) => [`/market/v1/catalog.json?${j}`, { ...PLAIN, "if-none-match": etag }],
    (j) => [`/api/v1/categories?q=${encodeURIComponent(unknownWords())}&${j}`, GZIP],
    (j) => [`/openapi.json?${j}`, GZIP],
    (j) => [`/api/v1/plugins?q=mcp&${j}`, GZIP],
  ];
  const next = random(99);
  const deadline = performance.now() + SWARM.seconds * 1000 - 200;
  const statuses = new Map<number, number>();
  let bytes = 0;
  const client = async (i: number) => {
    const address = `10.200.${i >> 8}.${i & 255}`;
    await Bun.sleep(next() * SWARM.everyMs);
    while (performance.now() < deadline) {
      const started = performance.now();
      const [path, headers, method] = expensive[Math.floor(next() * expensive.length)]!(
        `junk${Math.floor(next() * 1e9)}=1`,
      );
      try {
        const res = await fetch(`${url}${path}`, {
          method: method ?? "GET",
          headers: { ...headers, "x-forwarded-for": address },
          decompress: false,
        });
        bytes += (await res.arrayBuffer()).byteLength;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      await Bun.sleep(Math.max(0, SWARM.everyMs - (performance.now() - started)));
    }
  };
  const probed = startProber(url, SWARM.seconds);
  memory.resetPeak();
  const rssBefore = memory.rss();
  await Promise.all(Array.from({ length: SWARM.clients }, (_, i) => client(i)));
  const { latencies, failures } = await probed();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    probes: sorted.length,
    failures,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    rssBefore,
    peakRssMb: memory.peak(),
    statuses: Object.fromEntries(statuses),
    mb: bytes / 2 ** 20,
  };
}

export type SwarmResult = Awaited<ReturnType<typeof swarm>>;
