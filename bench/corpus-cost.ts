/**
 * `bun run bench:corpus-cost`: the refresh's GraphQL cost on the real-manifests corpus
 * (../shared/data/real-manifests). Loads every repository of it into the fake platform (a real
 * HTTP server on 127.0.0.1, test/fakes/github.ts; kept files with their bodies, the other paths
 * of each tree empty), names them all in discovery.json's `repositories`, runs the real refresh
 * once from nothing (no registry, deps.dev or remote server is asked), and prints the repositories
 * read, GraphQL calls by kind, points, calls per 100 repositories, wall time and peak RSS. Then
 * compares each repository's published details (contents counts per kind, install lines) with
 * what the clone reader gives on the same files, and lists the disagreements. Exits 0, saying
 * so, when the corpus is absent. `bun run bench:corpus-cost <owner/repo>` prints both sides of that
 * repository's disagreement; `CORPUS_ONLY=<owner/repo>,…` loads only those repositories.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginDetails } from "../src/catalog/model/details";
import { DB_DIR } from "../src/catalog/model/editorial";
import { readPrevious } from "../src/catalog/snapshot/previous";
import { loadDiscoveryRules } from "../src/refresh/discover/discovery-rules";
import { cloneReader } from "../src/refresh/fetch/clones";
import { formatResult } from "../src/refresh/report";
import { runRefresh } from "../src/refresh/run";
import { GateCounts } from "../src/refresh/upstream/gate";
import { FakeGitHub } from "../test/fakes/github";
import { CORPUS, corpusFiles, corpusPresent, corpusRepositories, mapFiles } from "./corpus-files";

if (!corpusPresent()) {
  console.log(`corpus-cost: ${CORPUS} is absent; nothing to measure`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "corpus-cost-"));
const dataDir = join(dir, "data");
const databasePath = join(dir, "catalog.sqlite");
mkdirSync(dataDir);
copyFileSync(join(DB_DIR, "categories.json"), join(dataDir, "categories.json"));
writeFileSync(join(dataDir, "curated.json"), JSON.stringify({ plugins: [] }));
writeFileSync(join(dataDir, "overrides.json"), JSON.stringify({ overrides: {} }));
const rules = loadDiscoveryRules(DB_DIR);
const only = process.env.CORPUS_ONLY?.split(",");
const ids = corpusRepositories().filter((id) => !only || only.includes(id));
const none = { searches: [], code: [], marketplaces: [], lists: [] };
writeFileSync(join(dataDir, "discovery.json"), JSON.stringify({ ...rules, ...none, repositories: ids }));

const github = new FakeGitHub();
const files = new Map(ids.map((id) => [id, corpusFiles(id)]));
for (const [id, repoFiles] of files) github.add({ full_name: id, files: repoFiles, stars: 10 });

const started = performance.now();
const result = await runRefresh({
  databasePath,
  apiUrl: github.url,
  token: "bench-token",
  maxDrop: 0.5,
  maxGrowth: 1000,
  dataDir,
  maxWaitSeconds: 0,
});
const seconds = (performance.now() - started) / 1000;
if (result.status !== "published") {
  console.log(formatResult(result).join("\n"));
  process.exit(1);
}
const { usage } = result.report;
const kinds = usage.graphqlKinds();
const repos = github.count("graphql 200") > 0 ? ids.length : 0;
const per100 = (usage.calls.graphql / ids.length) * 100;
console.log(`## corpus-cost: ${ids.length} repositories of ${CORPUS}`);
console.log(`repositories read: ${repos} (published ${result.report.total})`);
console.log(
  `graphql calls: ${usage.calls.graphql} (batches ${kinds.batches}, skill-folder follow-ups ${kinds.skill}, ` +
    `plugin-file follow-ups ${kinds.plugin_files}, plugin-listed follow-ups ${kinds.plugin_listed}), points ${kinds.points}`,
);
console.log(`graphql calls per 100 repositories: ${per100.toFixed(1)}`);
console.log(`all calls: ${usage.total} (${usage.callsText()})`);
console.log(
  `wall time of the refresh: ${seconds.toFixed(1)} s; peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);

type Counts = Record<string, number>;
const summary = (d: PluginDetails | null | undefined) => ({
  counts: (d?.contents?.counts ?? {}) as Counts,
  install: (d?.install ?? []).map((i) => `${i.harness} ${i.kind} ${i.command}`).sort(),
});
const published = readPrevious(databasePath).plugins;
const read = cloneReader(new GateCounts(), rules.evidence);
const disagreements: string[] = [];
for (const id of ids) {
  const refreshed = summary(published.get(id.toLowerCase())?.details);
  const cloned = summary(read(mapFiles(files.get(id)!), id));
  const keys = [...new Set([...Object.keys(refreshed.counts), ...Object.keys(cloned.counts)])];
  const counts = keys.filter((k) => (refreshed.counts[k] ?? 0) !== (cloned.counts[k] ?? 0));
  const lines = JSON.stringify(refreshed.install) !== JSON.stringify(cloned.install);
  if (counts.length === 0 && !lines) continue;
  if (id === process.argv[2]) console.log(JSON.stringify({ id, refreshed, cloned }, null, 1));
  const said = counts.map((k) => `${k} ${refreshed.counts[k] ?? 0} vs ${cloned.counts[k] ?? 0}`);
  if (lines) {
    const only = (a: string[], b: string[]) => a.filter((x) => !b.includes(x)).length;
    said.push(
      `install lines: ${only(refreshed.install, cloned.install)} only refresh, ${only(cloned.install, refreshed.install)} only clone`,
    );
  }
  disagreements.push(`  ${id}: ${said.join("; ")}`);
}
console.log(`details agreeing with the clone reader: ${ids.length - disagreements.length} of ${ids.length}`);
if (disagreements.length) console.log(`disagreements (refresh vs clone reader):\n${disagreements.join("\n")}`);
github.stop();
rmSync(dir, { recursive: true, force: true });
