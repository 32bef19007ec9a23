/** The phases of one refresh run, each a step over a shared Run: discover → fetch → validate → publish. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type CandidateDecision, carryCandidates, listingRulesOf } from "../catalog/model/candidates";
import { toRecords } from "../catalog/model/classify";
import { categoryInfo, loadDefaultData } from "../catalog/model/editorial";
import { carryHistory } from "../catalog/model/history";
import { isoMillis } from "../catalog/model/time";
import type { PluginRecord, RepoFacts } from "../catalog/model/types";
import { carryUpdates, markUpdated } from "../catalog/model/update-history";
import { judged, withPolicy } from "../catalog/snapshot/policy-apply";
import { type PreviousCatalog, servedPrevious } from "../catalog/snapshot/previous";
import { publishSnapshot } from "../catalog/snapshot/publish";
import { checkBuiltSnapshot } from "../catalog/snapshot/validity";
import { admitted, countBy, heldGrowth } from "./admission";
import type { Discovery, DiscoveryState } from "./discover/discover";
import { discover } from "./discover/discover";
import { type DiscoveryRules, ruleKey } from "./discover/discovery-rules";
import { countRules, type DiscoverySummary } from "./discover/evidence";
import { REJECTION } from "./discover/source-caps";
import { fetchGraph } from "./fetch/fetch-graphql";
import { fetchRest } from "./fetch/fetch-rest";
import type { Outcome } from "./fetch/outcome";
import { followManifests, followReplaced } from "./follow";
import { ManifestReader } from "./manifests/reader";
import { type CommitReadings, useCommitReadings } from "./pinned-reads";
import { readJsonFile, sidePath, writeJsonFile } from "./side-files";
import { decideCandidates } from "./validate/decisions";
import { editorialByIdentity, type PinMismatch } from "./validate/identity";
import { type ChangeSummary, mergeOutcomes, summarize } from "./validate/merge";
import { checkOwnerClaims, excludedByOwner } from "./validate/owner-claims";
import { checkCount, checkFacts, Refused } from "./validate/validate";

/** Marketplaces listing marketplaces: followed this many levels deep, which real ones never exceed. */
const FOLLOW_ROUNDS = 3;

import type { Run } from "./run-state";

export interface Candidate {
  snapshotAt: string;
  records: PluginRecord[];
  summary: ChangeSummary;
  discovery: DiscoverySummary;
  /** The repository id of each editors' entry, kept in the snapshot for the next run. */
  editorialIds: Record<string, number>;
  /** Editors' entries pinned to a repository id their name no longer answers with. */
  pinMismatches: PinMismatch[];
  /** Newcomers held back for review: they would have grown the catalog by more than REFRESH_MAX_GROWTH. */
  held: string[];
  /** The decision about every repository this run met. */
  decisions: CandidateDecision[];
}

