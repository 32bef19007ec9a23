/** bench:cost's moments of stress besides the swarm: clients that never read, and a snapshot swap under requests. */
import { copyFileSync, readFileSync, renameSync } from "node:fs";
import { connect } from "node:net";
import type { Memory } from "./cost-memory";
import { ask, GZIP, nextAddress, PLAIN, unknownWords } from "./cost-requests";
import type { RunningServer } from "./server";

/** Connections that ask for catalog.json without gzip and never read: what the server holds for them. */
export async function neverReading(
  server: RunningServer,
  memory: Memory,
  connections: number,
): Promise<{ before: number; after: number }> {
  const port = Number(new URL(server.url).port);
  const before = memory.rss();
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
  const after = memory.rss();
  for (const socket of sockets) socket.destroy();
  await Bun.sleep(500);
  return { before, after };
}

/**
 * Twenty concurrent requests right after the snapshot file is replaced (a swap): the slowest, and
 * the peak RSS; then how long until the new snapshot serves (its `snapshot.loaded` line), so what
 * follows does not overlap the work of the swap.
 */
export async function afterSwap(server: RunningServer, memory: Memory, path: string, times: string[], logPath: string) {
  const loaded = () => readFileSync(logPath, "utf8").split('"snapshot.loaded"').length;
  const loadedBefore = loaded();
  copyFileSync(path, `${path}.swap`);
  const replaced = performance.now();
  renameSync(`${path}.swap`, path);
  await Bun.sleep(1200);
  memory.resetPeak();
  const before = memory.rss();
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
    peakDeltaMb: memory.peak() - before,
  };
}
