/**
 * `bun run bench:search [count] [tree…]`: cold searches on a synthetic catalog (100,000 plugins
 * by default, real vocabulary: synthetic.ts), this checkout against other checkouts side by side
 * in one process. Each tree builds its own snapshot with its own builder in a child process (time,
 * peak RSS, file size), then serves it through its own app (`app.handle()`, no network: the
 * search, the rendering and the gzip, not the socket). Every query is sent once to each tree, in
 * batches that alternate between the trees, so both meet the same spells of a shared machine.
 * Scenarios: distinct real words, pairs of them, owners typed alone (the owner rule), a word with
 * two letters swapped (edit distance), a word three edits off (the trigram fallback), and strings
 * matching no word at all (every step of a correction, then nothing). `VOCABULARY=realistic` builds
 * synthetic.ts's realistic vocabulary (hundreds of thousands of index terms) in every tree.
 */
import { Database } from "bun:sqlite";
import { openSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { benchConfig, CLIENT_HEADERS } from "./scenarios";
import { loadRealFacts, random } from "./synthetic";
import { shuffle, vocabulary } from "./vocabulary";

const ROOT = join(import.meta.dir, "..");
const OUT = join(import.meta.dir, "out");
const BATCH = 25;
const PER_SCENARIO = 600;

const [countArg = "100000", ...others] = process.argv.slice(2);
const count = Number(countArg);
const trees = [ROOT, ...others.map((tree) => resolve(tree))];

interface Handler {
  handle(request: Request): Response | Promise<Response>;
}

async function build(tree: string, index: number): Promise<{ path: string; line: string }> {
  const path = join(
    OUT,
    `search-${index}-${count}${process.env.VOCABULARY ? `-${process.env.VOCABULARY}` : ""}.sqlite`,
  );
  const child = Bun.spawn([process.execPath, join(tree, "bench", "build-snapshot.ts"), String(count), path], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`building in ${tree} failed`);
  const { buildMs, peakRssMb } = JSON.parse(out.trim().split("\n").pop()!) as { buildMs: number; peakRssMb: number };
  const mb = statSync(path).size / 2 ** 20;
  return {
    path,
    line: `build ${(buildMs / 1000).toFixed(2)} s, peak RSS ${peakRssMb.toFixed(0)} MB, file ${mb.toFixed(0)} MB`,
  };
}

async function appOf(tree: string, path: string): Promise<Handler> {
  const { createApp } = await import(join(tree, "src/app.ts"));
  const { CatalogStore } = await import(join(tree, "src/catalog/snapshot/store.ts"));
  const { createLog } = await import(join(tree, "src/base/log.ts"));
  const processLog = createLog(openSync("/dev/null", "w"));
  const store = new CatalogStore(path, { log: () => {} });
  const config = benchConfig({ responseCacheBytes: 16 * 2 ** 20 });
  const app = createApp({ store, config, log: processLog.log });
  app.compile();
  return app as Handler;
}

/** The queries of each scenario: every one distinct, none an index term where it must not be. */
function scenarios(path: string): Map<string, string[]> {
  const next = random(11);
  const words = vocabulary(loadRealFacts().facts).words.filter((w) => /^[a-z]+$/.test(w));
  const db = new Database(path, { readonly: true });
  const terms = new Set(
    db
      .query<{ term: string }, []>(`SELECT term FROM terms`)
      .all()
      .map((r) => r.term),
  );
  const owners = db
    .query<{ owner: string }, []>(`SELECT DISTINCT substr(id, 1, instr(id, '/') - 1) AS owner FROM plugins`)
    .all()
    .map((r) => r.owner);
  db.close();
  const sorted = [...terms].sort();
  // No index term starts with `word`: a binary search for the first term not below it.
  const unknown = (word: string) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! < word) low = mid + 1;
      else high = mid;
    }
    return !(sorted[low]?.startsWith(word) ?? false);
  };
  const long = shuffle(
    words.filter((w) => w.length >= 6),
    next,
  );
  const swapped = long
    .map((w) => `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}`)
    .filter((w) => !terms.has(w))
    .slice(0, PER_SCENARIO * 3)
    .filter(unknown);
  const threeOff = long
    .slice(PER_SCENARIO * 2)
    .map((w) => `${w.slice(0, -2)}qxz`)
    .slice(0, PER_SCENARIO * 3)
    .filter(unknown);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const nonsense = Array.from({ length: PER_SCENARIO }, () =>
    Array.from({ length: 9 }, () => letters[Math.floor(next() * 26)]).join(""),
  ).filter(unknown);
  const top = words.slice(0, 60);
  const pairs = shuffle(
    top.flatMap((a) => top.filter((b) => b > a).map((b) => `${a} ${b}`)),
    next,
  );
  return new Map([
    ["distinct words", shuffle(words, next).slice(0, PER_SCENARIO)],
    ["word pairs", pairs.slice(0, PER_SCENARIO)],
    ["owners", shuffle(owners, next).slice(0, PER_SCENARIO)],
    ["two letters swapped", swapped.slice(0, PER_SCENARIO)],
    ["three edits off", threeOff.slice(0, PER_SCENARIO)],
    ["no word near", nonsense],
  ]);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const built: Array<{ path: string; line: string }> = [];
