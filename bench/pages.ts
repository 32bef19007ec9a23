/**
 * `bun run bench:pages`: what the pages, the feeds and the typeahead cost beside the JSON answers,
 * on the 100k snapshot the bench leaves in bench/out (run `bun run bench` once first), in process
 * (`app.handle()`, no network; pin it with `taskset -c 0`):
 * - the typeahead: what opening a snapshot and its first suggestion cost, and the worst uncached lookup;
 * - cached answers: a page beside the JSON it shows, taking turns round after round;
 * - cold answers: a search never asked before, as a page and as JSON, taking turns word by word.
 */
import { Database } from "bun:sqlite";
import { existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../src/app";
import { createLog } from "../src/base/log";
import { Snapshot } from "../src/catalog/snapshot/snapshot";
import { CatalogStore } from "../src/catalog/snapshot/store";
import { benchConfig, CLIENT_HEADERS } from "./scenarios";

const SNAPSHOT = join(import.meta.dir, "out", "synthetic-100000.sqlite");
const ROUNDS = 10;
const PER_ROUND = 20_000;

if (!existsSync(SNAPSHOT)) {
  console.error(`${SNAPSHOT} is missing: run \`bun run bench\` once first.`);
  process.exit(1);
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)]!;
const median = (values: number[]) => quantile(values, 0.5);
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

// The typeahead on a snapshot of its own: what opening it costs, then the worst uncached lookup.
{
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  const start = Bun.nanoseconds();
  const snapshot = Snapshot.open(SNAPSHOT);
  const first = snapshot.suggest("a").map((rowid) => snapshot.suggestItem(rowid));
  const firstMs = (Bun.nanoseconds() - start) / 1e6;
  Bun.gc(true);
  const after = process.memoryUsage().rss;
  const sizes = new Database(SNAPSHOT, { readonly: true });
  const keys = sizes.query<{ n: number }, []>("SELECT count(*) AS n FROM suggest_keys").get()!.n;
  const ranked = sizes.query<{ n: number }, []>("SELECT count(*) AS n FROM suggest_best").get()!.n;
  const sample = sizes.query<{ key: string }, []>("SELECT key FROM suggest_keys").all();
  sizes.close();
  console.log(
    `suggest: ${snapshot.stats.total} plugins, ${keys} keys, ${ranked} prefixes ranked at build time; ` +
      `open and first suggestion (${first.length} items) ${firstMs.toFixed(1)} ms, RSS +${mb(after - before)} MB (${mb(after)} MB in all)`,
  );
  const prefixes: string[] = [];
  for (const a of "abcdefghijklmnopqrstuvwxyz0123456789-") {
    prefixes.push(a);
    for (const b of "aeiourstnlm-") prefixes.push(a + b);
  }
  for (const { key } of sample.filter((_, i) => i % 1000 === 0))
    for (let n = 3; n <= 8; n++) prefixes.push(key.slice(0, n));
  const times: number[] = [];
  for (const prefix of prefixes) {
    const t0 = Bun.nanoseconds();
    for (const rowid of snapshot.suggest(prefix)) snapshot.suggestItem(rowid);
    times.push((Bun.nanoseconds() - t0) / 1e3);
  }
  console.log(
    `uncached suggestion (lookup and 10 rows) over ${prefixes.length} prefixes: median ${median(times).toFixed(1)} µs, ` +
      `p99 ${quantile(times, 0.99).toFixed(1)} µs, max ${Math.max(...times).toFixed(1)} µs`,
  );
  snapshot.close();
}

const store = new CatalogStore(SNAPSHOT, { log: () => {} });
const processLog = createLog(openSync("/dev/null", "w"));
const app = createApp({
  store,
  config: benchConfig({ responseCacheBytes: 64 * 2 ** 20 }),
  log: processLog.log,
});
app.compile();
const ask = async (path: string) => {
  const response = await app.handle(new Request(`http://127.0.0.1${path}`, { headers: CLIENT_HEADERS }));
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return response;
};

const db = new Database(SNAPSHOT, { readonly: true });
const top = db.query<{ id: string }, []>("SELECT id FROM plugins ORDER BY rowid LIMIT 1").get()!.id;
const category = (
  JSON.parse(
    db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'category_ids'").get()!.value,
  ) as string[]
)[0]!;
const words = db
  .query<{ term: string }, []>("SELECT term FROM terms WHERE length(term) BETWEEN 4 AND 9 ORDER BY term")
  .all()
  .map((row) => row.term)
  .filter((_, i) => i % 7 === 0)
  .slice(0, 300);
