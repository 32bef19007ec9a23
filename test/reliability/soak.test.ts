/**
 * A bounded soak: the real entry point in a child process, many concurrent connections on
 * 127.0.0.1, while new snapshots are published over the database path again and again. Every
 * snapshot's data carries a marker derived from its snapshot time (descriptions, plugin count),
 * so a response mixing two snapshots cannot pass. Zero failed requests are allowed.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { markerOf, publishMarked, tempDir } from "./support/catalog";
import { ensureStopped, type Service, startService } from "./support/process";

const SOAK_MS = 12_000;
const CONNECTIONS = 64;
/** A new snapshot is published each time this many more requests have been answered. */
const SWAP_EVERY_REQUESTS = 200;
const BASE = Date.parse("2026-06-01T00:00:00.000Z");

/** Each snapshot's plugin count follows from its time, so totals are checked too. */
const countFor = (snapshotAt: string) => 20 + (Date.parse(snapshotAt) % 7);

let service: Service | undefined;
const made = tempDir();
afterAll(async () => {
  await ensureStopped(service);
  made.cleanup();
});

function publish(path: string, n: number): string {
  const snapshotAt = new Date(BASE + n).toISOString();
  return publishMarked(path, snapshotAt, countFor(snapshotAt));
}

/** The problems with one response, or [] when it is whole and from one snapshot. */
async function problems(path: string, response: Response, seen: Set<string>): Promise<string[]> {
  if (response.status === 304) return [];
  if (response.status !== 200) return [`${path}: status ${response.status}: ${(await response.text()).slice(0, 200)}`];
  const text = await response.text();
  if (path.startsWith("/plugins/feed.xml")) {
    const markers = new Set([...text.matchAll(/snapshot (\d{4}-[\d:T.-]+Z)/g)].map((m) => m[1]!));
    const built = /<lastBuildDate>([^<]+)<\/lastBuildDate>/.exec(text)?.[1];
    const [only] = markers;
    if (markers.size !== 1 || !built || Math.floor(Date.parse(only!) / 1000) !== Date.parse(built) / 1000) {
      return [`${path}: feed built ${built} holds items of ${[...markers].join(", ")}`];
    }
    seen.add(only!);
    return [];
  }
  const body = JSON.parse(text);
  if (path.startsWith("/market/manifest.json")) {
    seen.add(body.snapshotAt);
    return body.stats.total === countFor(body.snapshotAt)
      ? []
      : [`${path}: total ${body.stats.total} for ${body.snapshotAt}`];
  }
  const data = body.data ?? body;
  seen.add(data.generatedAt);
  const plugins = data.plugin ? [data.plugin] : data.items;
  const wrong = plugins.filter((p: { description: string }) => !p.description.startsWith(markerOf(data.generatedAt)));
  if (wrong.length) return [`${path}: generatedAt ${data.generatedAt} but ${wrong[0].description}`];
  const unfiltered = path.startsWith("/api/v1/plugins?page=") || path.startsWith("/market/v1/plugins");
  if (unfiltered && data.total !== countFor(data.generatedAt)) {
    return [`${path}: total ${data.total} for ${data.generatedAt}`];
  }
  return [];
}

const PATHS = [
  () => `/api/v1/plugins?page=${1 + Math.floor(Math.random() * 3)}&pageSize=${1 + Math.floor(Math.random() * 12)}`,
  () => `/api/v1/plugins?q=tool&sort=${["default", "stars", "heat", "name"][Math.floor(Math.random() * 4)]}`,
  () => `/api/v1/plugins?category=mcp&curated=1`,
  () =>
    `/api/v1/plugins/owner${1 + Math.floor(Math.random() * 19)}/repo-${1 + Math.floor(Math.random() * 19)}`.replace(
      /owner(\d+)\/repo-\d+/,
      "owner$1/repo-$1",
    ),
  () => `/market/v1/plugins?pageSize=${5 + Math.floor(Math.random() * 30)}`,
  () => "/market/manifest.json",
  () => "/plugins/feed.xml",
];

test(
  `soak: ${CONNECTIONS} connections for ${SOAK_MS / 1000} s while a snapshot is swapped in every ${SWAP_EVERY_REQUESTS} requests`,
  async () => {
    const path = join(made.dir, "catalog.sqlite");
    publish(path, 0);
    service = await startService({ DATABASE_PATH: path, RATE_LIMIT_WINDOW_MS: "0" });
    const url = service.url;
    const failures: string[] = [];
    const seen = new Set<string>();
    const etags = new Map<string, string>();
    let requests = 0;
    let swaps = 0;
    const until = performance.now() + SOAK_MS;

    // Swaps are counted in answers, not in wall time, so a busy machine gives the same test.
    const answered = () => {
      if (++requests % SWAP_EVERY_REQUESTS === 0) publish(path, ++swaps * 1000 + Math.floor(Math.random() * 7));
    };
    const worker = async () => {
      while (performance.now() < until) {
        const target = PATHS[Math.floor(Math.random() * PATHS.length)]!();
        const headers: Record<string, string> = {};
        // Revalidate now and then: a 304 is a success, and must never hide a swapped snapshot.
        if (Math.random() < 0.2 && etags.has(target)) headers["If-None-Match"] = etags.get(target)!;
        try {
          const response = await fetch(url + target, { headers });
          answered();
          const etag = response.headers.get("etag");
          if (etag) etags.set(target, etag);
          failures.push(...(await problems(target, response, seen)));
        } catch (error) {
          answered();
          failures.push(`${target}: ${(error as Error).message}`);
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `soak: ${requests} requests in ${seconds.toFixed(1)} s (${Math.round(requests / seconds)}/s), ${swaps} swaps, ${seen.size} snapshots served, ${failures.length} failures`,
    );

    expect(failures.slice(0, 5)).toEqual([]);
    expect(failures).toHaveLength(0);
    expect(requests).toBeGreaterThan(1000);
    expect(seen.size).toBeGreaterThan(swaps / 4);
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  },
  SOAK_MS + 20_000,
);
