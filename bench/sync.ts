/**
 * The client-sync documents at catalog sizes: catalog.json's bytes (plain and gzip) and render time
 * per snapshot, and /market/v1/changes after a day of refreshes (four publishes, each changing a
 * share of the plugins as stars drift, adding, removing and renaming a few).
 * Usage: bun run bench:sync [count…] (default 10000 100000)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Snapshot } from "../src/catalog/snapshot/snapshot";
import { CACHE_CONTROL, JSON_TYPE } from "../src/http/cache";
import { gzipped, render } from "../src/http/render";
import { changesSince, wholeCatalog } from "../test/sync-oracle";
import { buildHistory, syntheticInput } from "./synthetic";

function timed<T>(make: () => T): [T, number] {
  const start = performance.now();
  return [make(), performance.now() - start];
}

for (const count of (process.argv.slice(2).length ? process.argv.slice(2) : ["10000", "100000"]).map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), "bench-sync-"));
  try {
    const input = syntheticInput(count);
    const path = join(dir, "catalog.sqlite");
    const { times, publishMs } = buildHistory(path, input, 4);
    const first = times[0]!;
    const snapshot = Snapshot.open(path);
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    const [plain, renderMs] = timed(() => render(wholeCatalog(snapshot), JSON_TYPE, CACHE_CONTROL));
    const [gzip, gzipMs] = timed(() => gzipped(plain));
    const renderRssMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    const [changes, changesMs] = timed(() => changesSince(snapshot, first)!);
    const changesBytes = changes.added.join(",").length + changes.updated.join(",").length;
    console.log(
      `${count} plugins: catalog.json ${(plain.body.byteLength / 2 ** 20).toFixed(1)} MB plain, ` +
        `${(gzip.body.byteLength / 2 ** 20).toFixed(1)} MB gzip; render ${renderMs.toFixed(0)} ms + gzip ` +
        `${gzipMs.toFixed(0)} ms per snapshot, RSS +${renderRssMb.toFixed(0)} MB while rendering | changes over a day (4 publishes): ${changes.added.length} added, ` +
        `${changes.updated.length} updated, ${changes.removed.length} removed, ${changes.renamed.length} renamed, ` +
        `${(changesBytes / 2 ** 20).toFixed(1)} MB of records, ${changesMs.toFixed(0)} ms | build with history ` +
        `${publishMs.toFixed(0)} ms per publish`,
    );
    snapshot.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