db.close();

const GROUPS: Array<[string, string[]]> = [
  ["search page 1", ["/api/v1/plugins?q=server", "/browse?q=server"]],
  ["category page 1", [`/api/v1/plugins?category=${category}`, `/categories/${category}`]],
  ["one plugin", [`/api/v1/plugins/${top}`, `/plugin/${top}`]],
  [
    "feeds",
    ["/plugins/feed.xml", "/plugins/feed.atom", "/plugins/feed.json", `/plugins/feed.json?category=${category}`],
  ],
  ["typeahead", ["/api/v1/plugins?q=mc", "/api/v1/suggest?q=mc"]],
];

console.log(`\ncached answers, ns per request (median of ${ROUNDS} rounds of ${PER_ROUND}, in turns):`);
for (const [label, paths] of GROUPS) {
  for (const path of paths) for (let i = 0; i < 2000; i++) await ask(path);
  const times = paths.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, path] of paths.entries()) {
      const url = `http://127.0.0.1${path}`;
      const start = Bun.nanoseconds();
      for (let i = 0; i < PER_ROUND; i++) app.handle(new Request(url, { headers: CLIENT_HEADERS }));
      times[k]!.push((Bun.nanoseconds() - start) / PER_ROUND);
    }
  }
  const first = median(times[0]!);
  const cells = paths.map(
    (path, k) => `${path} ${median(times[k]!).toFixed(0)} (${(median(times[k]!) / first).toFixed(2)}x)`,
  );
  console.log(`  ${label}: ${cells.join("; ")}`);
}

// Rendering alone: an app without a response cache renders every answer, the search's ranking kept.
{
  const bare = createApp({
    store: new CatalogStore(SNAPSHOT, { log: () => {} }),
    config: benchConfig({ responseCacheBytes: 0 }),
    log: processLog.log,
  });
  const pairs: Array<[string, string]> = [
    ["/api/v1/plugins?q=server", "/browse?q=server"],
    [`/api/v1/plugins?category=${category}`, `/categories/${category}`],
    [`/api/v1/plugins/${top}`, `/plugin/${top}`],
    ["/plugins/feed.xml", "/plugins/feed.atom"],
  ];
  console.log("\nrendered on every request (no response cache), µs per request (median of 9 rounds of 200, in turns):");
  for (const pair of pairs) {
    const times = pair.map((): number[] => []);
    for (let round = 0; round < 9; round++) {
      for (const [k, path] of pair.entries()) {
        const url = `http://127.0.0.1${path}`;
        const start = Bun.nanoseconds();
        for (let i = 0; i < 200; i++)
          await (await bare.handle(new Request(url, { headers: CLIENT_HEADERS }))).arrayBuffer();
        times[k]!.push((Bun.nanoseconds() - start) / 200 / 1e3);
      }
    }
    const [json, page] = times.map(median) as [number, number];
    console.log(`  ${pair[0]} ${json.toFixed(0)}; ${pair[1]} ${page.toFixed(0)} (${(page / json).toFixed(2)}x)`);
  }
}

console.log(`\ncold searches (${words.length} words never asked, page then JSON in turns), µs per request:`);
const cold = { page: [] as number[], json: [] as number[] };
for (const [i, word] of words.entries()) {
  const order: Array<["page" | "json", string]> = [
    ["page", `/browse?q=${word}`],
    ["json", `/api/v1/plugins?q=${word}`],
  ];
  if (i % 2 === 1) order.reverse();
  for (const [kind, path] of order) {
    const start = Bun.nanoseconds();
    await (await ask(path)).arrayBuffer();
    cold[kind].push((Bun.nanoseconds() - start) / 1e3);
  }
}
console.log(
  `  page median ${median(cold.page).toFixed(0)}, JSON median ${median(cold.json).toFixed(0)} ` +
    `(page / JSON ${(median(cold.page) / median(cold.json)).toFixed(2)}); p90 page ${quantile(cold.page, 0.9).toFixed(0)}, ` +
    `JSON ${quantile(cold.json, 0.9).toFixed(0)}; peak RSS ${mb(process.memoryUsage().rss)} MB`,
);
store.close();
process.exit(0);
