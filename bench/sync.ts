/**
 * The client-sync documents at catalog sizes: catalog.json's bytes (plain and gzip) and render time
 * per snapshot, and /market/v1/changes after a day of refreshes (four publishes, each changing a
 * share of the plugins as stars drift, adding, removing and renaming a few).
 * Usage: bun run bench:sync [count…] (default 10000 100000)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSnapshot } from "../src/catalog/build";
import { carryHistory } from "../src/catalog/history";
import { readPrevious } from "../src/catalog/previous";
import { Snapshot } from "../src/catalog/snapshot";
import type { PluginRecord } from "../src/catalog/types";
import { CACHE_CONTROL, JSON_TYPE } from "../src/http/cache";
import { gzipped, render } from "../src/http/render";
import { changesSince, wholeCatalog } from "../test/sync-oracle";
import { random, syntheticInput } from "./synthetic";

const HOUR = 3_600_000;
/** Per publish: the share of plugins whose stars move, and how many are added, removed, renamed. */
const DRIFT = 0.3;
const CHURN = 20;

function timed<T>(make: () => T): [T, number] {
  const start = performance.now();
  return [make(), performance.now() - start];
}

/** The next publish's records: stars drift, a few plugins come, go and are renamed. */
function nextRecords(records: PluginRecord[], step: number, snapshotAt: string, next: () => number) {
  const renamed: Array<{ from: string; to: string }> = [];
  const kept = records.slice(CHURN).map((r, i) => {
    if (i < CHURN) {
      const to = `${r.id}-v${step}`;
      renamed.push({ from: r.id, to });
      return { ...r, id: to, full_name: to, name: to.split("/")[1]!, previous_ids: [...r.previous_ids, r.id] };
    }
    return next() < DRIFT ? { ...r, stars: r.stars + 1 + Math.floor(next() * 5) } : r;
  });
  const added = records.slice(0, CHURN).map((r) => {
    const id = `${r.id}-new${step}`;
    return { ...r, id, full_name: id, name: id.split("/")[1]!, first_seen_at: snapshotAt, previous_ids: [] };
  });
  return { records: [...kept, ...added], renamed };
}

for (const count of (process.argv.slice(2).length ? process.argv.slice(2) : ["10000", "100000"]).map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), "bench-sync-"));
  try {
    const input = syntheticInput(count);
    const start = Date.parse(input.snapshotAt);
    let path = join(dir, "s0.sqlite");
    buildSnapshot(path, input);
    const first = input.snapshotAt;
    let records = input.plugins;
    const next = random(7);
    const publishStart = performance.now();
    for (let step = 1; step <= 4; step++) {
      const snapshotAt = new Date(start + step * 6 * HOUR).toISOString();
      const previous = readPrevious(path);
      const change = nextRecords(records, step, snapshotAt, next);
      records = change.records;
      const history = carryHistory(previous, records, change.renamed, snapshotAt);
      path = join(dir, `s${step}.sqlite`);
      buildSnapshot(path, { ...input, snapshotAt, plugins: records, history });
    }
    const publishMs = (performance.now() - publishStart) / 4;
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
