/**
 * Discovery: which repositories may be plugins. Runs the rules of db/discovery.json, incrementally
 * where it can: a repository search then asks only for repositories pushed since its last run (a
 * day of overlap covers the search index's lag), and every `fullEveryDays` it runs over everything
 * again, code searches included. Curated lists and named marketplaces are read on every run (one
 * call each). What a search finds is a candidate; what a list or marketplace names is listed, which
 * is evidence within the source's vouches (see evidence.ts, source-caps.ts). Every source adds, spends and
 * reads within its caps (source-caps.ts).
 */

import type { Log } from "../../base/log";
import { DAY_MS } from "../../catalog/model/time";
import type { RepoFacts } from "../../catalog/model/types";
import type { GitHub } from "../github/client";
import { readContents } from "../github/contents";
import { type CappedSlice, SEARCH_EPOCH, searchCode, searchRepositories } from "../github/search";
import type { UpstreamGate } from "../upstream/gate";
import { fromRest } from "../upstream/repo-facts";
import { type DiscoveryRules, ruleKey } from "./discovery-rules";
import { listedInManifest, listedInMarkdown } from "./lists";
import { keepRegistryNames, type McpRegistryOptions, readMcpRegistry } from "./mcp-registry-source";
import type { SourceCaps, Truncation } from "./source-caps";

export const MARKETPLACE_MANIFEST = ".claude-plugin/marketplace.json";

/** When each rule last ran, and ran in full; kept beside the database, valid for the snapshot it names. */
export interface DiscoveryState {
  snapshotAt: string | null;
  /** `since`: the MCP registry's high-water mark, the `updated_since` of its next read. */
  rules: Record<string, { runAt: string; fullAt: string; since?: string }>;
}

export interface Found {
  id: string;
  /** The search item's facts, through the gate: as fresh as a fetch. */
  facts: RepoFacts | null;
  /** Keys of the rules that found it. */
  rules: string[];
  /** Keys of the rules that list it (a curated list, a marketplace, the editors' list): evidence. */
  listed: string[];
  /** The names the official MCP registry lists with its URL (mcp-registry-source.ts); not evidence. */
  registryNames?: string[];
  /** The packages its owner's `io.github.` records there list (mcp-registry-source.ts): proof of them. */
  registryPackages?: string[];
}

export interface Discovery {
  /** Keyed by lowercased id. */
  found: Map<string, Found>;
  /** The state to save once the snapshot built from this discovery is published. */
  state: DiscoveryState["rules"];
  /** Search slices that matched more than the cap even after splitting, by rule. */
  capped: Array<CappedSlice & { rule: string }>;
  /** Sources cut short by one of their caps (candidates, calls, bytes). */
  truncated?: Truncation[];
  /** Lowercased ids only a source past its candidate cap named, by that source's rule. */
  overCap?: Record<string, string>;
}

export interface DiscoverOptions {
  rules: DiscoveryRules;
  /** The saved state; ignored unless it belongs to the snapshot being refreshed. */
  state: DiscoveryState | null;
  previousSnapshotAt: string | null;
  now: Date;
  log: Log;
  gate: UpstreamGate;
  /** Each source's caps on new candidates, calls and bytes. */
  caps: SourceCaps;
  /** The official MCP registry as a source; null or absent: not read. */
  mcpRegistry?: McpRegistryOptions | null;
  onStep: (done: number, total: number, found: number) => void;
}

/** Adds `id` as found by `rule` (and listed by it, as `listedAs`, when `listed`). */
export function addFound(
  found: Map<string, Found>,
  id: string,
  rule: string,
  listed: boolean,
  facts: RepoFacts | null = null,
  listedAs = rule,
): Found {
  const key = id.toLowerCase();
  const entry = found.get(key) ?? { id, facts: null, rules: [], listed: [] };
  entry.facts ??= facts;
  if (!entry.rules.includes(rule)) entry.rules.push(rule);
  if (listed && !entry.listed.includes(listedAs)) entry.listed.push(listedAs);
  found.set(key, entry);
  return entry;
}

type RuleStates = DiscoveryState["rules"];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

function isFullDue(state: RuleStates[string] | undefined, options: DiscoverOptions): boolean {
  return !state?.fullAt || options.now.getTime() - Date.parse(state.fullAt) >= options.rules.fullEveryDays * DAY_MS;
}

