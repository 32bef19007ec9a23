/**
 * Platform searches. A search shows at most 1,000 results however many match, so a query that
 * matches more is split until each slice fits: a repository search into `created:` windows, a code
 * search into `size:` ranges (bytes of the matching file). A slice that cannot be split further
 * (one second, one byte size) is returned as capped, with its count, so the run can show it.
 */
import { isoSeconds } from "../../catalog/model/time";
import type { GitHub } from "./client";

/** The platform returns at most this many results per search, whatever total_count says. */
export const SEARCH_CAP = 1000;
const PER_PAGE = 100;
/** Before the platform's first public repositories: the lower bound of a full search. */
export const SEARCH_EPOCH = new Date("2007-10-01T00:00:00Z");
/** Code search indexes files smaller than 384 KB: the upper bound of a size split. */
export const CODE_MAX_BYTES = 384 * 1024;

interface SearchPage<T> {
  total_count: number;
  incomplete_results: boolean;
  items: T[];
}

interface CodeItem {
  path: string;
  repository: unknown;
}

export interface WindowSearch {
  /** The rule's query, e.g. `topic:mcp-server stars:>=100`. */
  query: string;
  /** Only repositories pushed since then (an incremental run); null for all. */
  pushedSince: Date | null;
  from: Date;
  to: Date;
}

/** A slice that still matched more than the cap: only its first 1,000 results were read. */
export interface CappedSlice {
  query: string;
  count: number;
}

export interface SearchOutcome<T> {
  /** The search items as the platform sent them; the caller passes them through the gate. */
  items: T[];
  capped: CappedSlice[];
  incomplete: boolean;
  /** Calls spent, and whether the rule's call cap stopped it before it read everything. */
  calls: number;
  cut: boolean;
}

/** An empty outcome that may spend at most `maxCalls` calls. */
function outcome<T>(maxCalls: number): SearchOutcome<T> & { maxCalls: number } {
  return { items: [], capped: [], incomplete: false, calls: 0, cut: false, maxCalls };
}

/** Whether the search may make one more call; marks it cut when not. */
function mayCall(out: SearchOutcome<unknown> & { maxCalls: number }): boolean {
  if (out.calls < out.maxCalls) {
    out.calls++;
    return true;
  }
  out.cut = true;
  return false;
}

type Budgeted<T> = SearchOutcome<T> & { maxCalls: number };

function windowQuery(search: WindowSearch, from: Date, to: Date): string {
  const pushed = search.pushedSince ? ` pushed:>=${isoSeconds(search.pushedSince)}` : "";
  return `${search.query}${pushed} created:${isoSeconds(from)}..${isoSeconds(to)}`;
}

type SearchRoute = "GET /search/repositories" | "GET /search/code";

async function page<T>(gh: GitHub, route: SearchRoute, q: string, n: number): Promise<SearchPage<T>> {
  const { data } = await gh.octokit.request(route, { q, per_page: PER_PAGE, page: n });
  const body = data as unknown as Partial<SearchPage<T>>;
  return {
    total_count: Number(body.total_count) || 0,
    incomplete_results: body.incomplete_results === true,
    items: Array.isArray(body.items) ? body.items : [],
  };
}

/** Reads every page of a slice that fits the cap (or the first 1,000 of one that does not). */
async function readPages<T>(
  gh: GitHub,
  route: SearchRoute,
  q: string,
  first: SearchPage<T>,
  out: Budgeted<T>,
): Promise<void> {
  if (first.total_count > SEARCH_CAP) out.capped.push({ query: q, count: first.total_count });
  out.incomplete ||= first.incomplete_results;
  out.items.push(...first.items);
  const pages = Math.ceil(Math.min(first.total_count, SEARCH_CAP) / PER_PAGE);
  for (let n = 2; n <= pages; n++) {
    if (!mayCall(out)) return;
    const next = await page<T>(gh, route, q, n);
    out.incomplete ||= next.incomplete_results;
    out.items.push(...next.items);
    if (next.items.length < PER_PAGE) break;
  }
}

/** Reads a created window, halved (in whole seconds) while it matches more than the cap. */
async function searchWindow(gh: GitHub, search: WindowSearch, from: Date, to: Date, out: Budgeted<unknown>) {
  const q = windowQuery(search, from, to);
  if (!mayCall(out)) return;
  const first = await page<unknown>(gh, "GET /search/repositories", q, 1);
  const span = to.getTime() - from.getTime();
  if (first.total_count > SEARCH_CAP && span >= 2000) {
    // Whole seconds, so the halves never share a repository.
    const mid = new Date(from.getTime() + Math.floor(span / 2000) * 1000);
    await searchWindow(gh, search, from, mid, out);
    await searchWindow(gh, search, new Date(mid.getTime() + 1000), to, out);
    return;
  }
  await readPages(gh, "GET /search/repositories", q, first, out);
}

/** Every repository the search matches in its created window, past the 1,000-result cap, within `maxCalls`. */
export async function searchRepositories(
  gh: GitHub,
  search: WindowSearch,
  maxCalls = Number.POSITIVE_INFINITY,
): Promise<SearchOutcome<unknown>> {
  const out = outcome<unknown>(maxCalls);
  await searchWindow(gh, search, search.from, search.to, out);
  return out;
}

/** searchWindow's halving on the other dimension: a range of file sizes in bytes. */
async function searchSizes(gh: GitHub, query: string, low: number, high: number, out: Budgeted<CodeItem>) {
  const whole = low === 0 && high === CODE_MAX_BYTES;
  const q = whole ? query : `${query} size:${low}..${high}`;
  if (!mayCall(out)) return;
  const first = await page<CodeItem>(gh, "GET /search/code", q, 1);
  if (first.total_count > SEARCH_CAP && high > low) {
    const mid = low + Math.floor((high - low) / 2);
    await searchSizes(gh, query, low, mid, out);
    await searchSizes(gh, query, mid + 1, high, out);
    return;
  }
  await readPages(gh, "GET /search/code", q, first, out);
}

/** Every file a code search matches (with its repository), split by `size:` past the 1,000-result cap, within `maxCalls`. */
export async function searchCode(
  gh: GitHub,
  query: string,
  maxCalls = Number.POSITIVE_INFINITY,
): Promise<SearchOutcome<CodeItem>> {
  const out = outcome<CodeItem>(maxCalls);
  await searchSizes(gh, query, 0, CODE_MAX_BYTES, out);
  return out;
}
