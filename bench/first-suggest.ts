/**
 * `bun bench/first-suggest.ts <snapshot.sqlite> [runs]`: what the first typeahead request costs on
 * a snapshot just swapped in, each run in a fresh process (so its peak RSS is its own): the request
 * that opens the snapshot, then the first suggestion, in process (`app.handle()`, no network).
 */
import { openSync } from "node:fs";
import { createApp } from "../src/app";
import { createLog } from "../src/base/log";
import { CatalogStore } from "../src/catalog/snapshot/store";
import { benchConfig, CLIENT_HEADERS } from "./scenarios";

const [path, runs] = [process.argv[2], Number(process.argv[3] ?? 0)];
if (!path) {
  console.error("usage: bun bench/first-suggest.ts <snapshot.sqlite> [runs]");
  process.exit(2);
}

if (runs > 0) {
  const results: Array<Record<string, number>> = [];
  for (let i = 0; i < runs; i++) {
    const child = Bun.spawn([process.execPath, import.meta.path, path], { stdout: "pipe", stderr: "inherit" });
    results.push(JSON.parse((await new Response(child.stdout).text()).trim()));
    await child.exited;
  }
  for (const r of results) console.log(JSON.stringify(r));
} else {
  const app = createApp({
    store: new CatalogStore(path, { log: () => {} }),
    config: benchConfig({ responseCacheBytes: 64 * 2 ** 20 }),
    log: createLog(openSync("/dev/null", "w")).log,
  });
  const ask = async (p: string) => {
    const response = await app.handle(new Request(`http://127.0.0.1${p}`, { headers: CLIENT_HEADERS }));
    if (response.status !== 200) throw new Error(`${p} answered ${response.status}`);
    await response.arrayBuffer();
  };
  const ms = (from: number) => (Bun.nanoseconds() - from) / 1e6;
  const t0 = Bun.nanoseconds();
  await ask("/api/v1/plugins");
  const openMs = ms(t0);
  const t1 = Bun.nanoseconds();
  await ask("/api/v1/suggest?q=a");
  const firstSuggestMs = ms(t1);
  const t2 = Bun.nanoseconds();
  await ask("/api/v1/suggest?q=mcp-s");
  const secondSuggestMs = ms(t2);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ openMs, firstSuggestMs, secondSuggestMs, peakRssMb }));
}
