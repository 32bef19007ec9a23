/**
 * Discovery: which repositories may be plugins. Runs the rules of db/discovery.json, incrementally
 * where it can: a repository search then asks only for repositories pushed since its last run (a
 * day of overlap covers the search index's lag), and every `fullEveryDays` it runs over everything
 * again, code searches included. Curated lists and named marketplaces are read on every run (one
 * call each). What a search finds is a candidate; what a list or marketplace names is listed, which
 * is evidence on its own (see evidence.ts).
 */
import type { RepoFacts } from "../catalog/types";
import { fromRest } from "./facts";
import { type GitHub, type Log, statusOf } from "./github";
import { type CappedSlice, SEARCH_EPOCH, searchCode, searchRepositories } from "./githubsearch";
import { listedInManifest, listedInMarkdown } from "./listings";
import { type DiscoveryRules, ruleKey } from "./rules";
import type { UpstreamGate } from "./upstream";

const DAY_MS = 86_400_000;
export const MARKETPLACE_MANIFEST = ".claude-plugin/marketplace.json";

/** When each rule last ran, and ran in full; kept beside the database, valid for the snapshot it names. */
export interface DiscoveryState {
  snapshotAt: string | null;
  rules: Record<string, { runAt: string; fullAt: string }>;
}

export interface Found {
  id: string;
  /** The search item's facts, through the gate: as fresh as a fetch. */
  facts: RepoFacts | null;
  /** Keys of the rules that found it. */
  rules: string[];
  /** Keys of the rules that list it (a curated list, a marketplace, the editors' list): evidence. */
  listed: string[];
}

export interface Discovery {
  /** Keyed by lowercased id. */
  found: Map<string, Found>;
  /** The state to save once the snapshot built from this discovery is published. */
  state: DiscoveryState["rules"];
  /** Search slices that matched more than the cap even after splitting, by rule. */
  capped: Array<CappedSlice & { rule: string }>;
}

export interface DiscoverOptions {
  rules: DiscoveryRules;
  /** The saved state; ignored unless it belongs to the snapshot being refreshed. */
  state: DiscoveryState | null;
  previousSnapshotAt: string | null;
  now: Date;
  log: Log;
  gate: UpstreamGate;
  onStep: (done: number, total: number, found: number) => void;
}

/** Adds `id` as found by `rule` (and listed by it when `listed`). */
export function addFound(
  found: Map<string, Found>,
  id: string,
  rule: string,
  listed: boolean,
  facts: RepoFacts | null = null,
): Found {
  const key = id.toLowerCase();
  const entry = found.get(key) ?? { id, facts: null, rules: [], listed: [] };
  entry.facts ??= facts;
  if (!entry.rules.includes(rule)) entry.rules.push(rule);
  if (listed && !entry.listed.includes(rule)) entry.listed.push(rule);
  found.set(key, entry);
  return entry;
}

type RuleStates = DiscoveryState["rules"];

function isFullDue(state: RuleStates[string] | undefined, options: DiscoverOptions): boolean {
  return !state?.fullAt || options.now.getTime() - Date.parse(state.fullAt) >= options.rules.fullEveryDays * DAY_MS;
}

