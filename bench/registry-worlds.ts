/**
 * The MCP registry worlds of `bun run discovery:eval`: the plugin space with REGISTRY_SPAM look-alikes
 * (test/fakes/registry-spam.ts), refreshed without and with the official MCP registry as a source,
 * which lists the real servers that ship a server.json and one spam entry per look-alike, each in
 * its publisher's own `io.github.<owner>` namespace; once with the editors' rules, once without the
 * curated list of the registry's seed. Prints both worlds side by side and the registry's own
 * contribution: real servers published only with it, spam entries published.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DB_DIR } from "../src/catalog/model/editorial";
import { readPrevious } from "../src/catalog/snapshot/previous";
import { formatResult } from "../src/refresh/report";
import { runRefresh } from "../src/refresh/run";
import { FakeGitHub } from "../test/fakes/github";
import { FakeMcpRegistry } from "../test/fakes/mcp-registry";
import { loadPluginSpace } from "../test/fakes/plugin-space";
import { registryWorld } from "../test/fakes/registry-spam";

/** Spam entries in the registry world, each in its publisher's own namespace, naming a look-alike. */
const REGISTRY_SPAM = 40;
/** The registry's seed as a curated list in db/discovery.json: most of what the registry itself would lead to. */
const SEED_LIST = "modelcontextprotocol/registry";

export function share(part: number, whole: number): string {
  return `${((part / whole) * 100).toFixed(1)}% (${part} of ${whole})`;
}

export interface WorldRun {
  published: Set<string>;
  found: number;
  clean: number;
  registryRule?: { found: number; new: number; rejected: number };
  listedPublished: number;
  listed: number;
  spamPublished: string[];
  spam: number;
  bad: number;
}

/**
 * The space with REGISTRY_SPAM look-alikes added (test/fakes/registry-spam.ts), refreshed with or
 * without the official MCP registry as a source, which lists the real servers that ship a
 * server.json and one spam entry per look-alike, each in its publisher's own namespace; with the
 * editors' rules, or without the curated list of the registry's seed.
 */
async function worldRun(
  real: Set<string>,
  now: Date,
  scale: number,
  withRegistry: boolean,
  withSeed: boolean,
): Promise<WorldRun> {
  const dir = mkdtempSync(join(tmpdir(), "discovery-eval-registry-"));
  for (const name of ["categories.json", "curated.json", "overrides.json"])
    copyFileSync(join(DB_DIR, name), join(dir, name));
  const rules = JSON.parse(readFileSync(join(DB_DIR, "discovery.json"), "utf8"));
  if (!withSeed) rules.lists = rules.lists.filter((l: { repository: string }) => l.repository !== SEED_LIST);
  writeFileSync(join(dir, "discovery.json"), JSON.stringify(rules));
  const world = new FakeGitHub({ windows: { search: 60 / scale, code_search: 60 / scale } });
  const worldSpace = loadPluginSpace(world);
  const { entries, listedReal, spam } = registryWorld(world, worldSpace.real, REGISTRY_SPAM);
  const registry = new FakeMcpRegistry();
  registry.add(...entries);
  const worldDb = join(dir, "catalog.sqlite");
  const run = await runRefresh({
    databasePath: worldDb,
    apiUrl: world.url,
    token: "eval-token",
    maxDrop: 0.5,
    dataDir: dir,
    maxWaitSeconds: 120,
    ...(withRegistry
      ? { mcpRegistry: { url: registry.url, limits: { maxRequests: 50, timeoutMs: 5000, budgetMs: 30_000 } } }
      : {}),
    now: () => now,
  });
  registry.stop();
  world.stop();
  const got = run.status === "published" ? new Set(readPrevious(worldDb).plugins.keys()) : new Set<string>();
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== "published") throw new Error(formatResult(run).join("\n"));
  const bad = new Set([...worldSpace.distractors, ...spam]);
  return {
    published: got,
    found: [...real].filter((id) => got.has(id)).length,
    clean: [...got].filter((id) => !bad.has(id)).length,
    registryRule: run.report.discovery?.rules.find((r) => r.rule.startsWith("registry ")),
    listedPublished: [...listedReal].filter((id) => got.has(id)).length,
    listed: listedReal.size,
    spamPublished: [...spam].filter((id) => got.has(id)),
    spam: spam.size,
    bad: bad.size,
  };
}

/** Both worlds side by side, with the registry's seed list and without it, and what the registry itself brought. */
export async function registryWorlds(real: Set<string>, now: Date, scale: number): Promise<WorldRun> {
  let held: WorldRun | undefined;
  for (const withSeed of [true, false]) {
    const before = await worldRun(real, now, scale, false, withSeed);
    const after = await worldRun(real, now, scale, true, withSeed);
    held ??= after;
    const recovered = [...after.published].filter((id) => real.has(id) && !before.published.has(id));
    const rule = after.registryRule;
    console.log(
      `\n## the official MCP registry as a source, ${withSeed ? "with" : "without"} the curated list of its seed (${after.listed} real servers and ${after.spam} spam entries listed)`,
    );
    console.log("                 without registry          with registry");
    console.log(`  recall:        ${share(before.found, real.size).padEnd(26)}${share(after.found, real.size)}`);
    console.log(
      `  precision:     ${share(before.clean, before.published.size).padEnd(26)}${share(after.clean, after.published.size)} (${after.bad} distractors and look-alikes)`,
    );
    console.log(
      `  registry rule: ${rule ? `${rule.found} found / ${rule.new} new / ${rule.rejected} rejected without evidence` : "not run"}`,
    );
    console.log(
      `  registry's own: ${after.listedPublished} of the ${after.listed} real servers it lists published, ${recovered.length} real ones published only with it; ${after.spamPublished.length} of ${after.spam} spam entries published${after.spamPublished.length ? ` (${after.spamPublished.slice(0, 5).join(", ")})` : ""}`,
    );
  }
  return held!;
}
