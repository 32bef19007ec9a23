/**
 * The decision about every candidate a run met: published, or why not (catalog/candidates.ts),
 * with the rules that found it and the evidence checked. Made once the next catalog's records are
 * known, from what each phase already decided; nothing here asks the platform.
 */
import type { CandidateDecision, Rejection } from "../../catalog/model/candidates";
import type { Editorial, PluginRecord } from "../../catalog/model/types";
import type { PreviousCatalog } from "../../catalog/snapshot/previous";
import type { Discovery } from "../discover/discover";
import type { DiscoveryRules } from "../discover/discovery-rules";
import { evidenceFound } from "../discover/evidence";
import type { Outcome } from "../fetch/outcome";

export interface RunDecisions {
  previous: PreviousCatalog;
  rules: DiscoveryRules;
  editorial: Editorial;
  discovery: Discovery;
  /** Every id asked for this run (lowercased), and its outcome. */
  asked: readonly string[];
  outcomeOf: (key: string) => Outcome | undefined;
  /** Why each newcomer the admission left out was left out, by lowercased id (asked or not). */
  reasons: ReadonlyMap<string, Rejection>;
  /** Published names that now answer with another repository (lowercased). */
  replaced: ReadonlySet<string>;
  /** Records left out for missing or malformed facts (lowercased ids). */
  invalidFacts: ReadonlySet<string>;
  /** Repositories whose owner file excludes them (lowercased ids). */
  excludedByOwner: ReadonlySet<string>;
  records: readonly PluginRecord[];
  snapshotAt: string;
}

/** Why a repository the platform answered for is not in the next catalog; null when nothing here says. */
function rejection(run: RunDecisions, asked: string, fullName: string, foundId: string | undefined): Rejection | null {
  const overrides = overridesFor(run, asked);
  const key = fullName.toLowerCase();
  if (overrides[fullName]?.exclude || (foundId && overrides[foundId]?.exclude)) return "excluded";
  if (run.excludedByOwner.has(key)) return "excluded_by_owner";
  if (run.invalidFacts.has(key)) return "invalid_facts";
  const reason = run.reasons.get(asked) ?? run.reasons.get(key) ?? null;
  // The repository that took a published name was never the plugin: the name's story is the answer.
  return reason !== null && run.replaced.has(asked) ? "replaced" : reason;
}

/** The editors' overrides that apply to what answered `asked`: none for a repository that took a published name. */
function overridesFor(run: RunDecisions, asked: string) {
  return run.replaced.has(asked) ? {} : run.editorial.overrides;
}

/** The decisions by lowercased id; a repository's own decision wins over a row for a former name equal to it. */
class Decided {
  readonly out = new Map<string, CandidateDecision>();

  put(decision: CandidateDecision): void {
    const key = decision.id.toLowerCase();
    if (this.out.get(key)?.current_id === null && decision.current_id !== null) return;
    this.out.set(key, decision);
  }
}

/** One decision per repository met this run; one more under a former name that now answers under another. */
export function decideCandidates(run: RunDecisions): CandidateDecision[] {
  const records = new Map(run.records.map((r) => [r.id.toLowerCase(), r]));
  const decided = new Decided();
  for (const asked of run.asked) {
    const outcome = run.outcomeOf(asked);
    if (!outcome) continue;
    const found = run.discovery.found.get(asked);
    const before = run.previous.plugins.get(asked);
    const askedId = found?.id ?? before?.id ?? asked;
    const common = { found_by: [...(found?.rules ?? [])], checked_at: run.snapshotAt, current_id: null };
    if (outcome.kind === "gone") {
      const decision = outcome.reason.startsWith("left out") ? "invalid_name" : "not_found";
      decided.put({ id: askedId, repo_id: before?.repoId ?? null, decision, evidence: null, stars: null, ...common });
      continue;
    }
    const facts = outcome.kind === "unchanged" ? before!.facts : outcome.facts;
    const key = facts.full_name.toLowerCase();
    const record = records.get(key);
    const decision = record ? "published" : rejection(run, asked, facts.full_name, found?.id);
    if (decision === null) continue;
    const files = outcome.kind === "fetched" ? outcome.files : undefined;
    const made: CandidateDecision = {
      id: record?.id ?? facts.full_name,
      repo_id: record?.repo_id ?? facts.database_id ?? before?.repoId ?? null,
      decision,
      evidence: evidenceFound(found, facts, files, run.rules, overridesFor(run, asked)),
      stars: facts.stars,
      ...common,
    };
    decided.put(made);
    if (key !== asked) decided.put({ ...made, id: askedId, current_id: made.id });
  }
  // Left out before anyone asked the platform (a source over its cap): the rules that found it, no evidence checked.
  for (const [key, reason] of run.reasons) {
    if (decided.out.has(key)) continue;
    const found = run.discovery.found.get(key);
    const common = { found_by: [...(found?.rules ?? [])], checked_at: run.snapshotAt, current_id: null };
    decided.put({ id: found?.id ?? key, repo_id: null, decision: reason, evidence: null, stars: null, ...common });
  }
  return [...decided.out.values()];
}
