/**
 * `bun bench/vocabulary-open.ts <snapshot> [tree…]`: opening a snapshot's correction vocabulary
 * (`Vocabulary.decode`) and then 300 corrections of random words (`nearest`), for this checkout
 * and each tree given, one process per tree, so a tree's figures are its own.
 */
import { Database } from "bun:sqlite";
import { join, resolve } from "node:path";

const [path, ...trees] = process.argv.slice(2);
if (!path) {
  console.error("usage: bun bench/vocabulary-open.ts <snapshot> [tree…]");
  process.exit(2);
}

if (process.env.VOCABULARY_TREE) {
  const { Vocabulary } = await import(join(process.env.VOCABULARY_TREE, "src/catalog/search/vocabulary.ts"));
  const db = new Database(path, { readonly: true });
  const blob = db.prepare<{ ids: Uint8Array }, [string]>(`SELECT ids FROM orders WHERE key = ?`);
  const text = blob.get("vocabulary")!.ids;
  const index = blob.get("trigrams")!.ids;
  const rss = process.memoryUsage().rss;
  let started = performance.now();
  const vocabulary = Vocabulary.decode(text, index);
  const decodeMs = performance.now() - started;
  const rssMb = (process.memoryUsage().rss - rss) / 2 ** 20;
  let seed = 7;
  const next = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const word = Array.from({ length: 5 + Math.floor(next() * 6) }, () => letters[Math.floor(next() * 26)]).join("");
    started = performance.now();
    vocabulary.nearest(word, 1);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${process.env.VOCABULARY_TREE}: decode ${decodeMs.toFixed(0)} ms, +${rssMb.toFixed(0)} MB RSS; nearest p50 ${times[150]!.toFixed(2)} ms, p99 ${times[296]!.toFixed(2)} ms`,
  );
} else {
  for (const tree of [join(import.meta.dir, ".."), ...trees.map((t) => resolve(t))]) {
    const child = Bun.spawnSync([process.execPath, import.meta.path, path], {
      env: { ...process.env, VOCABULARY_TREE: tree },
      stdout: "inherit",
      stderr: "inherit",
    });
    if (child.exitCode !== 0) process.exit(child.exitCode ?? 1);
  }
}