class Discoverer {
  readonly found = new Map<string, Found>();
  readonly state: RuleStates = {};
  readonly capped: Discovery["capped"] = [];
  readonly truncated: Truncation[] = [];
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
    const search = { query, pushedSince, from: SEARCH_EPOCH, to: now };
    const result = await searchRepositories(this.gh, search, this.options.caps.limits.maxCalls);
    const ids: string[] = [];
    const facts = new Map<string, RepoFacts>();
    for (const item of result.items) {
      const cleaned = gate.facts(fromRest(item as Record<string, unknown>));
      if (cleaned) ids.push(cleaned.full_name);
      if (cleaned) facts.set(cleaned.full_name.toLowerCase(), cleaned);
    }
    this.addAll(key, ids, false, (id) => facts.get(id.toLowerCase()) ?? null);
    this.report(key, result.capped, result.incomplete, result);
    this.state[key] = { runAt: now.toISOString(), fullAt: full ? now.toISOString() : this.saved[key]!.fullAt };
  }

  /** One code search (full runs only: it cannot ask for what changed since). */
  async code(query: string): Promise<void> {
    const key = ruleKey.code(query);
    const result = await searchCode(this.gh, query, this.options.caps.limits.maxCalls);
    const ids: string[] = [];
    for (const item of result.items) {
      const id = this.options.gate.id((item.repository as { full_name?: unknown } | null)?.full_name, key);
      if (id) ids.push(id);
    }
    this.addAll(key, ids, false);
    this.report(key, result.capped, result.incomplete, result);
    this.state[key] = { runAt: this.options.now.toISOString(), fullAt: this.options.now.toISOString() };
  }

  /** A named marketplace: itself and every repository its manifest lists. */
  async marketplace(repository: string): Promise<void> {
    const key = ruleKey.marketplace(repository);
    addFound(this.found, repository, key, true);
    const text = await this.read(key, repository, MARKETPLACE_MANIFEST);
    this.addAll(key, listedInManifest(text, this.options.gate, key), true);
  }

  /** A curated list: every repository its Markdown links to. */
  async list(repository: string, path: string): Promise<void> {
    const key = ruleKey.list(repository, path);
    const text = await this.read(key, repository, path);
    const ids = listedInMarkdown(text, this.options.gate, key);
    this.addAll(
      key,
      ids.filter((id) => id.toLowerCase() !== repository.toLowerCase()),
      true,
    );
  }

  /**
   * The MCP registry: every server changed since the last complete read (all of them when a full
   * run is due), each a candidate that needs evidence of its own (its server.json, a topic), proven
   * publisher or not: the registry checks who published an entry, not what the repository is. An answer that is not
   * one leaves discovery as it was without the registry; a read the page budget cut keeps what it
   * read and the old mark, so the next run reads the rest again.
   */
  async registry(source: McpRegistryOptions): Promise<void> {
    const key = ruleKey.registry(source.url);
    const saved = this.saved[key];
    const now = this.options.now.toISOString();
    // A mark past this run's time (an entry dated ahead) would hide every change until it came: read everything.
    const usable = saved?.since && ISO_UTC.test(saved.since) && saved.since <= now;
    const since = usable && !isFullDue(saved, this.options) ? saved.since! : null;
    const read = await readMcpRegistry(source, since, this.options.gate, key);
    const log = { rule: key, pages: read.pages, servers: read.servers.length, since, reason: read.reason };
    if (read.end === "failed") {
      this.options.log("refresh.registry_unavailable", log);
      this.keep(key);
      return;
    }
    // A lead, not evidence: anyone may publish an entry in their own namespace naming any repository,
    // so each server it names is a candidate admitted on evidence in its own repository alone.
    this.addAll(
      key,
      read.servers.map((s) => s.id),
      false,
    );
    keepRegistryNames(this.found, read.servers);
    this.options.log("refresh.registry_read", log);
    if (read.end === "cut") {
      this.report(key, [], false, { calls: read.pages, cut: true });
      this.keep(key);
      return;
    }
    // The registry's dates are its word: one ahead of this run is taken as now.
    const mark = read.highWater !== null && read.highWater > now ? now : (read.highWater ?? since);
    this.state[key] = { runAt: now, fullAt: since === null ? now : saved!.fullAt, ...(mark ? { since: mark } : {}) };
  }

  /** A listing's text within the byte cap; "" when missing. Missing and cut listings are logged with their size. */
  private async read(rule: string, repository: string, path: string): Promise<string> {
    const cap = this.options.caps.limits.listMaxBytes;
    const contents = await readContents(this.gh, repository, path, cap);
    if (contents === null) {
      this.options.log("refresh.listing_missing", { rule });
      return "";
    }
    if (contents.size > cap) {
      this.truncated.push({ rule, cap: "bytes", size: contents.size, kept: cap });
      this.options.log("refresh.listing_truncated", { rule, bytes: contents.size, readBytes: cap });
    }
    return contents.text;
  }

  /** Adds the ids `rule` found while it is within its candidate cap; logs and counts the rest. */
  private addAll(rule: string, ids: string[], listed: boolean, facts: (id: string) => RepoFacts | null = () => null) {
    const { caps, log } = this.options;
    let kept = 0;
    let over = 0;
    for (const id of ids) {
      if (caps.admit(rule, id)) {
        addFound(this.found, id, rule, listed, facts(id));
        kept++;
      } else over++;
    }
    if (over === 0) return;
    this.truncated.push({ rule, cap: "candidates", size: kept + over, kept });
    log("refresh.source_truncated", { rule, cap: "candidates", candidates: kept + over, kept });
  }

  keep(key: string): void {
    if (this.saved[key]) this.state[key] = this.saved[key];
  }

  isDue(key: string): boolean {
    return isFullDue(this.saved[key], this.options);
  }

  private report(rule: string, capped: CappedSlice[], incomplete: boolean, spent: { calls: number; cut: boolean }) {
    if (spent.cut) {
      this.truncated.push({ rule, cap: "calls", size: spent.calls + 1, kept: spent.calls });
      this.options.log("refresh.source_truncated", { rule, cap: "calls", calls: spent.calls });
    }
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
  const registry = options.mcpRegistry;
  if (registry && gh.authenticated) steps.push(() => run.registry(registry));
  else if (registry) {
    // Like a list's: each server it names would be fetched by a call of its own.
    options.log("refresh.registry_skipped", { reason: "needs GITHUB_TOKEN" });
    run.keep(ruleKey.registry(registry.url));
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
  const overCap = Object.fromEntries([...options.caps.dropped].filter(([key]) => !run.found.has(key)));
  return { found: run.found, state: run.state, capped: run.capped, truncated: run.truncated, overCap };
}