for (const [i, tree] of trees.entries()) built.push(await build(tree, i));
const apps = await Promise.all(trees.map((tree, i) => appOf(tree, built[i]!.path)));
const cases = scenarios(built[0]!.path);
// Warm-up: the code paths compiled, the files' pages read once; these queries are not measured.
for (const app of apps) {
  for (const q of ["mcp", "server agent", "playwrite", "postgress", "qqqqzzzz", "synthetic-0", "claude code"]) {
    for (let i = 0; i < 20; i++) {
      const response = await app.handle(new Request(`http://localhost/api/v1/plugins?page=${i + 1}&q=${q}`));
      await response.arrayBuffer();
    }
  }
}
console.log(
  `${new Date().toISOString()} · ${count} plugins · ${trees.length} trees in turns, batches of ${BATCH} distinct queries, each query once per tree (app.handle, in process)`,
);
for (const [i, tree] of trees.entries()) console.log(`tree ${i}: ${tree}: ${built[i]!.line}`);
for (const [name, queries] of cases) {
  const times = apps.map((): number[] => []);
  const answered = apps.map(() => 0);
  for (let start = 0; start < queries.length; start += BATCH) {
    const batch = queries.slice(start, start + BATCH);
    for (const [k, app] of apps.entries()) {
      for (const q of batch) {
        const request = new Request(`http://localhost/api/v1/plugins?q=${encodeURIComponent(q)}`, {
          headers: CLIENT_HEADERS,
        });
        const began = Bun.nanoseconds();
        const response = await app.handle(request);
        await response.arrayBuffer();
        times[k]!.push((Bun.nanoseconds() - began) / 1e6);
        if (response.headers.get("x-search-corrected") !== null) answered[k]!++;
        if (response.status !== 200) throw new Error(`${q}: ${response.status}`);
      }
    }
  }
  for (const [k] of trees.entries()) {
    const sorted = times[k]!.sort((a, b) => a - b);
    const corrected = name.includes("word") && !name.includes("near") ? "" : `, corrected ${answered[k]}`;
    console.log(
      `${name.padEnd(20)} tree ${k}: n ${sorted.length}, p50 ${quantile(sorted, 0.5).toFixed(2)} ms, p99 ${quantile(sorted, 0.99).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms${corrected}`,
    );
  }
}
console.log(`RSS at the end (both trees' apps): ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);

// This tree's correction step alone, on its own snapshot: what a word that matches nothing adds.
const { Vocabulary } = await import(join(ROOT, "src/catalog/search/vocabulary.ts"));
const db = new Database(built[0]!.path, { readonly: true });
const blob = (key: string) =>
  db.query<{ ids: Uint8Array }, [string]>(`SELECT ids FROM orders WHERE key = ?`).get(key)?.ids;
const text = blob("vocabulary");
const index = blob("trigrams");
if (text && index) {
  let began = Bun.nanoseconds();
  const words = Vocabulary.decode(text, index);
  const decodeMs = (Bun.nanoseconds() - began) / 1e6;
  const typos = [...cases.get("two letters swapped")!, ...cases.get("three edits off")!, ...cases.get("no word near")!];
  const times = typos.map((word) => {
    began = Bun.nanoseconds();
    words.nearest(word, 3);
    return (Bun.nanoseconds() - began) / 1e6;
  });
  times.sort((a, b) => a - b);
  console.log(
    `vocabulary: ${words.words.length} words, ${(text.byteLength / 2 ** 20).toFixed(1)} MB + index ${(index.byteLength / 2 ** 20).toFixed(1)} MB, decoded in ${decodeMs.toFixed(1)} ms; nearest() over ${times.length} typos: p50 ${quantile(times, 0.5).toFixed(3)} ms, p99 ${quantile(times, 0.99).toFixed(3)} ms, max ${times.at(-1)!.toFixed(3)} ms`,
  );
}
db.close();
