/**
 * `bun run bench/manifests-corpus.ts <folder> [owner/repo]`: the manifest reader over local copies of
 * repositories (`<folder>/<owner>/<repo>/…`, the files at their paths), as the refresh's GraphQL
 * batch and follow-up query would bring them. Prints each repository's contents counts, install
 * lines and refusals, and the time the reads took. Reads only local files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_FILES, MANIFEST_TREES, ManifestReader } from "../src/refresh/manifests/reader";
import { loadDiscoveryRules } from "../src/refresh/rules";
import { GateCounts } from "../src/refresh/upstream";

const root = process.argv[2];
if (!root) throw new Error("usage: bun run bench/manifests-corpus.ts <folder> [owner/repo]");
const only = process.argv[3];
const rules = loadDiscoveryRules(join(import.meta.dir, "..", "db"));

const blob = (path: string) => {
  if (!existsSync(path) || !statSync(path).isFile()) return null;
  const text = readFileSync(path, "utf8");
  return { byteSize: Buffer.byteLength(text), isTruncated: false, text };
};
const tree = (path: string) =>
  existsSync(path) && statSync(path).isDirectory()
    ? {
        entries: readdirSync(path, { withFileTypes: true }).map((e) => ({
          name: e.name,
          type: e.isDirectory() ? "tree" : "blob",
        })),
      }
    : null;

let total = 0;
const counts = new GateCounts();
const reader = new ManifestReader(counts, rules.evidence);
for (const owner of readdirSync(root)) {
  for (const name of readdirSync(join(root, owner))) {
    const id = `${owner}/${name}`;
    if (only && id !== only) continue;
    const dir = join(root, owner, name);
    const node: Record<string, unknown> = {};
    for (const [key, path] of Object.entries(MANIFEST_FILES)) node[`m_${key}`] = blob(join(dir, path));
    for (const [key, path] of Object.entries(MANIFEST_TREES)) node[`m_${key}`] = tree(join(dir, path));
    const start = performance.now();
    const reading = reader.read(node, id);
    const objects = new Map(reading.skillDirs.map((d) => [d, blob(join(dir, "skills", d, "SKILL.md"))]));
    if (reading.skillDirs.length) reading.details = reader.finishSkills(reading, objects, id);
    const details = reader.checked(reading.details, id);
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
