/**
 * What the bench requests. Hot scenarios repeat one URL, so after the first request every answer
 * comes from the response cache. Cold scenarios send each URL once (pages and ids may repeat: a
 * `_` parameter, which the service ignores, keeps their URLs distinct), so every request misses
 * that cache and runs its queries; search runs never repeat a query, so the per-query counts
 * miss as well.
 */
import { SORTS, type Sort } from "../src/catalog/search/orders";
import type { Snapshot } from "../src/catalog/snapshot/snapshot";
import { type Config, loadConfig } from "../src/config";
import { shuffle } from "./vocabulary";

export interface Scenario {
  name: string;
  paths: string[];
  /** Sent with every request. */
  headers: Record<string, string>;
}

/**
 * What HTTP clients send unasked (browsers, Node's fetch, feed readers): the service answers them
 * with gzip. Every scenario sends it except the identity ones.
 */
export const CLIENT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Accept-Encoding": "gzip, deflate, br",
});

/** The configuration of an app a bench runs in process: an empty environment's, without rate limit or schedule. */
export function benchConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    BASE_URL: "http://localhost",
    RATE_LIMIT_WINDOW_MS: "0",
    REFRESH_CRON: "off",
    REMOTE_PROBE_BUDGET_MS: "0",
  });
  return { ...base, ...overrides };
}

const LIST = "/api/v1/plugins";
/** The search of the hot runs; cold runs never send it, so they never hit its cached answer. */
export const HOT_QUERY = "mcp";
/** More distinct URLs than a cold run can send. */
const COLD_URLS = 30_000;

export interface CatalogFacts {
  snapshot: Snapshot;
  /** Plugin ids to request one by one. */
  ids: string[];
  /** Three disjoint sets of distinct queries matching few to many plugins. */
  words: string[][];
  /** Single words each found in most plugins. */
  broadWords: string[];
  /** Three disjoint sets of distinct queries of two or three such words, matching most plugins. */
  broadCombos: string[][];
  next: () => number;
}

function pages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

function q(text: string): string {
  return encodeURIComponent(text);
}

/** The hot scenarios: every endpoint once, repeated. */
export function hotScenarios(facts: CatalogFacts): Scenario[] {
  const total = facts.snapshot.stats.total;
  const one = (name: string, path: string): Scenario => ({ name, paths: [path], headers: { ...CLIENT_HEADERS } });
  return [
    one("list default", LIST),
    one(`list q=${HOT_QUERY}`, `${LIST}?q=${HOT_QUERY}`),
    one("list category=mcp", `${LIST}?category=mcp`),
    ...SORTS.filter((s) => s !== "default").map((s) => one(`list sort=${s}`, `${LIST}?sort=${s}`)),
    one("list deep page (last)", `${LIST}?page=${pages(total, 20)}`),
    one("plugin", `${LIST}/${facts.ids[0]}`),
    one("feed", "/plugins/feed.xml"),
    one("manifest", "/market/manifest.json"),
    one("sync page", "/market/v1/plugins?page=3"),
    one("sync page, pageSize=100 (the cap)", "/market/v1/plugins?page=3&pageSize=100"),
    one("categories", "/api/v1/categories"),
  ];
}

function filterTotal(snapshot: Snapshot, sort: Sort, category: string | null, curated: boolean): number {
  return snapshot.list({ q: null, sort, category, curated, offset: 0, limit: 1 }).total;
}

function repeat(count: number, make: (i: number) => string): string[] {
  return Array.from({ length: count }, (_, i) => make(i));
}

/**
 * The largest hot bodies again for a client that asks for no encoding (curl without
 * --compressed): 12 to 36 KB sent as they are. The bare 12 KB row is the ceiling of the first.
 */
export function identityScenarios(hot: Scenario[]): Scenario[] {
  const wanted = new Set(["list default", "feed", "sync page, pageSize=100 (the cap)"]);
  return hot
    .filter((s) => wanted.has(s.name))
    .map((s) => ({ name: `${s.name}, no Accept-Encoding`, paths: s.paths, headers: {} }));
}

/** The cold scenarios: distinct pages, filters, ids and searches. */
export function coldScenarios(facts: CatalogFacts): Scenario[] {
  const { snapshot, next } = facts;
  const total = snapshot.stats.total;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const page = (count: number, from = 0) => 1 + Math.floor(from * count + next() * (1 - from) * count);
  const categories = [...snapshot.categoryIds].filter((c) => filterTotal(snapshot, "stars", c, false) > 0);
  const otherSorts = SORTS.filter((s) => s !== "default" && s !== "stars");
  const cycle = (list: string[], i: number) => list[i % list.length]!;
  const scenarios: Array<Omit<Scenario, "headers">> = [
    {
      name: "list default, random pages",
      paths: repeat(COLD_URLS, (i) => `${LIST}?page=${page(pages(total, 20))}&_=${i}`),
    },
    {
      name: "list every sort, random pages",
      paths: repeat(COLD_URLS, (i) => `${LIST}?sort=${pick(SORTS)}&page=${page(pages(total, 20))}&_=${i}`),
    },
    {
      name: "list category/curated, random pages",
      paths: repeat(COLD_URLS, (i) => {
        const category = pick(categories);
        const curated = next() < 0.25;
        const sort = pick(SORTS);
        const n = pages(filterTotal(snapshot, sort, category, curated), 20);
        return `${LIST}?category=${category}${curated ? "&curated=1" : ""}&sort=${sort}&page=${page(n)}&_=${i}`;
      }),
    },
    {
      name: "list deep pages (last 10%)",
      paths: repeat(COLD_URLS, (i) => `${LIST}?sort=${pick(SORTS)}&page=${page(pages(total, 20), 0.9)}&_=${i}`),
    },
    { name: "plugin, distinct ids", paths: shuffle(facts.ids, next).map((id) => `${LIST}/${id}`) },
    {
      name: "sync, random pages",
      paths: repeat(COLD_URLS, (i) => `/market/v1/plugins?page=${page(pages(total, 100))}&pageSize=100&_=${i}`),
    },
    { name: "q distinct words", paths: facts.words[0]!.map((w) => `${LIST}?q=${q(w)}`) },
    {
      name: "q distinct words, sort=name/forks/updated/heat",
      paths: facts.words[1]!.map((w, i) => `${LIST}?q=${q(w)}&sort=${cycle(otherSorts, i)}`),
    },
    {
      name: "q distinct words + category",
      paths: facts.words[2]!.map((w, i) => `${LIST}?q=${q(w)}&category=${cycle(categories, i)}`),
    },
    { name: "q one word in most rows", paths: facts.broadWords.map((w) => `${LIST}?q=${q(w)}`) },
    { name: "q 2-3 words, most rows, page 1", paths: facts.broadCombos[0]!.map((w) => `${LIST}?q=${q(w)}`) },
    {
      name: "q 2-3 words, most rows, sort=name/forks/updated/heat",
      paths: facts.broadCombos[1]!.map((w, i) => `${LIST}?q=${q(w)}&sort=${cycle(otherSorts, i)}`),
    },
    {
      name: "q 2-3 words, most rows, page 2-50",
      paths: facts.broadCombos[2]!.map((w, i) => `${LIST}?q=${q(w)}&page=${2 + (i % 49)}`),
    },
  ];
  return scenarios.map((scenario) => ({ ...scenario, headers: { ...CLIENT_HEADERS } }));
}