/** The published facts of a plugin, the gate's fallback for a field that fails. */
export function previousFacts(previous: PreviousCatalog) {
  return (key: string) => {
    const before = previous.plugins.get(key);
    return before ? before.facts : undefined;
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
    caps: run.caps,
    mcpRegistry: run.mcpRegistry,
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
  await followReplaced(run, asked);
  checkpoint.save();
  return asked;
}

async function fetchRound(run: Run, discovery: Discovery, keys: string[]): Promise<void> {
  const { previous, checkpoint, progress, gh } = run;
  // Without a token a search item's facts serve as its fetch; with one the fetch also looks for evidence.
  const todo = keys
    .filter((k) => !checkpoint.outcomes.has(k) && (gh.authenticated || !discovery.found.get(k)?.facts))
    .map((k) => previous.plugins.get(k)?.id ?? discovery.found.get(k)?.id ?? k);
  let done = 0;
  const record = (id: string, outcome: Outcome) => {
    checkpoint.record(id, outcome);
    progress.update(++done, todo.length);
  };
  progress.update(0, todo.length);
  if (gh.authenticated) {
    const manifests = new ManifestReader(run.gate.counts, run.rules.evidence, run.ownerFile);
    const options = { gate: run.gate, files: run.rules.evidence.files, manifests };
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

/** The source lists' labels by lowercased id (old names too): hints that survive a refresh. */
export function loadHints(dir: string): Map<string, string | null> {
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

/** The next catalog's records, merged, classified and validated; throws Refused when they must not be published. */
export function validatePhase(run: Run, discovery: Discovery, asked: string[]): Candidate {
  run.progress.phase("validate", "plugins");
  const snapshotAt = isoMillis(run.now());
  const broken = run.gate.brokenEverywhere();
  if (broken) throw new Refused(broken);
  const { outcomes, reasons, replaced } = admitted(run, discovery, asked);
  const truncated = [...(discovery.truncated ?? []), ...run.caps.truncations];
  const counts = countRules(discovery, (k) => run.previous.plugins.has(k), reasons, ruleOrder(run.rules), truncated);
  if (reasons.size) run.log("refresh.left_out", countBy(reasons));
  const merged = mergeOutcomes(run.previous, outcomes, run.hints, snapshotAt);
  for (const gone of merged.gone) run.log("refresh.repository_gone", { ...gone });
  if (merged.unresolved.length) run.log("refresh.unresolved", { ids: merged.unresolved });
  const byOwner = excludedByOwner(outcomes);
  const { valid: checked, invalid } = checkFacts(merged.facts);
  const valid = checked.filter((f) => !byOwner.has(f.full_name.toLowerCase()));
  for (const { id, fields } of invalid) {
    for (const field of fields) run.gate.counts.leaveOut(`${field}: missing or invalid`, id);
  }
  if (invalid.length) run.log("refresh.invalid_facts", { repositories: invalid });
  const context = (id: string) => merged.contexts.get(id.toLowerCase()) ?? { firstSeenAt: snapshotAt };
  const repoIdOf = (f: RepoFacts) => f.database_id ?? context(f.full_name).repoId ?? null;
  const identity = editorialByIdentity(run.editorial, valid, repoIdOf, run.previous);
  for (const mismatch of identity.mismatches) run.log("refresh.pin_mismatch", { ...mismatch });
  let records = toRecords(valid, identity.editorial, context);
  checkOwnerClaims(records, run.gate.counts, run.ownerFile);
  checkCount(run.previous.plugins.size, records.length, run.maxDrop);
  let summary = summarize(run.previous, records, merged, replaced, byOwner);
  const held = heldGrowth(run, summary.added);
  if (held.length > 0) {
    const out = new Set(held.map((id) => id.toLowerCase()));
    for (const key of out) counts.reasons[key] = REJECTION.heldForReview;
    records = records.filter((r) => !out.has(r.id.toLowerCase()));
    summary = summarize(run.previous, records, merged, replaced, byOwner);
  }
  const decisions = decideCandidates({
    ...run,
    discovery,
    asked,
    outcomeOf: outcomeIn(run, discovery),
    reasons: new Map(Object.entries(counts.reasons)),
    replaced: new Set(replaced.map((r) => r.id.toLowerCase())),
    invalidFacts: new Set(invalid.map(({ id }) => id.toLowerCase())),
    excludedByOwner: byOwner,
    records,
    snapshotAt,
  });
  return {
    snapshotAt,
    records,
    summary,
    discovery: counts,
    editorialIds: identity.ids,
    pinMismatches: identity.mismatches,
    held,
    decisions,
  };
}

/**
 * Builds, verifies and swaps in the new snapshot, then records the discovery state it was built
 * from. Under a policy only what it admits is served (catalog/snapshot/policy-apply.ts); the
 * history is told against what was served before, so a plugin the policy now keeps out is a removal.
 * `commitReadings` are the approved commits this run read (pinned-reads.ts).
 * Answers how many plugins are served.
 */
export function publishPhase(
  run: Run,
  discovery: Discovery,
  candidate: Candidate,
  commitReadings: CommitReadings = new Map(),
): number {
  run.progress.phase("publish", "files");
  const { snapshotAt, records } = candidate;
  const categories = categoryInfo(run.editorial);
  const categoryIds = categories.map((c) => c.id);
  const before = new Map([...run.previous.plugins].map(([key, p]) => [key, p.details]));
  const refused = useCommitReadings(before, records, commitReadings);
  const judgedRecords = run.policy ? judged(run.policy, records, before, refused) : undefined;
  const served = judgedRecords ? judgedRecords.filter((r) => r.rule === null).map((r) => r.record) : records;
  const shown = servedPrevious(run.previous);
  const history = carryHistory(shown, served, candidate.summary.renamed, snapshotAt);
  const updates = carryUpdates(shown, served, snapshotAt);
  markUpdated(history, updates, snapshotAt);
  const synonyms = run.synonyms;
  const editorialIds = candidate.editorialIds;
  const candidates = carryCandidates(run.previous.candidates, candidate.decisions, snapshotAt);
  const listingRules = listingRulesOf(run.rules);
  const input = withPolicy(
    {
      snapshotAt,
      plugins: served,
      categoryIds,
      categories,
      history,
      synonyms,
      editorialIds,
      candidates,
      listingRules,
      updates,
    },
    run.policy,
    judgedRecords,
  );
  publishSnapshot(run.databasePath, input, (tmp) => checkBuiltSnapshot(tmp, input.plugins.length));
  // Held newcomers must be found again: without the state the next run searches in full.
  if (candidate.held.length === 0)
    writeJsonFile(statePath(run), { snapshotAt, rules: discovery.state } satisfies DiscoveryState);
  run.checkpoint.discard();
  return input.plugins.length;
}
