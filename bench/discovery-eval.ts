/**
 * `bun run discovery:eval`: how much of the plugin space the discovery rules of db/discovery.json
 * find, and what it costs. Runs the real refresher against the fake platform loaded with the real
 * plugins of test/fixtures/real-plugins.json, the lists that named them and distractors
 * (test/fakes/plugin-space.ts), then prints recall (share of the real plugins published), precision
 * (share of the published that are no distractor), each rule's counts, calls by kind and time. A
 * second world adds the official MCP registry as a source, listing the real servers that ship a
 * server.json and spam entries naming look-alikes (test/fakes/registry-spam.ts): both worlds' figures
 * side by side, with the registry's seed list and without, and the registry's own contribution. It
 * then grows the space to about 10,000 plugins and prints the cost of a full and a later run.
 *
 * The fake's search budgets renew every 2 seconds instead of every minute (30 times faster), so the
 * runs take seconds; "on the platform" times scale the waits back up.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DB_DIR } from "../src/catalog/model/editorial";
import { DAY_MS } from "../src/catalog/model/time";
import { readPrevious } from "../src/catalog/snapshot/previous";
import { formatResult } from "../src/refresh/report";
import { type RefreshResult, type RunReport, runRefresh } from "../src/refresh/run";
import { FakeGitHub } from "../test/fakes/github";
import { loadPluginSpace } from "../test/fakes/plugin-space";
import { registryWorlds, share } from "./registry-worlds";

const SCALE = 30;
const RECALL_TARGET = 0.98;
const PRECISION_TARGET = 0.995;

const dir = mkdtempSync(join(tmpdir(), "discovery-eval-"));
const dataDir = join(dir, "data");
const databasePath = join(dir, "catalog.sqlite");
mkdirSync(dataDir);
// The editors' data and the rules, without the embedded default: the first run starts from nothing.
for (const name of ["categories.json", "curated.json", "overrides.json", "discovery.json"])
  copyFileSync(join(DB_DIR, name), join(dataDir, name));

const github = new FakeGitHub({ windows: { search: 60 / SCALE, code_search: 60 / SCALE } });
const space = loadPluginSpace(github);
const start = Date.now();

async function refresh(label: string, now: Date): Promise<RunReport> {
  const started = performance.now();
  const result: RefreshResult = await runRefresh({
    databasePath,
    apiUrl: github.url,
    token: "eval-token",
    maxDrop: 0.5,
    // The fake grows the space tenfold between runs, far past what REFRESH_MAX_GROWTH lets one run add.
    maxGrowth: 100,
    dataDir,
    maxWaitSeconds: 120,
    now: () => now,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== "published") throw new Error(`${label}: ${formatResult(result).join("\n")}`);
  const waited = result.report.usage.waits.reduce((sum, w) => sum + w.seconds, 0);
  console.log(`\n## ${label}`);
  console.log(
    `  wall time against the fake: ${seconds.toFixed(1)}s; on the platform about ${((seconds + waited * (SCALE - 1)) / 60).toFixed(1)} min (${result.report.usage.waits.length} waits for a budget's reset)`,
  );
  for (const line of formatResult(result)) if (!/^ {2}(added|removed|renamed) /.test(line)) console.log(line);
  return result.report;
}

// The editors' exclusions are judged not to be coding-agent plugins, so leaving them out is right.
const excluded = new Set(
  Object.entries(
    (
      JSON.parse(readFileSync(join(dataDir, "overrides.json"), "utf8")) as {
        overrides: Record<string, { exclude?: boolean }>;
      }
    ).overrides,
  )
    .filter(([, override]) => override.exclude === true)
    .map(([id]) => id.toLowerCase()),
);
const real = new Set([...space.real].filter((id) => !excluded.has(id)));
const NOW = new Date(Date.UTC(2026, 10, 22, 12));
await refresh("first full run over the real plugin space", NOW);
const published = new Set(readPrevious(databasePath).plugins.keys());
const found = [...real].filter((id) => published.has(id)).length;
const clean = [...published].filter((id) => !space.distractors.has(id)).length;
const recall = found / real.size;
const precision = clean / published.size;
console.log(
  `\nrecall:    ${share(found, real.size)} of the real plugins published (target >= ${RECALL_TARGET * 100}%; ${space.real.size - real.size} the editors exclude are not counted)`,
);
console.log(
  `precision: ${share(clean, published.size)} of the published are no distractor (target >= ${PRECISION_TARGET * 100}%; ${space.distractors.size} distractors)`,
);
const missed = [...real].filter((id) => !published.has(id));
console.log(`missed, first 15: ${missed.slice(0, 15).join(", ")}`);
coverage();
const withRegistry = await registryWorlds(real, NOW, SCALE);

/**
 * What the manifests gave the published plugins: the share of those holding an evidence file that
 * have contents, and the share of marketplaces, MCP packages and skills with an install instruction.
 */
