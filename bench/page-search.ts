/**
 * `bun run bench:page-search [count] [SOURCE_TREE=<dir>…]`: clients searching unknown words through
 * the pages (`/browse` and `/categories/{id}` in turn) as fast as the limits let them, obeying every
 * `Retry-After`, while a prober in a process of its own asks `/healthz` every 100 ms. The service
 * runs with its default limits (RATE_LIMIT_WINDOW_MS=2000) on a synthetic catalog with a realistic
 * vocabulary, built once into bench/out. Each SOURCE_TREE runs that checkout's service too.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { publishSnapshot } from "../src/catalog/snapshot/publish";
import { freePort, memoryLimitCollections, type RunningServer, startProber, startService } from "./server";
import { random, syntheticInput } from "./synthetic";

const CLIENTS = [10, 40];
const SECONDS = 60;
const PROBE_EVERY_MS = 100;
const ROOT = join(import.meta.dir, "..");
const OUT = join(import.meta.dir, "out");

const args = process.argv.slice(2);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const trees: Array<[string, string]> = [
  ...args.filter((a) => a.startsWith("SOURCE_TREE=")).map((a): [string, string] => [a.slice(12), a.slice(12)]),
  ["this tree", ROOT],
];

function snapshotFile(): { path: string; categories: string[] } {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `page-search-${count}.sqlite`);
  const input = syntheticInput(count, 42, { vocabulary: "realistic" });
  if (!existsSync(path)) publishSnapshot(path, input);
  return { path, categories: [...input.categoryIds] };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** A search of `n` words no index holds, each close to nothing: a correction's worst case. */
function unknownSearch(next: () => number, n: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return Array.from({ length: n }, () =>
    Array.from({ length: 5 + Math.floor(next() * 5) }, () => letters[Math.floor(next() * 26)]).join(""),
  ).join(" ");
}

async function run(server: RunningServer, clients: number, categories: string[]) {
  const next = random(clients);
  const deadline = performance.now() + SECONDS * 1000;
  const statuses = new Map<number, number>();
  const client = async (i: number) => {
    const address = `10.201.${i >> 8}.${i & 255}`;
    let turn = 0;
    while (performance.now() < deadline) {
      const q = encodeURIComponent(unknownSearch(next, 8));
      const category = categories[Math.floor(next() * categories.length)]!;
      const path = turn++ % 2 === 0 ? `/browse?q=${q}` : `/categories/${category}?q=${q}`;
      const response = await fetch(`${server.url}${path}`, { headers: { "x-forwarded-for": address } });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 429) await Bun.sleep(Number(response.headers.get("retry-after") ?? 1) * 1000);
    }
  };
  const probed = startProber(server.url, PROBE_EVERY_MS, SECONDS);
  const before = await memoryLimitCollections(server.url);
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const after = await memoryLimitCollections(server.url);
  const sorted = (await probed()).latencies.sort((a, b) => a - b);
  return {
    statuses: Object.fromEntries(statuses),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    probes: sorted.length,
    collections: after.count - before.count,
    pauseMs: after.pauseMs - before.pauseMs,
  };
}

const { path, categories } = snapshotFile();
console.log(
  `bench:page-search: ${count} plugins (realistic vocabulary), ${SECONDS} s per run, 8 unknown words a search`,
);
for (const [label, tree] of trees) {
  for (const clients of CLIENTS) {
    const port = await freePort();
    const server = await startService(path, port, null, {
      RATE_LIMIT_WINDOW_MS: "2000",
      TRUST_PROXY: "1",
      SOURCE_TREE: tree,
    });
    try {
      const r = await run(server, clients, categories);
      const admitted = (r.statuses[200] ?? 0) / SECONDS;
      console.log(
        `${label}: ${clients} clients: ${admitted.toFixed(1)} searches/s admitted, statuses ${JSON.stringify(r.statuses)}; ` +
          `/healthz p50 ${r.p50.toFixed(1)} / p99 ${r.p99.toFixed(1)} / max ${r.max.toFixed(1)} ms over ${r.probes} probes; ` +
          `the memory limit's collections: ${r.collections}, pausing ${r.pauseMs.toFixed(0)} ms in all`,
      );
    } finally {
      await server.stop();
    }
  }
}
