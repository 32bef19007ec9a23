/**
 * `bun run bench:inprocess [path] [tree…]`: what one cached request costs the application itself,
 * without the network: `app.handle()` on a new Request, in a loop, in nanoseconds (the Request's
 * own construction included). Far quieter than a wrk run, so it resolves changes of a few
 * hundred nanoseconds that HTTP runs on a shared machine cannot. With source trees given (say a
 * `git worktree` of another commit, under this repository so it finds node_modules), each builds
 * its own app and they take turns, round after round, each round starting one tree further on (so
 * no tree always runs first), and each tree's time over the first tree's in the same round is
 * given too: the median and range of those ratios. Uses the 100k snapshot the bench left in
 * bench/out (run `bun run bench` once first); pin it to a CPU (`taskset -c 0`) for steadier figures.
 * With `LIMITER=on` in the environment the limiter runs (2 s window, TRUST_PROXY) and every request
 * carries a new `X-Forwarded-For`: its full work on each.
 */
import { existsSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import { benchConfig, CLIENT_HEADERS } from "./scenarios";

const ROOT = join(import.meta.dir, "..");
const SNAPSHOT = join(import.meta.dir, "out", "synthetic-100000.sqlite");
const ROUNDS = 12;
const PER_ROUND = 30_000;
const WARM_UP = 20_000;

const [path = "/api/v1/plugins", ...others] = process.argv.slice(2);
const trees = [ROOT, ...others.map((tree) => resolve(tree))];

if (!existsSync(SNAPSHOT)) {
  console.error(`${SNAPSHOT} is missing: run \`bun run bench\` once first.`);
  process.exit(1);
}

interface Handler {
  handle(request: Request): Response | Promise<Response>;
}

const limiter = process.env.LIMITER === "on";

/** The tree's app over the snapshot, its log written to /dev/null. */
async function appOf(tree: string): Promise<Handler> {
  const { createApp } = await import(join(tree, "src/app.ts"));
  const { CatalogStore } = await import(join(tree, "src/catalog/snapshot/store.ts"));
  const { createLog } = await import(join(tree, "src/base/log.ts"));
  const processLog = createLog(openSync("/dev/null", "w"));
  const cacheBytes = 16 * 1024 * 1024;
  // Trees before the plain response cache took its budget in the store, and the request log's
  // byte writer as `lines`; later ones ignore both.
  const store = new CatalogStore(SNAPSHOT, { cacheBytes, log: () => {} });
  const config = benchConfig({
    rateLimitWindowMs: limiter ? 2000 : 0,
    // One trusted proxy: a number here, truthy for trees that took a boolean.
    trustProxy: limiter ? 1 : 0,
    responseCacheBytes: cacheBytes,
  });
  const app = createApp({ store, config, log: processLog.log, lines: processLog.lines });
  app.compile();
  return app as Handler;
}

const url = `http://127.0.0.1${path}`;
let client = 0;
const request = limiter
  ? () => {
      client++;
      const forwarded = `10.${(client >>> 16) & 255}.${(client >>> 8) & 255}.${client & 255}`;
      return new Request(url, { headers: { ...CLIENT_HEADERS, "X-Forwarded-For": forwarded } });
    }
  : () => new Request(url, { headers: CLIENT_HEADERS });
const apps = await Promise.all(trees.map(appOf));
for (const app of apps) {
  for (let i = 0; i < WARM_UP; i++) {
    const response = await app.handle(request());
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  }
}
const times = apps.map((): number[] => []);
for (let round = 0; round < ROUNDS; round++) {
  for (let turn = 0; turn < apps.length; turn++) {
    const k = (round + turn) % apps.length;
    const app = apps[k]!;
    const start = Bun.nanoseconds();
    for (let i = 0; i < PER_ROUND; i++) app.handle(request());
    times[k]!.push((Bun.nanoseconds() - start) / PER_ROUND);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const [k, tree] of trees.entries()) {
  const own = times[k]!;
  const ratios = own.map((ns, round) => ns / times[0]![round]!);
  const over =
    k === 0
      ? ""
      : `; over the first ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`;
  console.log(
    `${path} ${tree}: least ${Math.min(...own).toFixed(0)} ns, median ${median(own).toFixed(0)} ns per request over ${ROUNDS} rounds of ${PER_ROUND}${over}`,
  );
}
