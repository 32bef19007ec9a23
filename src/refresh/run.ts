/**
 * The refresher: discover → fetch → validate → publish (phases.ts). One run at a time
 * (a lock beside the database); the published snapshot is replaced whole or not at all, so a run
 * that fails, is killed, is refused or runs out of API budget leaves it serving untouched.
 */
import { isOtherProcessRunning, removeLeftovers } from "../base/atomic-write";
import type { Log } from "../base/log";
import { acquireLock, type Lock, LockHeld, lockPath, type SharedLock } from "../base/refresh-lock";
import { categoryInfo, DB_DIR, loadEditorial, loadSynonyms } from "../catalog/model/editorial";
import { loadPolicy } from "../catalog/model/policy-file";
import { readPrevious } from "../catalog/snapshot/previous";
import { DEFAULT_MAX_GROWTH, DEFAULT_OWNER_FILE, DEFAULT_SOURCE_LIMITS, type SourceLimits } from "../settings";
import { packagesPhase, registryListedPhase, remotesPhase, securityPhase } from "./check-phases";
import { Checkpoint } from "./checkpoint";
import type { PackageOptions } from "./checks/packages/package-verifier";
import type { PackageCounts } from "./checks/packages/packages-check";
import type { RemoteOptions } from "./checks/remotes/remote-limits";
import type { RemoteCounts } from "./checks/remotes/remotes-check";
import type { SecurityCounts } from "./checks/security/security-check";
import type { SecurityOptions } from "./checks/security/security-checker";
import { loadDiscoveryRules } from "./discover/discovery-rules";
import type { DiscoverySummary } from "./discover/evidence";
import type { McpRegistryOptions } from "./discover/mcp-registry-source";
import { SourceCaps } from "./discover/source-caps";
import { BudgetExhausted, createGitHub, type Pacing } from "./github/client";
import type { Usage } from "./github/usage";
import { discoverPhase, fetchPhase, loadHints, previousFacts, publishPhase, validatePhase } from "./phases";
import { commitReadsPhase } from "./pinned-reads";
import { createProgress } from "./progress";
import type { Run } from "./run-state";
import { type GateCounts, UpstreamGate } from "./upstream/gate";
import type { PinMismatch } from "./validate/identity";
import type { ChangeSummary } from "./validate/merge";
import { Refused } from "./validate/validate";

/** Rate-limit waits up to five minutes are sat out by default; the hourly reset is not. */
export const DEFAULT_MAX_WAIT_SECONDS = 300;

export interface RefreshOptions {
  databasePath: string;
  apiUrl: string;
  token?: string;
  /** Refuse to publish when the plugin count falls by more than this share (REFRESH_MAX_DROP). */
  maxDrop: number;
  /** Hold newcomers back when they would grow the catalog by more than this share (REFRESH_MAX_GROWTH). */
  maxGrowth?: number;
  /** Each source's caps on new candidates, calls and bytes; DEFAULT_SOURCE_LIMITS where not given. */
  sourceLimits?: Partial<SourceLimits>;
  /** Where discovery.json and the editors' data live; db/ by default. */
  dataDir?: string;
  /** The policy file (POLICY_FILE); none there, or not given: no policy. A bad one fails the run before it fetches. */
  policyPath?: string;
  /** Rate-limit waits up to this long are sat out; a longer one ends the run to finish later. */
  maxWaitSeconds?: number;
  pacing?: Partial<Pacing>;
  log?: Log;
  /** The lock shared by every instance (REDIS_URL), taken after the one beside the database. */
  sharedLock?: SharedLock;
  /** The package registries to check install lines against (NPM_REGISTRY_URL, PYPI_URL); none when absent. */
  registries?: PackageOptions;
  /** deps.dev for Scorecards, advisories and provenance (DEPSDEV_URL); not asked when absent. */
  security?: SecurityOptions;
  /** The official MCP registry as a discovery source (MCP_REGISTRY_URL); not read when absent. */
  mcpRegistry?: McpRegistryOptions;
  /** The owner file's path in each repository (OWNER_FILE); DEFAULT_OWNER_FILE when absent. */
  ownerFile?: string;
  /** How remote MCP servers are asked (REMOTE_PROBE_*); not asked when absent. */
  remotes?: RemoteOptions;
  /** Progress lines for a person; without it progress is logged as events. */
  write?: (line: string) => void;
  now?: () => Date;
}

export interface RunReport {
  resumed: boolean;
  usage: Usage;
  phases: Array<[string, number]>;
  /** What the gate cleaned or left out, by reason. */
  gate: GateCounts;
  /** Renames the run followed (`from` → `to`) are in `summary.renamed`. */
  summary?: ChangeSummary;
  discovery?: DiscoverySummary;
  /** Editors' entries pinned to a repository id their name no longer answers with: not applied. */
  pinMismatches?: PinMismatch[];
  /** Newcomers held back for review (REFRESH_MAX_GROWTH): published plugins were refreshed without them. */
  held?: string[];
  /** Install lines the package registries confirmed, refused or left unknown, and lines derived from package files. */
  packages?: PackageCounts;
  /** Plugins deps.dev scored, did not score or did not answer about, and those with advisories. */
  security?: SecurityCounts;
  /** Remote MCP servers asked, reused from the previous snapshot or left for lack of time, and their statuses. */
  remotes?: RemoteCounts;
  snapshotAt?: string;
  total?: number;
  /** Under a policy: how many of `total` it admits, the only ones served. */
  served?: number;
}