function coverage(): void {
  const plugins = readPrevious(databasePath).plugins;
  const rules = JSON.parse(readFileSync(join(dataDir, "discovery.json"), "utf8"));
  let withFile = 0;
  let withContents = 0;
  const kinds = { marketplaces: [0, 0], "MCP packages": [0, 0], skills: [0, 0] } as Record<string, [number, number]>;
  for (const [key, plugin] of plugins) {
    const files = github.repos.lookup(key)?.repo.files ?? {};
    const paths = Object.keys(files);
    const server = files["server.json"] ?? "";
    const isMcp = server.includes("modelcontextprotocol.io/schemas");
    const evidence =
      rules.evidence.files.some(
        (f: { path: string; contains?: string }) =>
          f.path in files && (!f.contains || files[f.path]!.includes(f.contains)),
      ) ||
      rules.evidence.dependencies.some((d: { file: string; name: string }) => files[d.file]?.includes(d.name)) ||
      paths.some((p) => /^skills\/[^/]+\/SKILL\.md$/.test(p) || /^\.claude\/(commands|agents)\/[^/]+\.md$/.test(p));
    if (!evidence) continue;
    withFile++;
    if (plugin.details?.contents) withContents++;
    const installed = (plugin.details?.install.length ?? 0) > 0;
    const count = (kind: string) => {
      kinds[kind]![0]++;
      if (installed) kinds[kind]![1]++;
    };
    if (".claude-plugin/marketplace.json" in files) count("marketplaces");
    if (isMcp && server.includes('"packages"')) count("MCP packages");
    if ("SKILL.md" in files || paths.some((p) => /^skills\/[^/]+\/SKILL\.md$/.test(p))) count("skills");
  }
  console.log(
    `contents:  ${share(withContents, withFile)} of the published plugins with an evidence file (target >= 90%)`,
  );
  for (const [kind, [all, installed]] of Object.entries(kinds))
    console.log(`install:   ${share(installed, all)} of the ${kind} have an install instruction (target >= 80%)`);
}

// About 10,000 plugins: synthetic ones with a plugin manifest and a topic, created over two years.
for (let i = 0; i < 8000; i++) {
  const created = new Date(Date.UTC(2024, 10, 1) + ((i * 7_777_777) % (730 * DAY_MS)))
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z");
  github.add({
    full_name: `scale-${i % 300}/plugin-${i}`,
    topics: ["claude-code-plugin"],
    created_at: created,
    pushed_at: created,
    files: {
      ".claude-plugin/plugin.json": JSON.stringify({ name: `plugin-${i}`, description: "A plugin ".repeat(i % 400) }),
    },
  });
}
github.resetBudgets();
const full = await refresh(
  "full run at about 10,000 plugins (fullEveryDays passed)",
  new Date(NOW.getTime() + 8 * DAY_MS),
);
// A day later: some plugins pushed, a few new ones.
const later = new Date(NOW.getTime() + 9 * DAY_MS);
const pushed = new Date(later.getTime() - DAY_MS / 2).toISOString().replace(/\.\d{3}Z$/, "Z");
for (let i = 0; i < 50; i++) github.repos.update(`scale-${i % 300}/plugin-${i}`, { pushed_at: pushed });
for (let i = 0; i < 20; i++)
  github.add({ full_name: `fresh-${i}/plugin`, topics: ["claude-code-plugin"], created_at: pushed, pushed_at: pushed });
