/**
 * What one admitted request can cost at catalog scale: a worst-case table per endpoint (cold and
 * warm time, bytes, RSS) and a swarm of polite clients on expensive endpoints while a prober asks
 * /healthz, on a synthetic catalog with a realistic vocabulary and a day of history.
 * Usage: bun run bench:cost [count] [SOURCE_TREE=<dir>…]   (count: 100000 by default; each
 * SOURCE_TREE runs that checkout's service too, one after another in the same run, for ratios)
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { writeAtomically } from "../src/base/atomic-write";
import { median } from "./measure";
import { freePort, type RunningServer, startService } from "./server";
import { buildHistory, random, syntheticInput } from "./synthetic";

/** Publishes after the first, six hours apart: a day of history. */
const PUBLISHES = 4;
const SWARM = { clients: 40, everyMs: 2100, seconds: 20, probeEveryMs: 100 };
const TARGETS = { healthP99: 50, healthMax: 200, peakRssMb: 512, revalidateMs: 20, changesWarmMs: 100 };
const TARGETS_MORE = { categoriesMs: 300, openapiColdMs: 300 };
const OUT = join(import.meta.dir, "out", "cost");
const ROOT = join(import.meta.dir, "..");

const args = process.argv.slice(2);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const trees: Array<[string, string]> = [
  ...args.filter((a) => a.startsWith("SOURCE_TREE=")).map((a): [string, string] => [a.slice(12), a.slice(12)]),
  ["this tree", ROOT],
];

