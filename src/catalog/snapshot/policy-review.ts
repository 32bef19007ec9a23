/**
 * The review of a catalog held to a policy, from the snapshot alone (its `policy_records`): what
 * waits for the operator, and the policy re-applied to every record the snapshot keeps, without
 * fetching anything (`npm run review`, jobs/review.ts).
 */
import { Database } from "bun:sqlite";
import { toRecords } from "../model/classify";
import { carryHistory } from "../model/history";
import { allowEntry, type Policy, policyFingerprint } from "../model/policy";
import { isoMillis } from "../model/time";
import type { CategoryInfo, Editorial, PluginRecord, SnapshotInput, SnapshotStats } from "../model/types";
import { type Changed, updateDiff } from "../model/update-diff";
import { judged, refusalsOf, withPolicy } from "./policy-apply";
import { readPolicyRecords, readPrevious, servedPrevious } from "./previous";
import { publishSnapshot } from "./publish";

/** One thing the operator may act on. */
export type ReviewItem =
  /**
   * Served at its approved commit while the platform's head moved on; `diff`, what the newer
   * reading adds and drops (null when nothing the diff shows changed).
   */
  | { kind: "waiting"; id: string; approved: string; head: string | null; diff: Changed | null }
  /** Kept out by a rule (an update that broke a rule of an admitted plugin shows here too). */
  | { kind: "kept_out"; id: string; rule: string; commit: string | null }
  /** First seen in this snapshot and served because its owner is allowed. */
  | { kind: "new"; id: string; commit: string | null };

const commitOf = (record: PluginRecord) => record.details?.contents?.commit ?? null;

/** What the newer reading of a plugin served at its approved commit adds to the approved one. */
function waitingDiff(approved: PluginRecord, newer: PluginRecord, snapshotAt: string | null): Changed | null {
  if (!approved.details || !newer.details) return null;
  const at = snapshotAt ?? isoMillis(new Date());
  return updateDiff(approved.details, newer.details, at, at);
}

/**
 * What waits for review in the snapshot at `path` (its `policy_records` alone); null when it keeps
 * none. A newcomer counts when `policy` admits it by its owner; without `policy`, every newcomer.
 */
export function reviewList(path: string, policy: Policy | null): ReviewItem[] | null {
  const db = new Database(path, { readonly: true });
  let records: ReturnType<typeof readPolicyRecords>;
  let snapshotAt: string | null;
  try {
    records = readPolicyRecords(db);
    snapshotAt =
      db.query<{ value: string }, []>(`SELECT value FROM meta WHERE key = 'snapshot_at'`).get()?.value ?? null;
  } finally {
    db.close();
  }
  if (records.size === 0) return null;
  const byOwner = (id: string) => {
    const entry = policy === null ? { owner: "" } : allowEntry(policy, id);
    return entry !== null && "owner" in entry;
  };
  const items: ReviewItem[] = [];
  for (const { record, rule, newer } of records.values()) {
    const id = record.id;
    if (newer) {
      const diff = waitingDiff(record, newer, snapshotAt);
      items.push({ kind: "waiting", id, approved: commitOf(record) ?? "", head: commitOf(newer), diff });
    } else if (rule !== null) items.push({ kind: "kept_out", id, rule, commit: commitOf(record) });
    else if (record.first_seen_at === snapshotAt && byOwner(id))
      items.push({ kind: "new", id, commit: commitOf(record) });
  }
  const order = { waiting: 0, kept_out: 1, new: 2 };
  return items.sort((a, b) => order[a.kind] - order[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function meta<T>(db: Database, key: string, fallback: T): T {
  const row = db.query<{ value: string }, [string]>(`SELECT value FROM meta WHERE key = ?`).get(key);
  return row ? (JSON.parse(row.value) as T) : fallback;
}

/** The records of the served rows, made again from their facts and details with the editors' data. */
function servedRecords(previous: ReturnType<typeof readPrevious>, editorial: Editorial): PluginRecord[] {
  const plugins = [...previous.plugins.values()];
  const byId = new Map(plugins.map((p) => [p.id.toLowerCase(), p]));
  return toRecords(
    plugins.map((p) => ({ ...p.facts, database_id: p.repoId })),
    editorial,
    (id) => {
      const p = byId.get(id.toLowerCase());
      return {
        firstSeenAt: p?.firstSeenAt ?? "",
        etag: p?.etag,
        previousIds: p?.previousIds,
        repoId: p?.repoId,
        details: p?.details,
      };
    },
  );
}

/**
 * Re-applies `policy` to every record the snapshot at `path` keeps and publishes the result as a
 * new snapshot at `now`: the latest reading of each plugin judged again, one served at its
 * approved commit carried as before. A snapshot built under no policy keeps no such records: with
 * `editorial`, its served rows are made into records again; without, null (nothing published).
 */
export function reapplyPolicy(
  path: string,
  policy: Policy,
  now = new Date(),
  editorial?: Editorial,
): SnapshotStats | null {
  const previous = readPrevious(path);
  if (previous.policyRecords.size === 0 && editorial === undefined) return null;
  const db = new Database(path, { readonly: true });
  let rest: Omit<SnapshotInput, "snapshotAt" | "plugins" | "history" | "candidates">;
  try {
    rest = {
      categoryIds: meta<string[]>(db, "category_ids", []),
      categories: meta<CategoryInfo[]>(db, "categories", []),
      synonyms: meta<string[][]>(db, "synonyms", []),
      editorialIds: meta<Record<string, number>>(db, "editorial_ids", {}),
      listingRules: meta(db, "listing_rules", undefined),
    };
  } finally {
    db.close();
  }
  const kept = previous.policyRecords.size
    ? [...previous.policyRecords.values()]
    : servedRecords(previous, editorial!).map((record) => ({ record, rule: null, newer: undefined }));
  const latest = kept.map((r) => r.newer ?? r.record);
  const before = new Map(kept.map((r) => [r.record.id.toLowerCase(), r.record.details ?? null]));
  const records = judged(policy, latest, before, refusalsOf(policy, kept));
  const served = records.filter((r) => r.rule === null).map((r) => r.record);
  const snapshotAt = isoMillis(now);
  const history = carryHistory(servedPrevious(previous), served, [], snapshotAt);
  const input = { ...rest, snapshotAt, plugins: served, history, candidates: previous.candidates };
  return publishSnapshot(path, withPolicy(input, policy, records));
}

/** The fingerprint of the policy the snapshot at `path` was built under; null under none. */
function builtUnder(path: string): string | null {
  const db = new Database(path, { readonly: true });
  try {
    return meta<{ fingerprint?: string | null } | null>(db, "policy", null)?.fingerprint ?? null;
  } finally {
    db.close();
  }
}

/**
 * At start: a snapshot built under another policy than `policy`, or under none, is held to it at
 * once (no fetch), so the server never serves what the policy keeps out; true when it published.
 */
export function holdToPolicy(path: string, policy: Policy, editorial: Editorial): boolean {
  if (builtUnder(path) === policyFingerprint(policy)) return false;
  return reapplyPolicy(path, policy, new Date(), editorial) !== null;
}
