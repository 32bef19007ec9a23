/**
 * `bun bench/memory.ts <snapshot.sqlite> [tree…]`: where the service's memory goes at a catalog's
 * size, and how soon it answers catalog.json after a start. Per tree (this checkout when none is
 * given), on a fresh copy of the snapshot: the service started, the first catalog.json (gzip)
 * timed from the moment it listens, RSS once its documents are written, after every hot URL of the
 * full bench, after cold list, search and sync requests, after clients without gzip read
 * catalog.json (the server's CPU per plain catalog.json); then a second start on the same file and its first
 * catalog.json again. RSS is read from /proc; peak is VmHWM.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { freePort, type RunningServer, startService } from "./server";

const [source, ...given] = process.argv.slice(2);
if (!source) {
  console.error("usage: bun bench/memory.ts <snapshot.sqlite> [tree…]");
  process.exit(2);
}
const trees = given.length ? given.map((t) => resolve(t)) : [join(import.meta.dir, "..")];
const OUT = join(import.meta.dir, "out", "memory");
const GZIP = { "accept-encoding": "gzip" };

const status = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

const hotPaths = [
  "/api/v1/plugins",
  "/api/v1/plugins?q=mcp",
  "/api/v1/plugins?category=mcp",
  "/api/v1/plugins?sort=stars",
  "/api/v1/plugins?sort=name",
  "/api/v1/plugins?sort=updated",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins?page=3",
  "/market/v1/plugins?page=3&pageSize=100",
  "/api/v1/categories",
];
const words = ["mcp", "server", "agent", "tool", "git", "python", "code", "review", "test", "docs", "slack", "sql"];
const coldPath = (n: number) =>
  n % 4 === 0
    ? `/api/v1/plugins?sort=stars&page=${(n % 4000) + 1}&_=${n}`
    : n % 4 === 1
      ? `/api/v1/plugins?q=${words[n % 12]}%20${words[(n * 7) % 12]}&page=${(n % 9) + 1}&_=${n}`
      : n % 4 === 2
        ? `/market/v1/plugins?page=${(n % 1000) + 1}&pageSize=100&_=${n}`
        : `/api/v1/plugins?q=zq${n.toString(36)}x&_=${n}`;

async function read(server: RunningServer, path: string, headers: Record<string, string> = GZIP): Promise<number> {
  const started = performance.now();
  const res = await fetch(server.url + path, { headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return performance.now() - started;
}

async function requests(server: RunningServer, count: number, pathOf: (n: number) => string): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < count) await read(server, pathOf(next++));
  };
  await Promise.all(Array.from({ length: 8 }, client));
}

const mb = (value: number) => `${value.toFixed(0)} MB`;
const PLAIN_REPEATS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The CPU time a process has used, in ms (user and system, from /proc at the kernel's tick). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Starts the service and times its first catalog.json (gzip) from the moment it listens: first byte, whole. */
async function started(db: string, tree: string): Promise<{ server: RunningServer; first: string }> {
  const server = await startService(db, await freePort(), 0, { SOURCE_TREE: tree });
  const begun = performance.now();
  const res = await fetch(`${server.url}/market/v1/catalog.json`, { headers: GZIP, decompress: false });
  const firstByte = performance.now() - begun;
  const bytes = (await res.arrayBuffer()).byteLength;
  const whole = performance.now() - begun;
  return {
    server,
    first: `${firstByte.toFixed(1)} ms to its first byte, ${whole.toFixed(0)} ms whole (${(bytes / 2 ** 20).toFixed(1)} MB)`,
  };
}

async function measureTree(tree: string): Promise<void> {
  const dir = join(OUT, basename(tree));
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) rmSync(join(dir, file), { recursive: true, force: true });
  const db = join(dir, "catalog.sqlite");
  copyFileSync(source!, db);
  const lines: string[] = [];
  const { server, first } = await started(db, tree);
  try {
    lines.push(`first catalog.json after a start (no earlier start): ${first}`);
    await Bun.sleep(2000);
    lines.push(`RSS once the documents are written: ${mb(status(server.pid, "VmRSS"))}`);
    for (const path of hotPaths) await read(server, path);
    lines.push(`after the hot URLs: ${mb(status(server.pid, "VmRSS"))}`);
    await requests(server, 6000, coldPath);
    lines.push(
      `after 6,000 cold requests: ${mb(status(server.pid, "VmRSS"))}, peak ${mb(status(server.pid, "VmHWM"))}`,
    );
    const plainMs = await read(server, "/market/v1/catalog.json", {});
    lines.push(
      `catalog.json without gzip: ${plainMs.toFixed(0)} ms, RSS ${mb(status(server.pid, "VmRSS"))}, peak ${mb(status(server.pid, "VmHWM"))}`,
    );
    const cpuBefore = cpuMs(server.pid);
    const times: number[] = [];
    for (let i = 0; i < PLAIN_REPEATS; i++) times.push(await read(server, "/market/v1/catalog.json", {}));
    const cpu = (cpuMs(server.pid) - cpuBefore) / PLAIN_REPEATS;
    lines.push(
      `${PLAIN_REPEATS} more without gzip: median ${median(times).toFixed(0)} ms, server CPU ${cpu.toFixed(0)} ms each, RSS ${mb(status(server.pid, "VmRSS"))}, peak ${mb(status(server.pid, "VmHWM"))}`,
    );
  } finally {
    await server.stop();
  }
  const second = await started(db, tree);
  try {
    lines.push(`first catalog.json after a second start on the same file: ${second.first}`);
    lines.push(`RSS then: ${mb(status(second.server.pid, "VmRSS"))}`);
  } finally {
    await second.server.stop();
  }
  console.log(`${tree}\n  ${lines.join("\n  ")}`);
}

for (const tree of trees) await measureTree(tree);
