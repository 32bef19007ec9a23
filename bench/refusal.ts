/**
 * `bun run bench:refusal [rounds]`: what a 429 costs beside the cached 200 it refuses. One snapshot
 * (the embedded default), three hot rows of /api/v1/plugins in turns, 1 s wrk runs pinned as in the
 * bench: a cached 200 with the limiter off; a cached 200 with the limiter on and a new client per
 * request (TRUST_PROXY=1); a 429 to one client that already spent its window.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureDatabase } from "../src/catalog/snapshot/publish";
import { processCpuSeconds } from "./cpu";
import { CLIENT_HEADERS } from "./scenarios";
import { freePort, type RunningServer, startService } from "./server";
import { runWrk } from "./wrk";

const OUT = join(import.meta.dir, "out");
const SNAPSHOT = join(OUT, "refusal-default.sqlite");
const PATH = "/api/v1/plugins";
const CLIENT = "192.0.2.77";
const rounds = Number(process.argv[2] ?? "5");

interface Row {
  name: string;
  server: RunningServer;
  vary: boolean;
  status: number;
  us: number[];
  rps: number[];
}

let checks = 0;

/** The status the row's client gets now (a fresh client for a row of new clients). */
async function statusOf(row: Row): Promise<number> {
  const client = row.vary ? `198.51.100.${++checks}` : CLIENT;
  const headers: Record<string, string> = { ...CLIENT_HEADERS, "X-Forwarded-For": client };
  return (await fetch(row.server.url + PATH, { headers })).status;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

mkdirSync(OUT, { recursive: true });
rmSync(SNAPSHOT, { force: true });
ensureDatabase(SNAPSHOT);
const off = await startService(SNAPSHOT, await freePort(), 0, {});
const on = await startService(SNAPSHOT, await freePort(), 0, { TRUST_PROXY: "1", RATE_LIMIT_WINDOW_MS: "600000" });
try {
  const rows: Row[] = [
    { name: "200 cached, limiter off", server: off, vary: false, status: 200, us: [], rps: [] },
    { name: "200 cached, limiter on, new client each", server: on, vary: true, status: 200, us: [], rps: [] },
    { name: "429 pre-rendered, one client", server: on, vary: false, status: 429, us: [], rps: [] },
  ];
  await fetch(on.url + PATH, { headers: { ...CLIENT_HEADERS, "X-Forwarded-For": CLIENT } });
  for (let round = 0; round <= rounds; round++) {
    for (const row of rows) {
      const cpu = processCpuSeconds(row.server.pid);
      const headers: Record<string, string> = row.vary
        ? { ...CLIENT_HEADERS }
        : { ...CLIENT_HEADERS, "X-Forwarded-For": CLIENT };
      const r = await runWrk({
        url: row.server.url,
        paths: [PATH],
        headers,
        connections: 32,
        seconds: 1,
        varyForwardedFor: row.vary,
        refusalsExpected: row.status !== 200,
        cpu: 1,
        workDir: OUT,
      });
      const status = await statusOf(row);
      if (r.errors > 0 || status !== row.status) throw new Error(`${row.name}: ${r.errors} errors, answered ${status}`);
      // The first round warms up and is not counted.
      if (round === 0) continue;
      row.us.push(((processCpuSeconds(row.server.pid) - cpu) / r.requests) * 1e6);
      row.rps.push(r.reqPerSec);
    }
  }
  console.log(`${new Date().toISOString()} · GET ${PATH} · wrk -t1 -c32, ${rounds} rounds of 1 s per row, medians`);
  console.log("| row | req/s | server CPU µs/req | x cached 200 (CPU) |");
  console.log("|---|---:|---:|---:|");
  const base = median(rows[0]!.us);
  for (const row of rows) {
    const us = median(row.us);
    console.log(`| ${row.name} | ${Math.round(median(row.rps))} | ${us.toFixed(2)} | ${(us / base).toFixed(2)} |`);
  }
} finally {
  await off.stop();
  await on.stop();
  rmSync(SNAPSHOT, { force: true });
}
