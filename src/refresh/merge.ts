/**
 * Turns the run's outcomes into the next catalog's facts: follows renames (the plugin keeps its
 * history, first_seen_at included, under the new id), drops what is gone, carries first_seen_at
 * and ETags over, and counts what changed.
 */

import type { RecordContext } from "../catalog/classify";
import type { PreviousCatalog, PreviousPlugin } from "../catalog/previous";
import type { PluginRecord, RepoFacts } from "../catalog/types";
import { fullView } from "../catalog/views";
import { fromView } from "./facts";
import type { Outcome } from "./outcome";

export interface Removal {
  id: string;
  reason: string;
}

export interface Merged {
  facts: RepoFacts[];
  /** first_seen_at and ETag by lowercased new id. */
  contexts: Map<string, RecordContext>;
  renamed: Array<{ from: string; to: string }>;
  /** Published plugins whose repository is gone. */
  gone: Removal[];
  /** Discovered or listed ids that do not resolve (a typo in the list, a search index lagging a deletion). */
  unresolved: string[];
}

export interface ChangeSummary {
  added: string[];
  removed: Removal[];
  renamed: Array<{ from: string; to: string }>;
  changed: number;
  unchanged: number;
}

function sameFacts(a: RepoFacts, b: RepoFacts): boolean {
  const key = (f: RepoFacts) =>
    JSON.stringify([
      f.full_name,
      f.description ?? "",
      f.homepage,
      f.stars,
      f.forks,
      f.language ?? "",
      f.license ?? "",
      f.archived ?? false,
      f.created_at,
      f.pushed_at,
      f.topics ?? [],
    ]);
  return key(a) === key(b);
}

function earliest(...times: Array<string | undefined>): string | undefined {
  return times.filter((t): t is string => t !== undefined).sort()[0];
}

/** The ETag to keep: the platform's new one, or the published one while the facts are what it described. */
function etagFor(outcome: Outcome, facts: RepoFacts, before: PreviousPlugin | undefined): string | null {
  if (outcome.kind === "unchanged") return outcome.etag;
  if (outcome.kind === "fetched" && outcome.etag) return outcome.etag;
  return before?.etag && sameFacts(facts, fromView(before.view)) ? before.etag : null;
}

/**
 * Merges outcomes (keyed by the lowercased id asked for, in catalog order) over the previous catalog.
 * `hints` are the source lists' labels by lowercased id, a weak classification hint kept across runs.
 */
export function mergeOutcomes(
  previous: PreviousCatalog,
  outcomes: Array<[string, Outcome]>,
  hints: ReadonlyMap<string, string | null>,
  snapshotAt: string,
): Merged {
  const byId = new Map<string, RepoFacts>();
  const contexts = new Map<string, RecordContext>();
  const merged: Merged = { facts: [], contexts, renamed: [], gone: [], unresolved: [] };
  for (const [asked, outcome] of outcomes) {
    const before = previous.plugins.get(asked);
    if (outcome.kind === "gone") {
      if (before) merged.gone.push({ id: before.view.id, reason: outcome.reason });
      else merged.unresolved.push(asked);
      continue;
    }
    if (outcome.kind === "unchanged" && !before)
      throw new Error(`${asked}: not modified, but not in the published snapshot`);
    const facts = outcome.kind === "unchanged" ? fromView(before!.view) : outcome.facts;
    const key = facts.full_name.toLowerCase();
    if (key !== asked && before) merged.renamed.push({ from: before.view.id, to: facts.full_name });
    const target = previous.plugins.get(key);
    const firstSeen = earliest(contexts.get(key)?.firstSeenAt, before?.firstSeenAt, target?.firstSeenAt) ?? snapshotAt;
    if (!byId.has(key)) byId.set(key, { ...facts, hint: hints.get(asked) ?? hints.get(key) ?? null });
    const formerIds = [
      ...(contexts.get(key)?.previousIds ?? []),
      ...(before?.previousIds ?? []),
      ...(target?.previousIds ?? []),
    ];
    if (key !== asked && before) formerIds.push(before.view.id);
    contexts.set(key, {
      firstSeenAt: firstSeen,
      etag: contexts.get(key)?.etag ?? etagFor(outcome, facts, target ?? before),
      repoId: contexts.get(key)?.repoId ?? (target ?? before)?.repoId ?? null,
      // Manifests read this run win; a 304 or a fetch without a token keeps what was published.
      details:
        (outcome.kind === "fetched" ? outcome.details : undefined) ??
        contexts.get(key)?.details ??
        (target ?? before)?.details ??
        null,
      previousIds: [
        ...new Map(formerIds.filter((id) => id.toLowerCase() !== key).map((id) => [id.toLowerCase(), id])).values(),
      ],
    });
  }
  merged.facts = [...byId.values()];
  return merged;
}

/** What the new records change against the published snapshot. */
export function summarize(previous: PreviousCatalog, records: PluginRecord[], merged: Merged): ChangeSummary {
  const renamedTo = new Map(merged.renamed.map((r) => [r.to.toLowerCase(), r.from.toLowerCase()]));
  const kept = new Set<string>();
  const summary: ChangeSummary = { added: [], removed: [], renamed: merged.renamed, changed: 0, unchanged: 0 };
  for (const record of records) {
    const key = record.id.toLowerCase();
    const before = previous.plugins.get(key) ?? previous.plugins.get(renamedTo.get(key) ?? "");
    kept.add(key);
    if (renamedTo.has(key)) kept.add(renamedTo.get(key)!);
    if (!before) summary.added.push(record.id);
    else if (JSON.stringify(fullView(record)) === before.json) summary.unchanged++;
    else summary.changed++;
  }
  const reasons = new Map(merged.gone.map((g) => [g.id.toLowerCase(), g.reason]));
  for (const [key, before] of previous.plugins) {
    if (!kept.has(key)) summary.removed.push({ id: before.view.id, reason: reasons.get(key) ?? "excluded or invalid" });
  }
  return summary;
}
