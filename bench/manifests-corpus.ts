/**
 * `bun run bench/manifests-corpus.ts <folder> [owner/repo]`: the manifest reader over local copies of
 * repositories (`<folder>/<owner>/<repo>/…`, the files at their paths), as the refresh's GraphQL
 * batch and follow-up query would bring them. Prints each repository's contents counts, install
 * lines and refusals, and the time the reads took. Reads only local files.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadDiscoveryRules } from "../src/refresh/discover/discovery-rules";
import { workTreeFiles } from "../src/refresh/fetch/clone-files";
import { cloneReader } from "../src/refresh/fetch/clones";
import { GateCounts } from "../src/refresh/upstream/gate";

const root = process.argv[2];
if (!root) throw new Error("usage: bun run bench/manifests-corpus.ts <folder> [owner/repo]");
const only = process.argv[3];
const rules = loadDiscoveryRules(join(import.meta.dir, "..", "db"));

let total = 0;
const counts = new GateCounts();
const read = cloneReader(counts, rules.evidence);
for (const owner of readdirSync(root)) {
  for (const name of readdirSync(join(root, owner))) {
    const id = `${owner}/${name}`;
    if (only && id !== only) continue;
    const dir = join(root, owner, name);
    const start = performance.now();
    const details = read(workTreeFiles(dir), id);
    const took = performance.now() - start;
    total += took;
    if (took > 50) console.log(`slow: ${id} ${took.toFixed(0)} ms`);
    const c = details?.contents;
    const line = c
      ? Object.entries(c.counts)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")
      : "no contents";
    console.log(
      `${id}: ${line}; install ${details?.install.length ?? 0}${c?.marketplace?.refused ? `; marketplace refused: ${c.marketplace.refused}` : ""}`,
    );
    if (only) console.log(JSON.stringify(details, null, 1));
  }
}
console.log(`\nread in ${total.toFixed(1)} ms\nrefusals:`);
for (const [reason, n] of [...counts.leftOut].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${reason}`);
