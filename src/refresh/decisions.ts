/**
 * The decision about every candidate a run met: published, or why not (catalog/candidates.ts),
 * with the rules that found it and the evidence checked. Made once the next catalog's records are
 * known, from what each phase already decided; nothing here asks the platform.
 */
import type { CandidateDecision, Decision } from "../catalog/candidates";
import type { PreviousCatalog } from "../catalog/previous";
import type { Editorial, PluginRecord } from "../catalog/types";
import type { Discovery } from "./discover";
import { evidenceFound } from "./evidence";
import { fromView } from "./facts";
import type { Outcome } from "./outcome";
import type { DiscoveryRules } from "./rules";

export interface RunDecisions {
  previous: PreviousCatalog;
  rules: DiscoveryRules;
  editorial: Editorial;
  discovery: Discovery;
  /** Every id asked for this run (lowercased), and its outcome. */
  asked: readonly string[];
  outcomeOf: (key: string) => Outcome | undefined;
  /** Newcomers left out for lack of evidence (lowercased ids). */
  noEvidence: ReadonlySet<string>;
  /** Records left out for missing or malformed facts (lowercased ids). */
  invalidFacts: ReadonlySet<string>;
  records: readonly PluginRecord[];
  snapshotAt: string;
}

/** The reason a repository the platform answered for is not in the next catalog. */
function rejection(run: RunDecisions, fullName: string, foundId: string | undefined): Decision {
  const { overrides } = run.editorial;
  const key = fullName.toLowerCase();
  if (overrides[fullName]?.exclude || (foundId && overrides[foundId]?.exclude)) return "excluded";
  if (run.invalidFacts.has(key)) return "invalid_facts";
  return "no_evidence";
}

/** One decision per repository met this run; one more under a former name that now answers under another. */
export function decideCandidates(run: RunDecisions): CandidateDecision[] {
  const records = new Map(run.records.map((r) => [r.id.toLowerCase(), r]));
  const out = new Map<string, CandidateDecision>();
  const put = (decision: CandidateDecision) => {
    const key = decision.id.toLowerCase();
    // A repository's own decision wins over a row for a former name that equals it.
    if (out.get(key)?.current_id === null && decision.current_id !== null) return;
    out.set(key, decision);
  };
  for (const asked of run.asked) {
    const outcome = run.outcomeOf(asked);
    if (!outcome) continue;
    const found = run.discovery.found.get(asked);
    const before = run.previous.plugins.get(asked);
    const askedId = found?.id ?? before?.view.id ?? asked;
    const common = { found_by: [...(found?.rules ?? [])], checked_at: run.snapshotAt };
    if (outcome.kind === "gone") {
      const decision = outcome.reason.startsWith("left out") ? "invalid_name" : "not_found";
      put({
        id: askedId,
        repo_id: before?.repoId ?? null,
        decision,
        evidence: null,
        stars: null,
        current_id: null,
        ...common,
      });
      continue;
    }
    const facts = outcome.kind === "unchanged" ? fromView(before!.view) : outcome.facts;
    const key = facts.full_name.toLowerCase();
    const record = records.get(key);
    const files = outcome.kind === "fetched" ? outcome.files : undefined;
    const decided: CandidateDecision = {
      id: record?.id ?? facts.full_name,
      repo_id: record?.repo_id ?? facts.database_id ?? before?.repoId ?? null,
      decision: record ? "published" : rejection(run, facts.full_name, found?.id),
      evidence: evidenceFound(found, facts, files, run.rules, run.editorial.overrides),
      stars: facts.stars,
      current_id: null,
      ...common,
    };
    put(decided);
    if (key !== asked) put({ ...decided, id: askedId, current_id: decided.id });
  }
  return [...out.values()];
}
