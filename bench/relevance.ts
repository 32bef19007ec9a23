/**
 * Scores search against the judged queries of test/fixtures/relevance.json on the embedded
 * default snapshot: success@depth (an expected plugin within the query's depth) and MRR (the
 * reciprocal rank of the first expected plugin in the top 20). `SOURCE_TREE=<dir>` scores another
 * checkout of the service with the same judgments.
 * Usage: bun run relevance [--verbose]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Judged {
  q: string;
  expect: string[];
  depth: number;
}

const tree = process.env.SOURCE_TREE ?? join(import.meta.dir, "..");
const verbose = process.argv.includes("--verbose");
const { queries } = JSON.parse(
  readFileSync(join(import.meta.dir, "..", "test", "fixtures", "relevance.json"), "utf8"),
) as {
  queries: Judged[];
};
const { defaultSnapshotInput, publishSnapshot } = await import(join(tree, "src", "catalog", "publish.ts"));
const { Snapshot } = await import(join(tree, "src", "catalog", "snapshot.ts"));

const dir = mkdtempSync(join(tmpdir(), "relevance-"));
try {
  const path = join(dir, "catalog.sqlite");
  publishSnapshot(path, defaultSnapshotInput());
  const snapshot = Snapshot.open(path);
  let successes = 0;
  let reciprocal = 0;
  for (const judged of queries) {
    const page = snapshot.list({ q: judged.q, category: null, curated: false, sort: "default", offset: 0, limit: 20 });
    const ids = page.items.map((json: string) => (JSON.parse(json) as { id: string }).id);
    const first = ids.findIndex((id: string) => judged.expect.includes(id));
    const success = first !== -1 && first < judged.depth;
    if (success) successes++;
    if (first !== -1) reciprocal += 1 / (first + 1);
    if (verbose || !success) {
      const rank = first === -1 ? "none in the top 20" : `first expected at ${first + 1}`;
      console.log(
        `${success ? "ok  " : "MISS"} ${JSON.stringify(judged.q)} (depth ${judged.depth}): ${rank}; top: ${ids.slice(0, 5).join(", ")}`,
      );
    }
  }
  snapshot.close();
  const share = (100 * successes) / queries.length;
  console.log(
    `${tree}: success ${successes}/${queries.length} (${share.toFixed(1)}%), MRR ${(reciprocal / queries.length).toFixed(3)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
