/**
 * Following while fetching: the repositories the marketplace manifests fetched in a round list
 * (within each manifest's caps), and a published repository whose name another one took, by its id.
 */

import { addFound, type Discovery } from "./discover/discover";
import { ruleKey } from "./discover/discovery-rules";
import { FOLLOWED_MAX_CANDIDATES, FOLLOWED_MAX_TOTAL } from "./discover/source-caps";
import { fetchById } from "./fetch/fetch-rest";
import type { Run } from "./run-state";
import { fetchedRepoId, isReplacement } from "./validate/merge";

/**
 * Published names that answered with another repository (renamed away, the name taken by someone
 * else): the published repository is fetched by its id, so the plugin follows it to its new name.
 */
export async function followReplaced(run: Run, asked: string[]): Promise<void> {
  for (const key of [...asked]) {
    const before = run.previous.plugins.get(key);
    const outcome = run.checkpoint.outcomes.get(key);
    if (!before || !isReplacement(before, outcome)) continue;
    const genuine = await fetchById(run.gh, run.gate, before.repoId!);
    const followed = genuine.kind === "fetched" ? genuine.facts.full_name : null;
    run.log("refresh.replaced", { id: before.id, from: before.repoId, to: fetchedRepoId(outcome), followed });
    if (followed === null || run.checkpoint.outcomes.has(followed.toLowerCase())) continue;
    run.checkpoint.record(followed.toLowerCase(), genuine);
    asked.push(followed.toLowerCase());
  }
}

const ownerOf = (id: string) => id.slice(0, id.indexOf("/")).toLowerCase();

/** The repositories that manifests fetched in this round list and nobody asked for yet: the next round. */
export function followManifests(run: Run, discovery: Discovery, keys: string[], asked: string[]): string[] {
  const seen = new Set(asked);
  const next: string[] = [];
  // A named marketplace's manifest was read in discovery already.
  const named = new Set(run.rules.marketplaces.map((m) => m.repository.toLowerCase()));
  for (const key of keys) {
    const outcome = run.checkpoint.outcomes.get(key);
    if (named.has(key)) continue;
    if (outcome?.kind !== "fetched") continue;
    const source = outcome.facts.full_name;
    const rule = ruleKey.followedFrom(source);
    const ids = (outcome.lists ?? []).filter((id) => id.toLowerCase() !== source.toLowerCase());
    let kept = 0;
    for (const id of ids) {
      const admitted =
        run.caps.admit(rule, id, FOLLOWED_MAX_CANDIDATES) && run.caps.admit(ruleKey.followed, id, FOLLOWED_MAX_TOTAL);
      if (!admitted) continue;
      kept++;
      // A marketplace nobody named vouches only for its own owner's repositories; others need evidence of their own.
      const sameOwner = ownerOf(id) === ownerOf(source);
      addFound(discovery.found, id, ruleKey.followed, sameOwner, null, rule);
      if (!seen.has(id.toLowerCase())) {
        seen.add(id.toLowerCase());
        next.push(id.toLowerCase());
      }
    }
    if (kept < ids.length) {
      run.caps.truncated({ rule, cap: "candidates", size: ids.length, kept });
      run.log("refresh.source_truncated", { rule, cap: "candidates", candidates: ids.length, kept });
    }
  }
  return next;
}