github.resetBudgets();
const incremental = await refresh("later incremental run at about 10,000 plugins", later);
// The searches' own share: the same space with no curated list or named marketplace to lean on,
// with the evidence kinds read from manifests (SDK dependencies, skill folders, .claude/) and without.
const rules = JSON.parse(readFileSync(join(DB_DIR, "discovery.json"), "utf8"));
async function alone(label: string, discovery: unknown): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "discovery-eval-alone-"));
  for (const name of ["categories.json", "curated.json", "overrides.json"])
    copyFileSync(join(DB_DIR, name), join(dir, name));
  writeFileSync(join(dir, "discovery.json"), JSON.stringify(discovery));
  const bare = new FakeGitHub({ windows: { search: 60 / SCALE, code_search: 60 / SCALE } });
  const bareSpace = loadPluginSpace(bare);
  const bareDb = join(dir, "catalog.sqlite");
  const started = performance.now();
  const bareRun = await runRefresh({
    databasePath: bareDb,
    apiUrl: bare.url,
    token: "eval-token",
    maxDrop: 0.5,
    dataDir: dir,
    maxWaitSeconds: 120,
    now: () => NOW,
  });
  if (bareRun.status !== "published") throw new Error(formatResult(bareRun).join("\n"));
  const seconds = (performance.now() - started) / 1000;
  const waited = bareRun.report.usage.waits.reduce((sum, w) => sum + w.seconds, 0);
  const barePublished = new Set(readPrevious(bareDb).plugins.keys());
  const bareFound = [...bareSpace.real].filter((id) => barePublished.has(id)).length;
  const bareClean = [...barePublished].filter((id) => !bareSpace.distractors.has(id)).length;
  console.log(`\n## without curated lists and named marketplaces, ${label}`);
  console.log(
    `recall:    ${share(bareFound, bareSpace.real.size)}; precision: ${share(bareClean, barePublished.size)}`,
  );
  console.log(
    `  API calls: ${bareRun.report.usage.total} (${bareRun.report.usage.callsText()}); on the platform about ${((seconds + waited * (SCALE - 1)) / 60).toFixed(1)} min`,
  );
  bare.stop();
  rmSync(dir, { recursive: true, force: true });
}
const older = {
  ...rules,
  lists: [],
  marketplaces: [],
  evidence: { ...rules.evidence, dependencies: [], folders: [] },
  code: rules.code.filter((c: { query: string }) => !c.query.includes("modelcontextprotocol/sdk")),
};
await alone("before: evidence files and topics only", older);
await alone("after: with SDK dependencies, skill folders and .claude/ as evidence", {
  ...rules,
  lists: [],
  marketplaces: [],
});

console.log(`\nplugins after the later run: ${incremental.total} (full run ${full.total})`);
console.log(
  `snapshot file: ${(statSync(databasePath).size / 1e6).toFixed(1)} MB; peak RSS of the eval process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
console.log(`total eval time: ${((Date.now() - start) / 1000).toFixed(1)}s`);
github.stop();
rmSync(dir, { recursive: true, force: true });
const held =
  withRegistry.found / real.size >= RECALL_TARGET &&
  withRegistry.clean / withRegistry.published.size >= PRECISION_TARGET &&
  withRegistry.spamPublished.length === 0;
process.exit(recall >= RECALL_TARGET && precision >= PRECISION_TARGET && held ? 0 : 1);
