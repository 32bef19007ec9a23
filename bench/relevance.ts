/**
 * Scores search against judged queries at two sizes: test/fixtures/relevance.json on the embedded
 * default snapshot, test/fixtures/relevance-real.json on the catalog at a real size (the default
 * plus every repository of test/fixtures/real-plugins.json, test/real-catalog.ts), and the first
 * set on the larger catalog too. Success@depth: an expected plugin within the query's depth; MRR:
 * the reciprocal rank of the first expected plugin in the top 20. `SOURCE_TREE=<dir>` scores
 * another checkout of the service with the same judgments and catalogs.
 * Usage: bun run relevance [--verbose]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SnapshotInput } from "../src/catalog/model/types";
import { realCatalogInput } from "../test/real-catalog";

interface Judged {
  q: string;
  expect: string[];
  depth: number;
}

const tree = process.env.SOURCE_TREE ?? join(import.meta.dir, "..");
const verbose = process.argv.includes("--verbose");
const fixtures = join(import.meta.dir, "..", "test", "fixtures");
const judged = (file: string) =>
  (JSON.parse(readFileSync(join(fixtures, file), "utf8")) as { queries: Judged[] }).queries;
const { defaultSnapshotInput, publishSnapshot } = await import(join(tree, "src", "catalog", "snapshot", "publish.ts"));
const { Snapshot } = await import(join(tree, "src", "catalog", "snapshot", "snapshot.ts"));

const dir = mkdtempSync(join(tmpdir(), "relevance-"));

function open(name: string, input: SnapshotInput) {
  const path = join(dir, `${name}.sqlite`);
  publishSnapshot(path, input);
  return Snapshot.open(path);
}

function score(label: string, snapshot: ReturnType<typeof open>, queries: Judged[]): void {
  let successes = 0;
  let reciprocal = 0;
  for (const query of queries) {
    const page = snapshot.list({ q: query.q, category: null, curated: false, sort: "default", offset: 0, limit: 20 });
    const ids = page.items.map((json: string) => (JSON.parse(json) as { id: string }).id);
    const first = ids.findIndex((id: string) => query.expect.includes(id));
    const success = first !== -1 && first < query.depth;
    if (success) successes++;
    if (first !== -1) reciprocal += 1 / (first + 1);
    if (verbose || !success) {
      const rank = first === -1 ? "none in the top 20" : `first expected at ${first + 1}`;
      const corrected = page.corrected === undefined ? "" : ` (as ${JSON.stringify(page.corrected)})`;
      console.log(
        `${success ? "ok  " : "MISS"} ${JSON.stringify(query.q)}${corrected} (depth ${query.depth}): ${rank}; top: ${ids.slice(0, 5).join(", ")}`,
      );
    }
  }
  const share = (100 * successes) / queries.length;
  console.log(
    `${label}: success ${successes}/${queries.length} (${share.toFixed(1)}%), MRR ${(reciprocal / queries.length).toFixed(3)}`,
  );
}

try {
  const small = open("default", defaultSnapshotInput());
  const realInput = realCatalogInput();
  const large = open("real", realInput);
  console.log(`${tree}`);
  score(`default catalog (${small.stats.total} plugins), relevance.json`, small, judged("relevance.json"));
  score(`real-size catalog (${large.stats.total} plugins), relevance-real.json`, large, judged("relevance-real.json"));
  score(`real-size catalog (${large.stats.total} plugins), relevance.json`, large, judged("relevance.json"));
  small.close();
  large.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
