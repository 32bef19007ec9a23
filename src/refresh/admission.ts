/**
 * Which fetched candidates the next catalog admits: a newcomer needs evidence of its own, or a
 * listing source with vouches left (discover/source-caps.ts); a published name now answering with another
 * repository is a newcomer; and a run whose newcomers would grow the catalog past
 * REFRESH_MAX_GROWTH holds them all for review.
 */

import type { Discovery } from "./discover/discover";
import { type DiscoveryRules, ruleKey } from "./discover/discovery-rules";
import { evidenceOf } from "./discover/evidence";
import { REJECTION, type Rejection, VOUCH_CAP } from "./discover/source-caps";
import type { Outcome } from "./fetch/outcome";
import type { Run } from "./run-state";
import { fetchedRepoId, isReplacement, type Replacement } from "./validate/merge";

/** How many new evidence-less repositories the source behind a `listed` key may vouch for this run. */
function vouchCaps(rules: DiscoveryRules): (listedKey: string) => number {
  const named = new Map<string, number>();
  for (const r of rules.lists) if (r.vouches !== undefined) named.set(ruleKey.list(r.repository, r.path), r.vouches);
  for (const r of rules.marketplaces)
    if (r.vouches !== undefined) named.set(ruleKey.marketplace(r.repository), r.vouches);
  // The editors' own list of repositories is their word, not a source's. (The MCP registry vouches
  // for nothing: what it names is a candidate that needs evidence of its own, discover.ts.)
  return (key) => (key === ruleKey.repositories ? Number.POSITIVE_INFINITY : (named.get(key) ?? VOUCH_CAP));
}

export interface Admission {
  outcomes: Array<[string, Outcome]>;
  /** Why each newcomer left out was left out, by lowercased id. */
  reasons: Map<string, Rejection>;
  replaced: Replacement[];
}

/** Each asked id's outcome; a newcomer without evidence, or whose sources' vouches are spent, is left out. */
export function admitted(run: Run, discovery: Discovery, asked: string[]): Admission {
  const outcomes: Array<[string, Outcome]> = [];
  const reasons = new Map<string, Rejection>();
  for (const [key, rule] of Object.entries(discovery.overCap ?? {}))
    if (rule) reasons.set(key, REJECTION.overSourceCap);
  for (const [key] of run.caps.dropped) if (!discovery.found.has(key)) reasons.set(key, REJECTION.overSourceCap);
  const replacements: Replacement[] = [];
  const capOf = vouchCaps(run.rules);
  const vouched = new Map<string, number>();
  const publishedIds = new Set<number>();
  for (const p of run.previous.plugins.values()) if (p.repoId !== null) publishedIds.add(p.repoId);
  for (const k of asked) {
    const found = discovery.found.get(k);
    const searched: Outcome | undefined = found?.facts
      ? { kind: "fetched", facts: found.facts, etag: null }
      : undefined;
    const outcome = run.checkpoint.outcomes.get(k) ?? searched;
    if (!outcome) continue;
    // A plugin is its repository: a published name now answering with another one is a newcomer.
    const before = run.previous.plugins.get(k);
    const replaced = isReplacement(before, outcome);
    const repoId = fetchedRepoId(outcome);
    if (replaced) replacements.push({ id: before!.id, from: before!.repoId!, to: repoId! });
    const isNew = (!before || replaced) && (repoId === null || !publishedIds.has(repoId));
    if (isNew && outcome.kind === "fetched") {
      // The editors' word was about the repository that had the name, not this one.
      const overrides = replaced ? {} : run.editorial.overrides;
      const evidence = evidenceOf(found, outcome.facts, outcome.files, run.rules, overrides);
      if (!evidence) {
        reasons.set(k, REJECTION.noEvidence);
        continue;
      }
      if (evidence === "listed") {
        const voucher = found!.listed.find((key) => (vouched.get(key) ?? 0) < capOf(key));
        if (voucher === undefined) {
          reasons.set(k, REJECTION.overVouchCap);
          continue;
        }
        vouched.set(voucher, (vouched.get(voucher) ?? 0) + 1);
      }
    }
    outcomes.push([k, outcome]);
  }
  for (const [source, n] of vouched)
    if (n >= capOf(source)) run.log("refresh.vouches_spent", { rule: source, vouched: n });
  return { outcomes, reasons, replaced: replacements };
}

/**
 * The newcomers to hold back for review: all of them when they would grow the catalog by more than
 * `maxGrowth`, none otherwise. A catalog never refreshed (no repository ids: the embedded default)
 * or empty is exempt, so a first full run passes.
 */
export function heldGrowth(run: Run, added: string[]): string[] {
  const before = run.previous.plugins.size;
  const refreshed = [...run.previous.plugins.values()].some((p) => p.repoId !== null);
  if (before === 0 || !refreshed || added.length <= before * run.maxGrowth) return [];
  run.log("refresh.growth_held", { previous: before, newcomers: added.length, maxGrowth: run.maxGrowth });
  return added;
}

/** `{ no_evidence: 3, over_vouch_cap: 280 }`: how many newcomers each reason left out. */
export function countBy(reasons: ReadonlyMap<string, Rejection>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reason of reasons.values()) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
}
