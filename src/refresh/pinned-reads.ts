/**
 * Under a policy: the plugins approved at a commit that neither this run nor the previous snapshot
 * read there (a first approval of a repository whose head moved on, an approval of an older
 * commit) are read at that commit from the platform, a few per run, with a token only (without
 * one, each is refused with that reason). What they
 * give is served in place of the head's reading (catalog/snapshot/policy-apply.ts `judged`).
 */
import type { PluginDetails } from "../catalog/model/details";
import { approvedCommit } from "../catalog/model/policy";
import type { PluginRecord } from "../catalog/model/types";
import { type CommitReading, fetchAtCommit } from "./fetch/fetch-at-commit";
import { BudgetExhausted } from "./github/client";
import { ManifestReader } from "./manifests/reader";
import type { Run } from "./run-state";

/** Approved commits read from the platform in one run at most; the rest wait for the next run. */
export const MAX_COMMIT_READS = 5;

/** The readings at approved commits, by lowercased id: details to serve, or why there are none. */
export type CommitReadings = Map<string, CommitReading>;

const commitOf = (details: PluginDetails | null | undefined) => details?.contents?.commit ?? null;

/** The records of `records` approved at a commit no reading is at, with that commit. */
function unread(run: Run, records: readonly PluginRecord[]): Array<{ id: string; commit: string }> {
  const out: Array<{ id: string; commit: string }> = [];
  for (const record of records) {
    const commit = run.policy ? approvedCommit(run.policy, record.id) : null;
    if (commit === null || commitOf(record.details) === commit) continue;
    if (commitOf(run.previous.plugins.get(record.id.toLowerCase())?.details) === commit) continue;
    out.push({ id: record.id, commit });
  }
  return out;
}

/** Reads the approved commits this run needs, up to MAX_COMMIT_READS; logs each (`refresh.commit_read`). */
export async function commitReadsPhase(run: Run, records: readonly PluginRecord[]): Promise<CommitReadings> {
  const readings: CommitReadings = new Map();
  if (run.policy === null) return readings;
  const todo = unread(run, records);
  if (todo.length === 0) return readings;
  if (!run.gh.authenticated) {
    const reason = "reading at a commit needs a token (GITHUB_TOKEN)";
    for (const { id } of todo) readings.set(id.toLowerCase(), { kind: "refused", reason });
    return readings;
  }
  run.progress.phase("commits", "approved commits");
  const manifests = new ManifestReader(run.gate.counts, run.rules.evidence, run.ownerFile);
  const options = { gate: run.gate, files: run.rules.evidence.files, manifests };
  for (const [i, { id, commit }] of todo.slice(0, MAX_COMMIT_READS).entries()) {
    const reading = await fetchAtCommit(run.gh, id, commit, options).catch((error: unknown): CommitReading => {
      // An exhausted budget stops the run as anywhere; any other failure is this commit's alone.
      if (error instanceof BudgetExhausted) throw error;
      run.log("refresh.commit_read_failed", { id, commit, error: String((error as Error)?.message).slice(0, 200) });
      return { kind: "refused", reason: `reading at ${commit} failed; it is tried again at the next run` };
    });
    readings.set(id.toLowerCase(), reading);
    run.log("refresh.commit_read", {
      id,
      commit,
      ...(reading.kind === "refused" ? { refused: reading.reason } : { read: true }),
    });
    run.progress.update(i + 1, Math.min(todo.length, MAX_COMMIT_READS));
  }
  if (todo.length > MAX_COMMIT_READS) run.log("refresh.commit_reads_left", { ids: todo.slice(MAX_COMMIT_READS) });
  return readings;
}

/**
 * Sets each reading of `readings` as the earlier reading (`before`, by lowercased id) `judged`
 * serves at its approved commit, with the repository's own facts (security, the owner's
 * verification, the latest release, the fork) of the head's reading, which are not the commit's;
 * answers the refusals (why a commit gave nothing), by lowercased id.
 */
export function useCommitReadings(
  before: Map<string, PluginDetails | null>,
  records: readonly PluginRecord[],
  readings: CommitReadings,
): Map<string, string> {
  const refused = new Map<string, string>();
  for (const record of records) {
    const key = record.id.toLowerCase();
    const reading = readings.get(key);
    if (reading === undefined) continue;
    if (reading.kind === "refused") {
      refused.set(key, reading.reason);
      continue;
    }
    const head = record.details;
    const { security: _s, owner_verified: _o, canonical: _c, ...own } = reading.details;
    const repository = head
      ? { security: head.security, owner_verified: head.owner_verified, canonical: head.canonical }
      : {};
    const details: PluginDetails = { ...own, latest_release: head?.latest_release ?? own.latest_release };
    if (head) details.fork_of = head.fork_of;
    for (const [field, value] of Object.entries(repository))
      if (value !== undefined) Object.assign(details, { [field]: value });
    before.set(key, details);
  }
  return refused;
}
