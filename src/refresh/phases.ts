/** The phases of one refresh run, each a step over a shared Run: discover, fetch, build the candidate, publish. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type CandidateDecision, carryCandidates, listingRulesOf } from "../catalog/candidates";
import { toRecords } from "../catalog/classify";
import { categoryInfo, loadDefaultData, type loadEditorial, loadSynonyms } from "../catalog/editorial";
import { carryHistory } from "../catalog/history";
import type { PreviousCatalog } from "../catalog/previous";
import { publishSnapshot } from "../catalog/publish";
import { isoMillis } from "../catalog/time";
import type { PluginRecord } from "../catalog/types";
import { checkBuiltSnapshot } from "../catalog/validity";
import type { Checkpoint } from "./checkpoint";
import { decideCandidates } from "./decisions";
import { addFound, type Discovery, type DiscoveryState, discover } from "./discover";
import { countRules, type DiscoverySummary, evidenceOf } from "./evidence";
import { fromView } from "./facts";
import { fetchGraph } from "./fetch-graphql";
import { fetchRest } from "./fetch-rest";
import { readJsonFile, sidePath, writeJsonFile } from "./files";
import type { GitHub, Log } from "./github";
import { type ChangeSummary, mergeOutcomes, summarize } from "./merge";
import type { Outcome } from "./outcome";
import type { Progress } from "./progress";
import { type DiscoveryRules, ruleKey } from "./rules";
import type { UpstreamGate } from "./upstream";
import { checkCount, checkFacts, Refused } from "./validate";

/** Marketplaces listing marketplaces: followed this many levels deep, which real ones never exceed. */
const FOLLOW_ROUNDS = 3;

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
  gate: UpstreamGate;
  log: Log;
  now: () => Date;
}

export interface Candidate {
  snapshotAt: string;
  records: PluginRecord[];
  summary: ChangeSummary;
  discovery: DiscoverySummary;
  /** The decision about every repository this run met. */
  decisions: CandidateDecision[];
}

/** The published facts of a plugin, the gate's fallback for a field that fails. */
export function previousFacts(previous: PreviousCatalog) {
  return (key: string) => {
    const before = previous.plugins.get(key);
    return before ? fromView(before.view) : undefined;
  };
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
    gate: run.gate,
    onStep: (done, total) => run.progress.update(done, total),
  });
  run.checkpoint.save();
  return run.checkpoint.discovery;
}

/**
 * Fetches every repository not yet known this run, then, with a token, the repositories the
 * fetched marketplace manifests list, round by round. Returns every id asked for (lowercased, in order).
 */
export async function fetchPhase(run: Run, discovery: Discovery): Promise<string[]> {
  const { previous, checkpoint, progress, gh } = run;
  progress.phase("fetch", "repositories");
  const asked = [...new Set([...previous.plugins.keys(), ...discovery.found.keys()])];
  let round = asked;
  for (let depth = 0; depth < FOLLOW_ROUNDS && round.length > 0; depth++) {
    await fetchRound(run, discovery, round);
    if (!gh.authenticated) break;
    round = followManifests(run, discovery, round, asked);
    asked.push(...round);
  }
  checkpoint.save();
  return asked;
}

async function fetchRound(run: Run, discovery: Discovery, keys: string[]): Promise<void> {
  const { previous, checkpoint, progress, gh } = run;
  // Without a token a search item's facts serve as its fetch; with one the fetch also looks for evidence.
  const todo = keys
    .filter((k) => !checkpoint.outcomes.has(k) && (gh.authenticated || !discovery.found.get(k)?.facts))
    .map((k) => previous.plugins.get(k)?.view.id ?? discovery.found.get(k)?.id ?? k);
  let done = 0;
  const record = (id: string, outcome: Outcome) => {
    checkpoint.record(id, outcome);
    progress.update(++done, todo.length);
  };
  progress.update(0, todo.length);
  if (gh.authenticated) {
    const options = { gate: run.gate, files: run.rules.evidence.files };
    await fetchGraph(gh, todo, options, (batch) => {
      for (const [id, outcome] of batch) record(id, outcome);
    });
  } else {
    const etag = (id: string) => previous.plugins.get(id.toLowerCase())?.etag ?? null;
    await fetchRest(
      gh,
      run.gate,
      todo.map((id) => ({ id, etag: etag(id) })),
      record,
    );
  }
}

const ownerOf = (id: string) => id.slice(0, id.indexOf("/")).toLowerCase();

/** The repositories that manifests fetched in this round list and nobody asked for yet: the next round. */
function followManifests(run: Run, discovery: Discovery, keys: string[], asked: string[]): string[] {
  const seen = new Set(asked);
  const next: string[] = [];
  // A named marketplace's manifest was read in discovery already.
  const named = new Set(run.rules.marketplaces.map((m) => m.repository.toLowerCase()));
  for (const key of keys) {
    const outcome = run.checkpoint.outcomes.get(key);
    if (named.has(key)) continue;
    if (outcome?.kind !== "fetched") continue;
    for (const id of outcome.lists ?? []) {
      if (id.toLowerCase() === outcome.facts.full_name.toLowerCase()) continue;
      // A marketplace nobody named vouches only for its own owner's repositories; others need evidence of their own.
      const sameOwner = ownerOf(id) === ownerOf(outcome.facts.full_name);
      addFound(discovery.found, id, ruleKey.followed, sameOwner);
      if (!seen.has(id.toLowerCase())) {
        seen.add(id.toLowerCase());
        next.push(id.toLowerCase());
      }
    }
  }
  return next;
}