/** A file of a repository through the contents API; null when it is not there. */
export async function readContents(gh: GitHub, id: string, path: string): Promise<string | null> {
  const [owner, repo] = id.split("/") as [string, string];
  try {
    const { data } = await gh.octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner, repo, path });
    const file = data as { content?: unknown; encoding?: unknown };
    if (typeof file.content !== "string" || file.encoding !== "base64") return null;
    return Buffer.from(file.content, "base64").toString("utf8");
  } catch (error) {
    const budget = gh.budgetError(error);
    if (budget !== error) throw budget;
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

class Discoverer {
  readonly found = new Map<string, Found>();
  readonly state: RuleStates = {};
  readonly capped: Discovery["capped"] = [];
  private readonly saved: RuleStates;

  constructor(
    private readonly gh: GitHub,
    private readonly options: DiscoverOptions,
  ) {
    const { state, previousSnapshotAt } = options;
    this.saved = state?.snapshotAt === previousSnapshotAt ? (state?.rules ?? {}) : {};
  }

  /** One repository search: incremental (pushed since its last run) unless a full run is due. */
  async search(query: string): Promise<void> {
    const key = ruleKey.search(query);
    const { now, gate } = this.options;
    const full = isFullDue(this.saved[key], this.options);
    const pushedSince = full ? null : new Date(Date.parse(this.saved[key]!.runAt) - DAY_MS);
    const result = await searchRepositories(this.gh, { query, pushedSince, from: SEARCH_EPOCH, to: now });
    for (const item of result.items) {
      const facts = gate.facts(fromRest(item as Record<string, unknown>));
      if (facts) addFound(this.found, facts.full_name, key, false, facts);
    }
    this.report(key, result.capped, result.incomplete);
    this.state[key] = { runAt: now.toISOString(), fullAt: full ? now.toISOString() : this.saved[key]!.fullAt };
  }

  /** One code search (full runs only: it cannot ask for what changed since). */
  async code(query: string): Promise<void> {
    const key = ruleKey.code(query);
    const result = await searchCode(this.gh, query);
    for (const item of result.items) {
      const id = this.options.gate.id((item.repository as { full_name?: unknown } | null)?.full_name, key);
      if (id) addFound(this.found, id, key, false);
    }
    this.report(key, result.capped, result.incomplete);
    this.state[key] = { runAt: this.options.now.toISOString(), fullAt: this.options.now.toISOString() };
  }

  /** A named marketplace: itself and every repository its manifest lists. */
  async marketplace(repository: string): Promise<void> {
    const key = ruleKey.marketplace(repository);
    addFound(this.found, repository, key, true);
    const text = await readContents(this.gh, repository, MARKETPLACE_MANIFEST);
    if (text === null) this.options.log("refresh.listing_missing", { rule: key });
    for (const id of listedInManifest(text ?? "", this.options.gate, key)) addFound(this.found, id, key, true);
  }

  /** A curated list: every repository its Markdown links to. */
  async list(repository: string, path: string): Promise<void> {
    const key = ruleKey.list(repository, path);
    const text = await readContents(this.gh, repository, path);
    if (text === null) this.options.log("refresh.listing_missing", { rule: key });
    for (const id of listedInMarkdown(text ?? "", this.options.gate, key)) {
      if (id.toLowerCase() !== repository.toLowerCase()) addFound(this.found, id, key, true);
    }
  }

  keep(key: string): void {
    if (this.saved[key]) this.state[key] = this.saved[key];
  }

  isDue(key: string): boolean {
    return isFullDue(this.saved[key], this.options);
  }

  private report(rule: string, capped: CappedSlice[], incomplete: boolean): void {
    for (const slice of capped) {
      this.capped.push({ ...slice, rule });
      this.options.log("refresh.search_capped", { rule, query: slice.query, count: slice.count });
    }
    if (incomplete) this.options.log("refresh.search_incomplete", { rule });
  }
}

/** Runs every rule that is due; throws what the platform throws (the caller maps budget errors). */
export async function discover(gh: GitHub, options: DiscoverOptions): Promise<Discovery> {
  const { rules } = options;
  const run = new Discoverer(gh, options);
  for (const id of rules.repositories) addFound(run.found, id, ruleKey.repositories, true);
  const steps: Array<() => Promise<void>> = [];
  if (gh.authenticated) {
    steps.push(...rules.lists.map((r) => () => run.list(r.repository, r.path)));
    steps.push(...rules.marketplaces.map((r) => () => run.marketplace(r.repository)));
  } else if (rules.lists.length + rules.marketplaces.length > 0) {
    // Each listed newcomer would cost a call of its own, at 60 calls an hour without a token.
    options.log("refresh.listings_skipped", { reason: "needs GITHUB_TOKEN" });
  }
  steps.push(...rules.searches.map((r) => () => run.search(r.query)));
  for (const rule of rules.code) {
    const key = ruleKey.code(rule.query);
    if (!run.isDue(key)) run.keep(key);
    // The platform's code search requires a token.
    else if (!gh.authenticated) {
      options.log("refresh.code_search_skipped", { query: rule.query, reason: "needs GITHUB_TOKEN" });
    } else steps.push(() => run.code(rule.query));
  }
  for (const [i, step] of steps.entries()) {
    await step();
    options.onStep(i + 1, steps.length, run.found.size);
  }
  return { found: run.found, state: run.state, capped: run.capped };
}
