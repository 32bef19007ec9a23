/**
 * `bun bench/list-sorts.ts [count] [rounds]`: every list sort side by side on one synthetic catalog
 * (100,000 plugins by default, synthetic.ts: three in five with a measured context cost), in
 * process (`app.handle()`, no network: the order, the page's rows, the rendering and the gzip).
 * The sort's share of the build (`sortAll`'s comparator over the catalog) is timed alone. Then, in
 * rounds that visit the sorts in turn (so they meet the same spells of a shared machine), each
 * sort answers uncached requests: random pages, pages under a category and `curated`, pages of a
 * search, and for `context` also `context_max`. Prints the median microseconds per request per sort.
 */
import { mkdirSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../src/app";
import { createLog } from "../src/base/log";
import { COMPARATORS, heat, type Ranked, SORTS, type Sort } from "../src/catalog/search/orders";
import { CatalogStore } from "../src/catalog/snapshot/store";
import { benchConfig, CLIENT_HEADERS } from "./scenarios";
import { random, syntheticInput } from "./synthetic";

const count = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 8);
const PER_ROUND = 40;
const path = join(import.meta.dir, "out", `list-sorts-${count}.sqlite`);

rmSync(path, { force: true });
mkdirSync(join(import.meta.dir, "out"), { recursive: true });
const build = Bun.spawnSync([process.execPath, join(import.meta.dir, "build-snapshot.ts"), String(count), path], {
  stderr: "inherit",
});
if (build.exitCode !== 0) throw new Error("building the snapshot failed");
console.log(`build: ${build.stdout.toString().trim()}`);

/** Each sort's comparator over the catalog, as the build sorts it once. */
function sortCosts(): Map<Sort, number> {
  const input = syntheticInput(count);
  const entries: Ranked[] = input.plugins.map((record) => ({
    record,
    heat: heat(record.stars, record.forks, record.pushed_at, input.snapshotAt),
    nameKey: record.name.toLowerCase(),
  }));
  const costs = new Map<Sort, number>();
  for (const sort of SORTS) {
    const start = Bun.nanoseconds();
    entries.slice().sort(COMPARATORS[sort]);
    costs.set(sort, (Bun.nanoseconds() - start) / 1e6);
  }
  return costs;
}

const store = new CatalogStore(path, { log: () => {} });
const app = createApp({
  store,
  config: benchConfig({ responseCacheBytes: 1024 }),
  log: createLog(openSync("/dev/null", "w")).log,
});
app.compile();
const next = random(7);
const categories = store.current()!.categoryIds;
const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
const words = ["mcp", "server", "skill", "git", "agent", "code", "data", "api", "claude", "tool"];

/** One uncached request's time, µs: a distinct junk parameter keeps the response cache out. */
let junk = 0;
async function timed(query: string): Promise<number> {
  const start = Bun.nanoseconds();
  const response = await app.handle(
    new Request(`http://localhost/api/v1/plugins?${query}&_=${++junk}`, { headers: CLIENT_HEADERS }),
  );
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${query}: ${response.status}`);
  return (Bun.nanoseconds() - start) / 1000;
}

const scenarios: Record<string, (sort: Sort) => string> = {
  "random pages": (sort) => `sort=${sort}&page=${1 + Math.floor(next() * 200)}`,
  "category+curated": (sort) => `sort=${sort}&category=${pick([...categories])}${pick(["", "&curated=1"])}`,
  "q, page 1-5": (sort) => `sort=${sort}&q=${pick(words)}&page=${1 + Math.floor(next() * 5)}`,
};
const times = new Map<string, number[]>();
const record = (key: string, us: number) => (times.get(key) ?? times.set(key, []).get(key)!).push(us);
for (let round = 0; round < rounds; round++) {
  for (const sort of SORTS) {
    for (const [name, query] of Object.entries(scenarios))
      for (let i = 0; i < PER_ROUND; i++) record(`${name}|${sort}`, await timed(query(sort)));
  }
  for (let i = 0; i < PER_ROUND; i++)
    record(
      "random pages|context, context_max",
      await timed(`sort=context&context_max=${pick(["500", "1000", "2000"])}&page=${1 + Math.floor(next() * 50)}`),
    );
}
const median = (list: number[]) => list.slice().sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const costs = sortCosts();
console.log(`${count} plugins, ${rounds} rounds × ${PER_ROUND} requests per cell; median µs per uncached request`);
console.log(["sort", "build sort ms", ...Object.keys(scenarios)].join("\t"));
for (const sort of SORTS)
  console.log(
    [
      sort,
      costs.get(sort)!.toFixed(0),
      ...Object.keys(scenarios).map((n) => median(times.get(`${n}|${sort}`)!).toFixed(0)),
    ].join("\t"),
  );
console.log(
  `context + context_max (random pages)\t\t${median(times.get("random pages|context, context_max")!).toFixed(0)}`,
);
store.close();
