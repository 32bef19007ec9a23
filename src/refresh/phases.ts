/** The phases of one refresh run, each a step over a shared Run: discover, fetch, build the candidate, publish. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { toRecords } from "../catalog/classify";
import { loadDefaultData, type loadEditorial } from "../catalog/editorial";
import type { PreviousCatalog } from "../catalog/previous";
import { publishSnapshot } from "../catalog/publish";
import { isoMillis } from "../catalog/time";
import { checkBuiltSnapshot } from "../catalog/validity";
import type { PluginRecord } from "../catalog/types";
import type { Checkpoint } from "./checkpoint";
import { discover, type Discovery, type DiscoveryState } from "./discover";
import { fromRest } from "./facts";
import { fetchGraph } from "./fetch-graphql";
import { fetchRest } from "./fetch-rest";
import { readJsonFile, sidePath, writeJsonFile } from "./files";
import type { GitHub, Log } from "./github";
import { mergeOutcomes, summarize, type ChangeSummary } from "./merge";
import type { Outcome } from "./outcome";
import type { Progress } from "./progress";
import type { DiscoveryRules } from "./rules";
import { checkCount, checkFacts } from "./validate";

/** Everything one run works with. */
export interface Run {
  databasePath: string;
  dataDir: string;
  maxDrop: number;
  editorial: ReturnType<typeof loadEditorial>;
  rules: DiscoveryRules;
  previous: PreviousCatalog;
  gh: GitHub;
  progress: Progress;
  checkpoint: Checkpoint;
  log: Log;
  now: () => Date;
}

export interface Candidate {
  snapshotAt: string;
  records: PluginRecord[];
  summary: ChangeSummary;
}

function statePath(run: Run): string {
  return sidePath(run.databasePath, "discovery.json");
}

/** Discovery, or the discovery a resumed run already did. */
export async function discoverPhase(run: Run): Promise<Discovery> {
  run.progress.phase("discover", "searches");
  run.checkpoint.discovery ??= await discover(run.gh, {
    rules: run.rules,
    state: readJsonFile<DiscoveryState>(statePath(run)),
    previousSnapshotAt: run.previous.snapshotAt,
    now: run.now(),
    log: run.log,
    onStep: (done, total) => run.progress.update(done, total),
  });
  run.checkpoint.save();
  return run.checkpoint.discovery;
}

/** Fetches every repository not yet known this run; returns every id asked for (lowercased, catalog order). */
export async function fetchPhase(run: Run, discovery: Discovery): Promise<string[]> {
  const { previous, checkpoint, progress, gh } = run;
  progress.phase("fetch", "repositories");
  const asked = [...new Set([...previous.plugins.keys(), ...discovery.found.keys()])];
  const todo = asked
    .filter((k) => !checkpoint.outcomes.has(k) && !discovery.found.get(k)?.repo)
    .map((k) => previous.plugins.get(k)?.view.id ?? discovery.found.get(k)?.id ?? k);
  let done = 0;
  const record = (id: string, outcome: Outcome) => {
    checkpoint.record(id, outcome);
    progress.update(++done, todo.length);
  };
  progress.update(0, todo.length);
  if (gh.authenticated) {
    await fetchGraph(gh, todo, (batch) => batch.forEach(([id, outcome]) => record(id, outcome)));
  } else {
    const etag = (id: string) => previous.plugins.get(id.toLowerCase())?.etag ?? null;
    await fetchRest(gh, todo.map((id) => ({ id, etag: etag(id) })), record);
  }
  checkpoint.save();
  return asked;
}

/** The source lists' labels by lowercased id (old names too): hints that survive a refresh. */
function loadHints(dir: string): Map<string, string | null> {
  const hints = new Map<string, string | null>();
  if (!existsSync(join(dir, "plugins.json"))) return hints;
  for (const f of loadDefaultData(dir).facts as Array<{ full_name: string; hint?: string | null; previous_names?: string[] }>) {
    for (const name of [f.full_name, ...(f.previous_names ?? [])]) hints.set(name.toLowerCase(), f.hint ?? null);
  }
  return hints;
}

/** The next catalog's records, validated; throws Refused when they must not be published. */
export function candidatePhase(run: Run, discovery: Discovery, asked: string[]): Candidate {
  run.progress.phase("validate", "plugins");
  const snapshotAt = isoMillis(run.now());
  const outcomes = asked.map((k): [string, Outcome] => {
    const known = run.checkpoint.outcomes.get(k);
    return [k, known ?? { kind: "fetched", facts: fromRest(discovery.found.get(k)!.repo!), etag: null }];
  });
  const merged = mergeOutcomes(run.previous, outcomes, loadHints(run.dataDir), snapshotAt);
  for (const gone of merged.gone) run.log("refresh.repository_gone", { ...gone });
  if (merged.unresolved.length) run.log("refresh.unresolved", { ids: merged.unresolved });
  const { valid, invalid } = checkFacts(merged.facts);
  if (invalid.length) run.log("refresh.invalid_facts", { repositories: invalid });
  const context = (id: string) => merged.contexts.get(id.toLowerCase()) ?? { firstSeenAt: snapshotAt };
  const records = toRecords(valid, run.editorial, context);
  checkCount(run.previous.plugins.size, records.length, run.maxDrop);
  return { snapshotAt, records, summary: summarize(run.previous, records, merged) };
}

/** Builds, verifies and swaps in the new snapshot, then records the discovery state it was built from. */
export function publishPhase(run: Run, discovery: Discovery, candidate: Candidate): void {
  run.progress.phase("publish", "files");
  const { snapshotAt, records } = candidate;
  const categoryIds = run.editorial.categories.map((c) => c.id);
  const input = { snapshotAt, plugins: records, categoryIds };
  publishSnapshot(run.databasePath, input, (tmp) => checkBuiltSnapshot(tmp, records.length));
  writeJsonFile(statePath(run), { snapshotAt, rules: discovery.state } satisfies DiscoveryState);
  run.checkpoint.discard();
}
