/**
 * A policy (catalog/model/policy.ts) applied where a snapshot is made from records: what it keeps
 * out never enters the served tables, so every surface built from them (API, pages, feeds,
 * catalog.json and changes, badges, lookup, the registry's list, the marketplaces) answers only
 * what it admits. Each record kept out gets a listing decision naming the rule, and every record
 * is kept in `policy_records` beside them, for the refresh and the review.
 */
import type { CandidateDecision } from "../model/candidates";
import type { PluginDetails } from "../model/details";
import { approvedCommit, type Policy, policyFingerprint, policyRule } from "../model/policy";
import type { PluginRecord, SnapshotInput } from "../model/types";

/** A record and the rule that keeps it out; null when it is served. */
export interface PolicyRecord {
  record: PluginRecord;
  rule: string | null;
  /** A plugin served at its approved commit: the newer reading at the platform's head, waiting for review. */
  newer?: PluginRecord;
}

/** The rule keeping `record` out, the approved commit's included; null when served. */
export function ruleFor(policy: Policy, record: PluginRecord): string | null {
  const broken = policyRule(policy, record);
  if (broken !== null) return broken;
  const approved = approvedCommit(policy, record.id);
  const read = record.details?.contents?.commit ?? null;
  if (approved === null || read === approved) return null;
  return `allow repo ${record.id} commit ${approved}: read at ${read ?? "an unknown commit"}`;
}

const commitOf = (details: PluginDetails | null | undefined) => details?.contents?.commit ?? null;

/** The rule of a plugin whose approved commit was not read, naming why. */
const notReadRule = (id: string, commit: string, why: string) => `allow repo ${id} commit ${commit}: not read, ${why}`;

/**
 * The refusals the rules of `records` name (notReadRule) for the commit `policy` still approves,
 * by lowercased id: what re-applying a policy without fetching keeps saying.
 */
export function refusalsOf(policy: Policy, records: readonly PolicyRecord[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { record, rule } of records) {
    const approved = approvedCommit(policy, record.id);
    const prefix = approved === null ? null : notReadRule(record.id, approved, "");
    if (prefix !== null && rule?.startsWith(prefix)) out.set(record.id.toLowerCase(), rule.slice(prefix.length));
  }
  return out;
}

/**
 * Every record with its rule under `policy`. A plugin approved at a commit its new reading is not
 * at is served with what its manifests said at that commit when `before` (the previous
 * snapshot's details, by lowercased id) was read there, if that still passes the policy; the new
 * reading waits for review beside it. The repository's own facts (stars, dates) are the new ones.
 * `refused` says, by lowercased id, why reading an approved commit gave nothing (the platform does
 * not know it, say): the rule of a plugin it keeps out names that.
 */
export function judged(
  policy: Policy,
  records: readonly PluginRecord[],
  before: ReadonlyMap<string, PluginDetails | null> = new Map(),
  refused: ReadonlyMap<string, string> = new Map(),
): PolicyRecord[] {
  return records.map((record) => {
    const approved = approvedCommit(policy, record.id);
    const rule = ruleFor(policy, record);
    if (approved === null || commitOf(record.details) === approved) return { record, rule };
    const why = refused.get(record.id.toLowerCase());
    if (why !== undefined && policyRule(policy, record) === null)
      return { record, rule: notReadRule(record.id, approved, why) };
    const details = before.get(record.id.toLowerCase());
    if (commitOf(details) !== approved) return { record, rule };
    const old: PluginRecord = { ...record, details };
    return ruleFor(policy, old) === null ? { record: old, rule: null, newer: record } : { record, rule };
  });
}

/** The listing decision of a record the policy keeps out. */
function policyDecision(record: PluginRecord, rule: string, checkedAt: string): CandidateDecision {
  return {
    id: record.id,
    repo_id: record.repo_id,
    decision: "policy",
    detail: rule,
    found_by: [],
    evidence: null,
    stars: record.stars,
    current_id: null,
    checked_at: checkedAt,
  };
}

/**
 * `input` with only the records `policy` admits, the others' decisions naming their rule, and
 * every record kept for the refresh and the review; `input` itself when there is no policy, so
 * a catalog without one is built exactly as before. `records`, when given, are the records judged
 * already (the refresh's, whose served ones are `input.plugins`).
 */
export function withPolicy(input: SnapshotInput, policy: Policy | null, records?: PolicyRecord[]): SnapshotInput {
  if (policy === null) return input;
  const all = records ?? judged(policy, input.plugins);
  const held = all.filter((r) => r.rule !== null);
  const heldIds = new Set(held.map((r) => r.record.id.toLowerCase()));
  const decisions = held.map((r) => policyDecision(r.record, r.rule!, input.snapshotAt));
  // A decision of an earlier policy is stale once the plugin is served again.
  const others = (input.candidates ?? []).filter((d) => !heldIds.has(d.id.toLowerCase()) && d.decision !== "policy");
  return {
    ...input,
    plugins: all.filter((r) => r.rule === null).map((r) => r.record),
    candidates: [...decisions, ...others],
    policyRecords: all,
    policyFingerprint: policyFingerprint(policy),
  };
}