export type RefreshResult =
  | { status: "published"; report: RunReport }
  | { status: "refused"; reason: string; report: RunReport }
  | { status: "incomplete"; reason: string; resetAt: string; report: RunReport }
  | { status: "locked"; reason: string };

/** Runs one refresh unless another one holds the lock. Unexpected failures throw. */
export async function runRefresh(options: RefreshOptions): Promise<RefreshResult> {
  let lock: Lock;
  try {
    lock = acquireLock(lockPath(options.databasePath));
  } catch (error) {
    if (error instanceof LockHeld) return { status: "locked", reason: error.message };
    throw error;
  }
  try {
    const shared = options.sharedLock ? await options.sharedLock.acquire() : null;
    if (shared !== null && "refused" in shared) return { status: "locked", reason: shared.refused };
    try {
      return await refreshLocked(options);
    } finally {
      await shared?.release();
    }
  } finally {
    lock.release();
  }
}

/** The category ids of the editors' data in `dir`: the only ones a policy may name. */
function loadCategoryIds(dir: string): string[] {
  return categoryInfo(loadEditorial(dir)).map((c) => c.id);
}

function prepare(options: RefreshOptions): Run {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const databasePath = options.databasePath;
  const dataDir = options.dataDir ?? DB_DIR;
  // A bad policy fails the run here, before anything is read or fetched: the published snapshot stays.
  const policy = options.policyPath ? loadPolicy(options.policyPath, loadCategoryIds(dataDir)) : null;
  // Files of this very process may be in use (the server copies a snapshot aside in the background).
  const leftovers = removeLeftovers(databasePath, (pid) => pid === process.pid || isOtherProcessRunning(pid));
  if (leftovers.length) log("refresh.leftovers_removed", { files: leftovers });
  const previous = readPrevious(databasePath, log);
  const gh = createGitHub({
    apiUrl: options.apiUrl,
    token: options.token,
    maxWaitSeconds: options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS,
    pacing: options.pacing,
    log,
  });
  const progress = createProgress({ budget: () => gh.usage.budgetText(), write: options.write ?? null, log });
  const { checkpoint } = Checkpoint.open(databasePath, previous.snapshotAt, now(), log);
  const editorial = loadEditorial(dataDir);
  const gate = new UpstreamGate(previousFacts(previous));
  for (const field of editorial.cleaned ?? []) gate.counts.clean("editors' files: invisible characters", field);
  return {
    databasePath,
    maxDrop: options.maxDrop,
    maxGrowth: options.maxGrowth ?? DEFAULT_MAX_GROWTH,
    caps: new SourceCaps({ ...DEFAULT_SOURCE_LIMITS, ...options.sourceLimits }, (key) => previous.plugins.has(key)),
    editorial,
    rules: loadDiscoveryRules(dataDir),
    hints: loadHints(dataDir),
    synonyms: loadSynonyms(dataDir),
    policy,
    previous,
    gh,
    progress,
    checkpoint,
    gate,
    registries: options.registries ?? null,
    security: options.security ?? null,
    mcpRegistry: options.mcpRegistry ?? null,
    ownerFile: options.ownerFile ?? DEFAULT_OWNER_FILE,
    remotes: options.remotes ?? null,
    log,
    now,
  };
}

/** Maps the ways a run ends early to results; anything else is a failure and is rethrown. */
function settle(run: Run, report: RunReport, error: unknown): RefreshResult {
  report.phases = run.progress.timings();
  if (error instanceof BudgetExhausted) {
    run.checkpoint.save();
    run.log("refresh.incomplete", { reason: error.message, fetched: run.checkpoint.outcomes.size });
    return { status: "incomplete", reason: error.message, resetAt: error.resetAt.toISOString(), report };
  }
  if (error instanceof Refused) {
    run.checkpoint.discard();
    run.log("refresh.refused", { reason: error.message });
    return { status: "refused", reason: error.message, report };
  }
  run.checkpoint.saveFailed();
  throw error;
}

async function refreshLocked(options: RefreshOptions): Promise<RefreshResult> {
  const run = prepare(options);
  const resumed = run.checkpoint.discovery !== null || run.checkpoint.outcomes.size > 0;
  const report: RunReport = { resumed, usage: run.gh.usage, phases: [], gate: run.gate.counts };
  run.log("refresh.started", {
    database: run.databasePath,
    token: run.gh.authenticated,
    previous: run.previous.plugins.size,
    resumed,
  });
  try {
    await run.gh.readBudgets();
    const discovery = await discoverPhase(run);
    const asked = await fetchPhase(run, discovery);
    registryListedPhase(run, discovery);
    report.packages = await packagesPhase(run, discovery);
    report.security = await securityPhase(run);
    report.remotes = await remotesPhase(run);
    const candidate = validatePhase(run, discovery, asked);
    const served = publishPhase(run, discovery, candidate, await commitReadsPhase(run, candidate.records));
    if (run.policy) report.served = served;
    const { snapshotAt, records, summary, discovery: rules, pinMismatches, held } = candidate;
    Object.assign(report, { snapshotAt, total: records.length, summary, discovery: rules, pinMismatches, held });
    report.phases = run.progress.timings();
    run.log("refresh.published", {
      snapshotAt: candidate.snapshotAt,
      total: candidate.records.length,
      calls: run.gh.usage.total,
      graphql: run.gh.usage.graphqlKinds(),
    });
    return { status: "published", report };
  } catch (error) {
    return settle(run, report, error);
  }
}