/** The last snapshot of a day of publishes and the snapshot times, built once and kept in bench/out/cost. */
function historyFile(): { path: string; times: string[] } {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `catalog-${count}.sqlite`);
  const about = join(OUT, `catalog-${count}.json`);
  const version = "realistic-2";
  if (existsSync(path) && existsSync(about)) {
    const known = JSON.parse(readFileSync(about, "utf8")) as { version: string; times: string[] };
    if (known.version === version) return { path, times: known.times };
  }
  const input = syntheticInput(count, 42, { vocabulary: "realistic" });
  const started = performance.now();
  const { times } = writeAtomically(path, (building) => buildHistory(building, input, PUBLISHES));
  writeFileSync(about, JSON.stringify({ version, times }));
  console.log(
    `built ${count} plugins, ${PUBLISHES + 1} publishes in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { path, times };
}

/** The highest peak RSS read so far in the service's run, across the windows `resetPeak` starts. */
let highestPeak = 0;

function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? Number.NaN) / 1024;
  if (field === "VmHWM") highestPeak = Math.max(highestPeak, mb);
  return mb;
}

/** Starts a new peak-RSS window of the process (Linux: clear_refs 5 resets VmHWM). */
function resetPeak(pid: number): void {
  status(pid, "VmHWM");
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // Not allowed here: the peak then runs from the start.
  }
}

let address = 0;
/** A distinct client address per request (the service trusts X-Forwarded-For in the bench). */
function nextAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

interface Sample {
  ms: number;
  /** Until the status and headers arrived: the server's own time before it sends. */
  firstMs: number;
  bytes: number;
  status: number;
}

async function ask(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: { "x-forwarded-for": nextAddress(), ...headers },
    decompress: false,
  });
  const firstMs = performance.now() - started;
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, firstMs, bytes, status: res.status };
}

interface Row {
  request: string;
  status: number;
  coldMs: number;
  warmMs: number;
  warmFirstMs: number;
  bytes: number;
  rssDeltaMb: number;
  peakDeltaMb: number;
}

const GZIP = { "accept-encoding": "gzip" };
const PLAIN = { "accept-encoding": "identity" };

/** Four words no plugin has, fresh for each call: a search that every category must correct. */
let unknown = 0;
function unknownWords(): string {
  unknown++;
  return ["zqvx", "blorptan", "qwyxel", "vortrunk"].map((w) => `${w}${unknown}`).join(" ");
}

async function table(server: RunningServer, times: string[]): Promise<Row[]> {
  const url = server.url;
  const oldest = times[0]!;
  const sixHours = times.at(-2)!;
  const rows: Row[] = [];
  const row = async (request: string, first: () => Promise<Sample>, again: () => Promise<Sample> = first) => {
    Bun.gc?.(false);
    const before = status(server.pid, "VmRSS");
    resetPeak(server.pid);
    const cold = await first();
    const after = status(server.pid, "VmRSS");
    const peak = status(server.pid, "VmHWM");
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
  const etag = (await fetch(`${url}/market/v1/catalog.json`, { method: "HEAD", headers: PLAIN })).headers.get("etag")!;
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

/** Connections that ask for catalog.json without gzip and never read: what the server holds for them. */
async function neverReading(server: RunningServer, connections: number): Promise<{ before: number; after: number }> {
  const port = Number(new URL(server.url).port);
  const before = status(server.pid, "VmRSS");
  const sockets = Array.from({ length: connections }, () => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write(
      `GET /market/v1/catalog.json HTTP/1.1\r\nHost: bench\r\nAccept-Encoding: identity\r\nX-Forwarded-For: ${nextAddress()}\r\n\r\n`,
    );
    socket.pause();
    return socket;
  });
  await Bun.sleep(5000);
  const after = status(server.pid, "VmRSS");
  for (const socket of sockets) socket.destroy();
  await Bun.sleep(500);
  return { before, after };
}

/**
 * Twenty concurrent requests right after the snapshot file is replaced (a swap): the slowest, and
 * the peak RSS; then how long until the new snapshot serves (its `snapshot.loaded` line), so what
 * follows does not overlap the work of the swap.
 */
async function afterSwap(server: RunningServer, path: string, times: string[], logPath: string) {
  const loaded = () => readFileSync(logPath, "utf8").split('"snapshot.loaded"').length;
  const loadedBefore = loaded();
  copyFileSync(path, `${path}.swap`);
  const replaced = performance.now();
  renameSync(`${path}.swap`, path);
  await Bun.sleep(1200);
  resetPeak(server.pid);
  const before = status(server.pid, "VmRSS");
  const urls = [
    "/market/v1/catalog.json",
    `/market/v1/changes?since=${encodeURIComponent(times[0]!)}`,
    "/openapi.json",
    `/api/v1/categories?q=${encodeURIComponent(unknownWords())}`,
  ];
  const started = performance.now();
  const samples = await Promise.all(
    Array.from({ length: 20 }, (_, i) => ask(`${server.url}${urls[i % urls.length]}`, i % 2 ? GZIP : PLAIN)),
  );
  const allMs = performance.now() - started;
  const slowestMs = Math.max(...samples.map((s) => s.ms));
  while (loaded() === loadedBefore && performance.now() - replaced < 120_000) await Bun.sleep(100);
  return {
    slowestMs,
    allMs,
    servedAfterMs: performance.now() - replaced,
    peakDeltaMb: status(server.pid, "VmHWM") - before,
  };
}

/** The prober alone for `seconds`, no clients: what /healthz costs on this machine right now. */
async function probeIdle(server: RunningServer, seconds: number) {
  const cpus = navigator.hardwareConcurrency ?? 1;
  const pinned = cpus > 1 ? ["taskset", "-c", String(cpus - 1)] : [];
  const command = [process.execPath, join(import.meta.dir, "prober.ts"), server.url, String(SWARM.probeEveryMs)];
  const prober = Bun.spawn([...pinned, ...command, String(seconds)], { stdout: "pipe", stderr: "inherit" });
  const { latencies } = JSON.parse((await new Response(prober.stdout).text()).trim()) as { latencies: number[] };
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, probes: sorted.length };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The swarm: polite clients on distinct addresses, each one request per 2.1 s to an expensive endpoint. */
async function swarm(server: RunningServer, times: string[]) {
  const url = server.url;
  const etag = (await fetch(`${url}/market/v1/catalog.json`, { method: "HEAD", headers: PLAIN })).headers.get("etag")!;
  const expensive: Array<(junk: string) => [string, Record<string, string>, string?]> = [
    (j) => [`/market/v1/changes?since=${encodeURIComponent(times[0]!)}&${j}`, PLAIN],
    (j) => [`/market/v1/changes?since=${encodeURIComponent(times.at(-2)!)}&${j}`, GZIP],
    (j) => [`/market/v1/catalog.json?${j}`, PLAIN],
    (j) => [`/market/v1/catalog.json?${j}`, PLAIN, "HEAD"],
    (j) => [`/market/v1/catalog.json?${j}`, { ...PLAIN, "if-none-match": etag }],
    (j) => [`/api/v1/categories?q=${encodeURIComponent(unknownWords())}&${j}`, GZIP],
    (j) => [`/openapi.json?${j}`, GZIP],
    (j) => [`/api/v1/plugins?q=mcp&${j}`, GZIP],
  ];
  const next = random(99);
  const deadline = performance.now() + SWARM.seconds * 1000 - 200;
  const statuses = new Map<number, number>();
  let bytes = 0;
  const client = async (i: number) => {
    const address = `10.200.${i >> 8}.${i & 255}`;
    await Bun.sleep(next() * SWARM.everyMs);
    while (performance.now() < deadline) {
      const started = performance.now();
      const [path, headers, method] = expensive[Math.floor(next() * expensive.length)]!(
        `junk${Math.floor(next() * 1e9)}=1`,
      );
      try {
        const res = await fetch(`${url}${path}`, {
          method: method ?? "GET",
          headers: { ...headers, "x-forwarded-for": address },
          decompress: false,
        });
        bytes += (await res.arrayBuffer()).byteLength;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      await Bun.sleep(Math.max(0, SWARM.everyMs - (performance.now() - started)));
    }
  };
  const probeCommand = [process.execPath, join(import.meta.dir, "prober.ts"), url, String(SWARM.probeEveryMs)];
  const cpus = navigator.hardwareConcurrency ?? 1;
  const pinned = cpus > 1 ? ["taskset", "-c", String(cpus - 1)] : [];
  const prober = Bun.spawn([...pinned, ...probeCommand, String(SWARM.seconds)], { stdout: "pipe", stderr: "inherit" });
  resetPeak(server.pid);
  const rssBefore = status(server.pid, "VmRSS");
  await Promise.all(Array.from({ length: SWARM.clients }, (_, i) => client(i)));
  const probed = JSON.parse((await new Response(prober.stdout).text()).trim()) as {
    latencies: number[];
    failures: number;
  };
  const sorted = probed.latencies.sort((a, b) => a - b);
  return {
    probes: sorted.length,
    failures: probed.failures,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    rssBefore,
    peakRssMb: status(server.pid, "VmHWM"),
    statuses: Object.fromEntries(statuses),
    mb: bytes / 2 ** 20,
  };
}

const f = (n: number, digits = 0) => n.toFixed(digits);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(n < 2 ** 20 ? 3 : 1)} MB`;

const { path, times } = historyFile();
const cpus = navigator.hardwareConcurrency ?? 1;
console.log(
  `bench:cost: ${count} plugins (realistic vocabulary), ${times.length} snapshots 6 h apart; ${cpus} CPUs, ` +
    `the server pinned to CPU 0${cpus > 1 ? ", clients on the others" : ""}; a shared, noisy machine.`,
);
for (const [label, tree] of trees) {
  const db = join(OUT, `serve-${count}.sqlite`);
  copyFileSync(path, db);
  const logPath = join(OUT, "server.log");
  highestPeak = 0;
  const server = await startService(
    db,
    await freePort(),
    cpus > 1 ? 0 : null,
    { RATE_LIMIT_WINDOW_MS: "2000", TRUST_PROXY: "true", SOURCE_TREE: tree },
    logPath,
  );
  try {
    console.log(`\n## ${label}\n`);
    const startRss = status(server.pid, "VmRSS");
    const rows = await table(server, times);
    console.log(
      "| request | status | cold ms | warm ms (median of 3) | warm, first byte | bytes | RSS delta | peak delta |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(
        `| ${r.request} | ${r.status} | ${f(r.coldMs)} | ${f(r.warmMs, 1)} | ${f(r.warmFirstMs, 1)} | ${mb(r.bytes)} | ${f(r.rssDeltaMb)} MB | ${f(r.peakDeltaMb)} MB |`,
      );
    }
    const idle = await neverReading(server, 30);
    console.log(
      `\n30 connections asking catalog.json without gzip, never reading: RSS ${f(idle.before)} -> ${f(idle.after)} MB`,
    );
    const swap = await afterSwap(server, db, times, logPath);
    console.log(
      `20 concurrent requests right after a swap: slowest ${f(swap.slowestMs)} ms, peak RSS +${f(swap.peakDeltaMb)} MB ` +
        `until the new snapshot served, ${f(swap.servedAfterMs / 1000, 1)} s after the file was replaced`,
    );
    const alone = await probeIdle(server, 10);
    console.log(
      `/healthz alone, no clients, 10 s (the machine's own noise): p50 ${f(alone.p50, 1)} ms, p99 ${f(alone.p99, 1)} ms, ` +
        `max ${f(alone.max, 1)} ms over ${alone.probes} probes`,
    );
    const logged = readFileSync(logPath, "utf8").length;
    const s = await swarm(server, times);
    const slow = readFileSync(logPath, "utf8")
      .slice(logged)
      .split("\n")
      .filter((line) => line.includes('"request.slow"'))
      .map((line) => JSON.parse(line) as { route: string; durationMs: number });
    const slowest = slow.sort((a, b) => b.durationMs - a.durationMs).slice(0, 3);
    console.log(
      `swarm (${SWARM.clients} clients, 1 request / ${SWARM.everyMs / 1000} s each, ${SWARM.seconds} s, junk parameters): ` +
        `/healthz p50 ${f(s.p50, 1)} ms, p99 ${f(s.p99, 1)} ms, max ${f(s.max, 1)} ms over ${s.probes} probes (${s.failures} failed); ` +
        `peak RSS ${f(s.peakRssMb)} MB (server at start ${f(startRss)} MB); statuses ${JSON.stringify(s.statuses)}, ${f(s.mb)} MB read`,
    );
    console.log(
      `the server's request.slow lines during the swarm (handler time over 50 ms): ${slow.length}` +
        (slowest.length ? `, slowest ${slowest.map((l) => `${l.route} ${f(l.durationMs)} ms`).join(", ")}` : ""),
    );
    console.log(`the highest peak RSS of the whole run of this service: ${f(highestPeak)} MB`);
    const get = (prefix: string) => rows.find((r) => r.request.startsWith(prefix))!;
    const checks: Array<[string, number, number]> = [
      ["/healthz p99 during the swarm (ms)", s.p99, TARGETS.healthP99],
      ["/healthz max during the swarm (ms)", s.max, TARGETS.healthMax],
      ["peak RSS during the swarm (MB)", s.peakRssMb, TARGETS.peakRssMb],
      ["304 without gzip, warm (ms)", get("catalog.json 304").warmMs, TARGETS.revalidateMs],
      [
        "changes since 24 h repeated, gzip, whole answer (ms)",
        get("changes since 24 h older, gzip").warmMs,
        TARGETS.changesWarmMs,
      ],
      [
        "changes since 24 h repeated, without gzip, first byte (ms)",
        get("changes since 24 h older, without gzip").warmFirstMs,
        TARGETS.changesWarmMs,
      ],
      ["categories?q= four unknown words, cold (ms)", get("categories?q=").coldMs, TARGETS_MORE.categoriesMs],
      ["/openapi.json cold (ms)", get("/openapi.json").coldMs, TARGETS_MORE.openapiColdMs],
    ];
    console.log("\n| target | measured | limit | met |\n|---|---|---|---|");
    for (const [name, value, limit] of checks)
      console.log(`| ${name} | ${f(value, 1)} | ${limit} | ${value <= limit ? "yes" : "NO"} |`);
  } finally {
    await server.stop();
  }
}
