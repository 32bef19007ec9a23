/**
 * Turns the run's outcomes into the next catalog's facts: follows renames (the plugin keeps its
 * history, first_seen_at included, under the new id), drops what is gone, carries first_seen_at
 * and ETags over, and counts what changed. A plugin is its repository: the platform's numeric id
 * decides what is carried, so a known name answering with another id is a new repository
 * (`replaced`), and the repository that had the id is the plugin, whatever its name now.
 */

import type { RecordContext } from "../../catalog/model/classify";
import type { PluginRecord, RepoFacts } from "../../catalog/model/types";
import { fullView } from "../../catalog/model/views";
import type { PreviousCatalog, PreviousPlugin } from "../../catalog/snapshot/previous";
import type { Outcome } from "../fetch/outcome";

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

/** A published name now held by another repository: `from` is the published repository id, `to` the new one. */
export interface Replacement {
  id: string;
  from: number;
  to: number;
}

export interface ChangeSummary {
  added: string[];
  removed: Removal[];
  renamed: Array<{ from: string; to: string }>;
  /** Names a stranger's repository took over; the genuine one is followed by id (see `renamed`). */
  replaced: Replacement[];
  changed: number;
  unchanged: number;
}

/** The repository id of a fetched outcome, when the platform gave one. */
export function fetchedRepoId(outcome: Outcome | undefined): number | null {
  return outcome?.kind === "fetched" ? (outcome.facts.database_id ?? null) : null;
}

/** Whether `outcome`, asked for under a published name, answers with another repository than the published one. */
export function isReplacement(before: PreviousPlugin | undefined, outcome: Outcome | undefined): boolean {
  const now = fetchedRepoId(outcome);
  return before !== undefined && before.repoId !== null && now !== null && now !== before.repoId;
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
  return before?.etag && sameFacts(facts, before.facts) ? before.etag : null;
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
  const byRepoId = new Map<number, PreviousPlugin>();
  for (const plugin of previous.plugins.values()) if (plugin.repoId !== null) byRepoId.set(plugin.repoId, plugin);
  /** The published plugin that is this repository: by its id when known, else by name. */
  const same = (p: PreviousPlugin | undefined, id: number | null) =>
    p && (id === null || p.repoId === null || p.repoId === id) ? p : undefined;
  for (const [asked, outcome] of outcomes) {
    let before = previous.plugins.get(asked);
    const repoId = fetchedRepoId(outcome);
    if (isReplacement(before, outcome)) before = undefined;
    if (repoId !== null) before ??= byRepoId.get(repoId);
    if (outcome.kind === "gone") {
      if (before) merged.gone.push({ id: before.id, reason: outcome.reason });
      else merged.unresolved.push(asked);
      continue;
    }
    if (outcome.kind === "unchanged" && !before)
      throw new Error(`${asked}: not modified, but not in the published snapshot`);
    const facts = outcome.kind === "unchanged" ? before!.facts : outcome.facts;
    const key = facts.full_name.toLowerCase();
    const renamed = before !== undefined && key !== before.id.toLowerCase();
    if (renamed && !merged.renamed.some((r) => r.from === before!.id && r.to.toLowerCase() === key)) {
      merged.renamed.push({ from: before!.id, to: facts.full_name });
    }
    const target = same(previous.plugins.get(key), repoId);
    const firstSeen = earliest(contexts.get(key)?.firstSeenAt, before?.firstSeenAt, target?.firstSeenAt) ?? snapshotAt;
    if (!byId.has(key)) byId.set(key, { ...facts, hint: hints.get(asked) ?? hints.get(key) ?? null });
    const formerIds = [
      ...(contexts.get(key)?.previousIds ?? []),
      ...(before?.previousIds ?? []),
      ...(target?.previousIds ?? []),
    ];
    if (renamed) formerIds.push(before!.id);
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

/** What the new records change against the published snapshot; `byOwner`: ids whose owner file excludes them. */
export function summarize(
  previous: PreviousCatalog,
  records: PluginRecord[],
  merged: Merged,
  replacements: Replacement[],
  byOwner: ReadonlySet<string> = new Set(),
): ChangeSummary {
  const renamedTo = new Map(merged.renamed.map((r) => [r.to.toLowerCase(), r.from.toLowerCase()]));
  const kept = new Set<string>();
  const replaced = new Set(replacements.map((r) => r.id.toLowerCase()));
  const summary: ChangeSummary = {
    added: [],
    removed: [],
    renamed: merged.renamed,
    replaced: replacements,
    changed: 0,
    unchanged: 0,
  };
  for (const record of records) {
    const key = record.id.toLowerCase();
    const atName = replaced.has(key) ? undefined : previous.plugins.get(key);
    const before = atName ?? previous.plugins.get(renamedTo.get(key) ?? "");
    if (!replaced.has(key)) kept.add(key);
    if (renamedTo.has(key)) kept.add(renamedTo.get(key)!);
    if (!before) summary.added.push(record.id);
    else if (JSON.stringify(fullView(record)) === before.json) summary.unchanged++;
    else summary.changed++;
  }
  const reasons = new Map(merged.gone.map((g) => [g.id.toLowerCase(), g.reason]));
  for (const r of replacements) reasons.set(r.id.toLowerCase(), `name taken by repository ${r.to}`);
  for (const key of byOwner) reasons.set(key, "excluded by its owner");
  for (const [key, before] of previous.plugins) {
    if (!kept.has(key)) summary.removed.push({ id: before.id, reason: reasons.get(key) ?? "excluded or invalid" });
  }
  return summary;
}
