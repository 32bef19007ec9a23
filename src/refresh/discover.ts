/**
 * Discovery: which repositories the catalog should hold. Runs the rules of db/discovery.json,
 * incrementally where it can: a repository search then asks only for repositories pushed since its
 * last run (a day of overlap covers the search index's lag), and every `fullEveryDays` it runs over
 * everything again, code searches included, to catch older repositories that joined a topic.
 */
import type { RestRepo } from "./facts";
import type { GitHub, Log } from "./github";
import type { DiscoveryRules } from "./rules";
import { searchCode, searchRepositories, SEARCH_EPOCH } from "./githubsearch";

const DAY_MS = 86_400_000;

/** When each rule last ran, and ran in full; kept beside the database, valid for the snapshot it names. */
export interface DiscoveryState {
  snapshotAt: string | null;
  rules: Record<string, { runAt: string; fullAt: string }>;
}

export interface Found {
  id: string;
  /** The search result's repository object: as fresh as a fetch, so it needs none. */
  repo: RestRepo | null;
}

export interface Discovery {
  /** Keyed by lowercased id. */
  found: Map<string, Found>;
  /** The state to save once the snapshot built from this discovery is published. */
  state: DiscoveryState["rules"];
}

export interface DiscoverOptions {
  rules: DiscoveryRules;
  /** The saved state; ignored unless it belongs to the snapshot being refreshed. */
  state: DiscoveryState | null;
  previousSnapshotAt: string | null;
  now: Date;
  log: Log;
  onStep: (done: number, total: number, found: number) => void;
}

function add(found: Map<string, Found>, id: string, repo: RestRepo | null): void {
  const key = id.toLowerCase();
  if (!found.has(key) || (repo && !found.get(key)!.repo)) found.set(key, { id, repo });
}

type RuleStates = DiscoveryState["rules"];

/** One repository search: incremental (pushed since its last run) unless a full run is due. */
async function runSearch(gh: GitHub, options: DiscoverOptions, saved: RuleStates, query: string, found: Map<string, Found>): Promise<RuleStates[string]> {
  const key = `search:${query}`;
  const now = options.now;
  const full = isFullDue(saved[key], options);
  const pushedSince = full ? null : new Date(Date.parse(saved[key]!.runAt) - DAY_MS);
  const result = await searchRepositories(gh, { query, pushedSince, from: SEARCH_EPOCH, to: now });
  for (const repo of result.items) add(found, repo.full_name, repo);
  if (result.overfull.length) options.log("refresh.search_overfull", { query, windows: result.overfull });
  if (result.incomplete) options.log("refresh.search_incomplete", { query });
  return { runAt: now.toISOString(), fullAt: full ? now.toISOString() : saved[key]!.fullAt };
}

function isFullDue(state: RuleStates[string] | undefined, options: DiscoverOptions): boolean {
  return !state?.fullAt || options.now.getTime() - Date.parse(state.fullAt) >= options.rules.fullEveryDays * DAY_MS;
}

/** Runs every rule that is due; throws what the platform throws (the caller maps budget errors). */
export async function discover(gh: GitHub, options: DiscoverOptions): Promise<Discovery> {
  const { rules, now } = options;
  const saved: RuleStates = options.state?.snapshotAt === options.previousSnapshotAt ? options.state?.rules ?? {} : {};
  const state: RuleStates = {};
  const found = new Map<string, Found>();
  for (const id of rules.repositories) add(found, id, null);
  // Code search cannot ask for what changed since, so it runs only in full runs.
  const codeDue = rules.code.filter((r) => isFullDue(saved[`code:${r.query}`], options));
  const total = rules.searches.length + codeDue.length;
  let done = 0;
  for (const rule of rules.searches) {
    state[`search:${rule.query}`] = await runSearch(gh, options, saved, rule.query, found);
    options.onStep(++done, total, found.size);
  }
  for (const rule of rules.code) {
    const key = `code:${rule.query}`;
    if (!codeDue.includes(rule)) {
      if (saved[key]) state[key] = saved[key];
      continue;
    }
    if (gh.authenticated) {
      for (const id of await searchCode(gh, rule.query)) add(found, id, null);
      state[key] = { runAt: now.toISOString(), fullAt: now.toISOString() };
    } else {
      // The platform's code search requires a token.
      options.log("refresh.code_search_skipped", { query: rule.query, reason: "needs GITHUB_TOKEN" });
    }
    options.onStep(++done, total, found.size);
  }
  return { found, state };
}
