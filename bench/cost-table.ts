/** bench:cost's worst-case table: each expensive request cold and warm, its bytes, and what it did to RSS. */
import type { Memory } from "./cost-memory";
import { ask, catalogEtag, GZIP, PLAIN, type Sample, unknownWords } from "./cost-requests";
import type { RunningServer } from "./server";
import { median } from "./stats";

export interface CostRow {
  request: string;
  status: number;
  coldMs: number;
  warmMs: number;
  warmFirstMs: number;
  bytes: number;
  rssDeltaMb: number;
  peakDeltaMb: number;
}

/** `times`: the snapshots' times, oldest first, for `changes` a day and six hours back. */
export async function costTable(server: RunningServer, memory: Memory, times: string[]): Promise<CostRow[]> {
  const url = server.url;
  const oldest = times[0]!;
  const sixHours = times.at(-2)!;
  const rows: CostRow[] = [];
  const row = async (request: string, first: () => Promise<Sample>, again: () => Promise<Sample> = first) => {
    Bun.gc?.(false);
    const before = memory.rss();
    memory.resetPeak();
    const cold = await first();
    const after = memory.rss();
    const peak = memory.peak();
    const warm: Sample[] = [];
    for (let i = 0; i < 3; i++) warm.push(await again());
    rows.push({
      request,
      status: cold.status,
      coldMs: cold.ms,
      warmMs: median(warm.map((w) => w.ms)),
      warmFirstMs: median(warm.map((w) => w.firstMs)),
      bytes: cold.bytes,
      rssDeltaMb: after - before,
      peakDeltaMb: peak - before,
    });
  };
  await row("/openapi.json (first request after start)", () => ask(`${url}/openapi.json`, GZIP));
  await row("catalog.json gzip (first: waits for the snapshot's documents)", () =>
    ask(`${url}/market/v1/catalog.json`, GZIP),
  );
  await row("catalog.json without gzip", () => ask(`${url}/market/v1/catalog.json`, PLAIN));
  await row("catalog.json HEAD without gzip", () => ask(`${url}/market/v1/catalog.json`, PLAIN, "HEAD"));
  const etag = await catalogEtag(url);
  await row("catalog.json 304 without gzip", () =>
    ask(`${url}/market/v1/catalog.json`, { ...PLAIN, "if-none-match": etag }),
  );
  await row("catalog.json Range: last 1 MB, without gzip", () =>
    ask(`${url}/market/v1/catalog.json`, { ...PLAIN, range: "bytes=-1048576" }),
  );
  for (const [label, since] of [
    ["24 h", oldest],
    ["6 h", sixHours],
  ] as const) {
    const at = encodeURIComponent(since);
    await row(`changes since ${label} older, gzip`, () => ask(`${url}/market/v1/changes?since=${at}`, GZIP));
    await row(`changes since ${label} older, without gzip`, () => ask(`${url}/market/v1/changes?since=${at}`, PLAIN));
  }
  let junk = 0;
  await row(
    "changes since 24 h, a new junk parameter each time",
    () => ask(`${url}/market/v1/changes?since=${encodeURIComponent(oldest)}&x=${++junk}`, GZIP),
    () => ask(`${url}/market/v1/changes?x=${++junk}&since=${oldest.replaceAll(":", "%3A")}`, GZIP),
  );
  await row("categories?q=<four unknown words> (new words each time)", () =>
    ask(`${url}/api/v1/categories?q=${encodeURIComponent(unknownWords())}`, GZIP),
  );
  await row("plugins?q=<four unknown words> (new words each time)", () =>
    ask(`${url}/api/v1/plugins?q=${encodeURIComponent(unknownWords())}`, GZIP),
  );
  await row("plugins?q=mcp&sort=stars, a new junk parameter each time", () =>
    ask(`${url}/api/v1/plugins?q=mcp&sort=stars&x=${++junk}`, GZIP),
  );
  return rows;
}
