/**
 * bench:cost's swarm: polite clients on expensive endpoints while a prober (bench/prober.ts, a
 * process of its own) asks /healthz; and the prober alone, for the machine's own noise.
 */
import type { Memory } from "./cost-memory";
import { catalogEtag, GZIP, nextAddress, PLAIN, unknownWords } from "./cost-requests";
import { type RunningServer, startProber } from "./server";
import { percentile } from "./stats";
import { random } from "./synthetic";

export const SWARM = { clients: 40, everyMs: 2100, seconds: 60, probeEveryMs: 100 };

/** The prober alone for `seconds`, no clients: what /healthz costs on this machine right now. */
export async function probeIdle(server: RunningServer, seconds: number) {
  const { latencies } = await startProber(server.url, SWARM.probeEveryMs, seconds)();
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, probes: sorted.length };
}

/**
 * One request of a swarm by client `client`, made with a junk parameter: its path, headers, method
 * (GET unless said) and body.
 */
export type SwarmRequest = (junk: string, client: number) => [string, Record<string, string>, string?, string?];

/** The expensive mix: the sync documents plain and compressed, revalidation, corrections, the API document, a search. */
export async function expensiveMix(url: string, times: string[]): Promise<SwarmRequest[]> {
  const etag = await catalogEtag(url);
  return [
    (j) => [`/market/v1/changes?since=${encodeURIComponent(times[0]!)}&${j}`, PLAIN],
    (j) => [`/market/v1/changes?since=${encodeURIComponent(times.at(-2)!)}&${j}`, GZIP],
    (j) => [`/market/v1/catalog.json?${j}`, PLAIN],
    (j) => [`/market/v1/catalog.json?${j}`, PLAIN, "HEAD"],
    (j) => [`/market/v1/catalog.json?${j}`, { ...PLAIN, "if-none-match": etag }],
    (j) => [`/api/v1/categories?q=${encodeURIComponent(unknownWords())}&${j}`, GZIP],
    (j) => [`/openapi.json?${j}`, GZIP],
    (j) => [`/api/v1/plugins?q=mcp&${j}`, GZIP],
  ];
}

/**
 * The everyday mix: typeahead on prefixes of the catalog's words and of unknown ones, listing
 * answers and badges of listed and unknown repositories, the Atom feed of the catalog and of each
 * category, and category counts of searches that must be corrected.
 */
export async function everydayMix(url: string): Promise<SwarmRequest[]> {
  const asked = async (path: string) =>
    (await fetch(`${url}${path}`, { headers: { "x-forwarded-for": nextAddress() } })).json();
  const listed = (await asked("/api/v1/plugins?per_page=100&sort=stars")) as {
    data: { items: Array<{ full_name: string; name: string }> };
  };
  const names = listed.data.items.map((p) => p.full_name);
  const words = listed.data.items.map((p) => p.name.replace(/[^a-z]/g, "")).filter((w) => w.length >= 3);
  const categories = (await asked("/api/v1/categories")) as { data: { items: Array<{ id: string }> } };
  const pick = random(7);
  const one = <T>(items: readonly T[]) => items[Math.floor(pick() * items.length)]!;
  const repository = () => (pick() < 0.8 ? one(names) : `nobody${Math.floor(pick() * 1e6)}/nothing`);
  const prefix = () => {
    const word = pick() < 0.7 ? one(words) : unknownWords().split(" ")[0]!;
    return word.slice(0, 2 + Math.floor(pick() * (word.length - 1)));
  };
  return [
    (j) => [`/api/v1/suggest?q=${encodeURIComponent(prefix())}&${j}`, GZIP],
    (j) => [`/api/v1/listing/${repository()}?${j}`, GZIP],
    (j) => [`/badge/${repository()}.svg?${j}`, GZIP],
    (j) => [`/plugins/feed.atom?${pick() < 0.5 ? "" : `category=${one(categories.data.items).id}&`}${j}`, GZIP],
    (j) => [`/api/v1/categories?q=${encodeURIComponent(unknownWords())}&${j}`, GZIP],
  ];
}

/**
 * The swarm: polite clients on distinct addresses, each one request per `everyMs` (2.1 s unless
 * said) to a random request of `mix`.
 */
export async function swarm(server: RunningServer, memory: Memory, mix: SwarmRequest[], everyMs = SWARM.everyMs) {
  const url = server.url;
  const next = random(99);
  const deadline = performance.now() + SWARM.seconds * 1000 - 200;
  const statuses = new Map<number, number>();
  const answered: number[] = [];
  let bytes = 0;
  const client = async (i: number) => {
    const address = `10.200.${i >> 8}.${i & 255}`;
    await Bun.sleep(next() * everyMs);
    while (performance.now() < deadline) {
      const started = performance.now();
      const junk = `junk${Math.floor(next() * 1e9)}=1`;
      const [path, headers, method, body] = mix[Math.floor(next() * mix.length)]!(junk, i);
      try {
        const res = await fetch(`${url}${path}`, {
          method: method ?? "GET",
          headers: { ...headers, "x-forwarded-for": address },
          body,
          decompress: false,
        });
        bytes += (await res.arrayBuffer()).byteLength;
        answered.push(performance.now() - started);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      await Bun.sleep(Math.max(0, everyMs - (performance.now() - started)));
    }
  };
  const probed = startProber(url, SWARM.probeEveryMs, SWARM.seconds);
  memory.resetPeak();
  const rssBefore = memory.rss();
  await Promise.all(Array.from({ length: SWARM.clients }, (_, i) => client(i)));
  const { latencies, failures } = await probed();
  const sorted = latencies.sort((a, b) => a - b);
  answered.sort((a, b) => a - b);
  return {
    /** The clients' requests, each to its last byte: p50 and p99, ms. */
    answerP50: percentile(answered, 50),
    answerP99: percentile(answered, 99),
    probes: sorted.length,
    failures,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    rssBefore,
    peakRssMb: memory.peak(),
    statuses: Object.fromEntries(statuses) as Record<string, number>,
    mb: bytes / 2 ** 20,
  };
}

export type SwarmResult = Awaited<ReturnType<typeof swarm>>;
