/**
 * `bun bench/sync-rss.ts <snapshot.sqlite> [tree…]`: the service's RSS once a snapshot's client-sync
 * documents are written and after 4,000 cached and cold list, search and sync-page requests (8 at a
 * time, gzip), with its peak: what keeping the documents costs a server that no client without
 * gzip asks. One server per tree (this checkout when none is given), one after another, pinned to CPU 0.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { freePort, startService } from "./server";

const [source, ...given] = process.argv.slice(2);
if (!source) {
  console.error("usage: bun bench/sync-rss.ts <snapshot.sqlite> [tree…]");
  process.exit(2);
}
const trees = given.length ? given.map((t) => resolve(t)) : [join(import.meta.dir, "..")];
const OUT = join(import.meta.dir, "out", "sync-rss");
mkdirSync(OUT, { recursive: true });
const status = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
const words = ["mcp", "server", "agent", "tool", "git", "python", "code", "review", "test", "docs"];
const pathOf = (n: number) =>
  n % 3 === 0
    ? `/api/v1/plugins?sort=stars&page=${(n % 400) + 1}`
    : n % 3 === 1
      ? `/api/v1/plugins?q=${words[n % 10]}%20${words[(n * 7) % 10]}&page=${(n % 5) + 1}`
      : `/market/v1/plugins?page=${(n % 900) + 1}&pageSize=100`;

for (const tree of trees) {
  const db = join(OUT, `${basename(tree)}.sqlite`);
  copyFileSync(source, db);
  const server = await startService(db, await freePort(), 0, { SOURCE_TREE: tree });
  try {
    const started = performance.now();
    // A HEAD of catalog.json answers once the documents are written.
    await fetch(`${server.url}/market/v1/catalog.json`, { method: "HEAD", headers: { "accept-encoding": "gzip" } });
    const documentsMs = performance.now() - started;
    await Bun.sleep(3000);
    const written = status(server.pid, "VmRSS");
    let next = 0;
    const client = async () => {
      while (next < 4000) {
        const res = await fetch(server.url + pathOf(next++), { headers: { "accept-encoding": "gzip" } });
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    console.log(
      `${tree}: documents ${documentsMs.toFixed(0)} ms; RSS once written ${written.toFixed(0)} MB, ` +
        `after 4,000 requests ${status(server.pid, "VmRSS").toFixed(0)} MB, peak ${status(server.pid, "VmHWM").toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
  }
}