/** The source lists' labels by lowercased id (old names too): hints that survive a refresh. */
function loadHints(dir: string): Map<string, string | null> {
  const hints = new Map<string, string | null>();
  if (!existsSync(join(dir, "plugins.json"))) return hints;
  for (const f of loadDefaultData(dir).facts as Array<{
    full_name: string;
    hint?: string | null;
    previous_names?: string[];
  }>) {
    for (const name of [f.full_name, ...(f.previous_names ?? [])]) hints.set(name.toLowerCase(), f.hint ?? null);
  }
  return hints;
}

/** The rule keys in the order db/discovery.json writes them. */
function ruleOrder(rules: DiscoveryRules): string[] {
  return [
    ...rules.lists.map((r) => ruleKey.list(r.repository, r.path)),
    ...rules.marketplaces.map((r) => ruleKey.marketplace(r.repository)),
    ...rules.searches.map((r) => ruleKey.search(r.query)),
    ...rules.code.map((r) => ruleKey.code(r.query)),
    ...(rules.repositories.length ? [ruleKey.repositories] : []),
  ];
}

/** What the run knows of an asked id: its fetch, or without a token its search item's facts. */
function outcomeIn(run: Run, discovery: Discovery) {
  return (k: string): Outcome | undefined => {
    const facts = discovery.found.get(k)?.facts;
    return run.checkpoint.outcomes.get(k) ?? (facts ? { kind: "fetched", facts, etag: null } : undefined);
  };
}

/** Each asked id's outcome; a newcomer without evidence is left out (and returned as rejected). */
function admitted(
  run: Run,
  discovery: Discovery,
  asked: string[],
): { outcomes: Array<[string, Outcome]>; rejected: Set<string> } {
  const outcomes: Array<[string, Outcome]> = [];
  const rejected = new Set<string>();
  const outcomeOf = outcomeIn(run, discovery);
  for (const k of asked) {
    const found = discovery.found.get(k);
    const outcome = outcomeOf(k);
    if (!outcome) continue;
    const isNew = !run.previous.plugins.has(k);
    if (isNew && outcome.kind === "fetched") {
      const evidence = evidenceOf(found, outcome.facts, outcome.files, run.rules, run.editorial.overrides);
      if (!evidence) {
        rejected.add(k);
        continue;
      }
    }
    outcomes.push([k, outcome]);
  }
  return { outcomes, rejected };
}

/** The next catalog's records, validated; throws Refused when they must not be published. */
export function candidatePhase(run: Run, discovery: Discovery, asked: string[]): Candidate {
  run.progress.phase("validate", "plugins");
  const snapshotAt = isoMillis(run.now());
  const broken = run.gate.brokenEverywhere();
  if (broken) throw new Refused(broken);
  const { outcomes, rejected } = admitted(run, discovery, asked);
  const counts = countRules(discovery, (k) => run.previous.plugins.has(k), rejected, ruleOrder(run.rules));
  if (rejected.size) run.log("refresh.no_evidence", { count: rejected.size });
  const merged = mergeOutcomes(run.previous, outcomes, loadHints(run.dataDir), snapshotAt);
  for (const gone of merged.gone) run.log("refresh.repository_gone", { ...gone });
  if (merged.unresolved.length) run.log("refresh.unresolved", { ids: merged.unresolved });
  const { valid, invalid } = checkFacts(merged.facts);
  for (const { id, fields } of invalid) {
    for (const field of fields) run.gate.counts.leaveOut(`${field}: missing or invalid`, id);
  }
  if (invalid.length) run.log("refresh.invalid_facts", { repositories: invalid });
  const context = (id: string) => merged.contexts.get(id.toLowerCase()) ?? { firstSeenAt: snapshotAt };
  const records = toRecords(valid, run.editorial, context);
  checkCount(run.previous.plugins.size, records.length, run.maxDrop);
  const decisions = decideCandidates({
    ...run,
    discovery,
    asked,
    outcomeOf: outcomeIn(run, discovery),
    reasons: new Map([...rejected].map((key) => [key, "no_evidence"])),
    invalidFacts: new Set(invalid.map(({ id }) => id.toLowerCase())),
    records,
    snapshotAt,
  });
  const summary = summarize(run.previous, records, merged);
  return { snapshotAt, records, summary, discovery: counts, decisions };
}

/** Builds, verifies and swaps in the new snapshot, then records the discovery state it was built from. */
export function publishPhase(run: Run, discovery: Discovery, candidate: Candidate): void {
  run.progress.phase("publish", "files");
  const { snapshotAt, records } = candidate;
  const categories = categoryInfo(run.editorial);
  const categoryIds = categories.map((c) => c.id);
  const history = carryHistory(run.previous, records, candidate.summary.renamed, snapshotAt);
  const candidates = carryCandidates(run.previous.candidates, candidate.decisions, snapshotAt);
  const input = {
    snapshotAt,
    plugins: records,
    categoryIds,
    categories,
    history,
    synonyms: loadSynonyms(run.dataDir),
    candidates,
    listingRules: listingRulesOf(run.rules),
  };
  publishSnapshot(run.databasePath, input, (tmp) => checkBuiltSnapshot(tmp, records.length));
  writeJsonFile(statePath(run), { snapshotAt, rules: discovery.state } satisfies DiscoveryState);
  run.checkpoint.discard();
}
