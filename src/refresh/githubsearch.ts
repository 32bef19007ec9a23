/**
 * Platform searches. A repository search shows at most 1,000 results however many match, so a
 * query that matches more is split into `created:` windows, halved until each holds fewer.
 */
import { isoSeconds } from "../catalog/time";
import type { RestRepo } from "./facts";
import type { GitHub } from "./github";

/** The platform returns at most this many results per search, whatever total_count says. */
export const SEARCH_CAP = 1000;
const PER_PAGE = 100;
/** Before the platform's first public repositories: the lower bound of a full search. */
export const SEARCH_EPOCH = new Date("2007-10-01T00:00:00Z");

interface SearchPage<T> {
  total_count: number;
  incomplete_results: boolean;
  items: T[];
}

interface CodeItem {
  repository: { full_name: string };
}

export interface WindowSearch {
  /** The rule's query, e.g. `topic:mcp-server stars:>=100`. */
  query: string;
  /** Only repositories pushed since then (an incremental run); null for all. */
  pushedSince: Date | null;
  from: Date;
  to: Date;
}

export interface SearchOutcome {
  items: RestRepo[];
  /** Windows of one second that still matched more than the cap (only their first 1,000 are seen). */
  overfull: string[];
  incomplete: boolean;
}


function windowQuery(search: WindowSearch, from: Date, to: Date): string {
  const pushed = search.pushedSince ? ` pushed:>=${isoSeconds(search.pushedSince)}` : "";
  return `${search.query}${pushed} created:${isoSeconds(from)}..${isoSeconds(to)}`;
}

async function page(gh: GitHub, q: string, n: number): Promise<SearchPage<RestRepo>> {
  const { data } = await gh.octokit.request("GET /search/repositories", { q, per_page: PER_PAGE, page: n });
  return data as unknown as SearchPage<RestRepo>;
}

async function searchWindow(gh: GitHub, search: WindowSearch, from: Date, to: Date, out: SearchOutcome): Promise<void> {
  const q = windowQuery(search, from, to);
  const first = await page(gh, q, 1);
  const span = to.getTime() - from.getTime();
  if (first.total_count > SEARCH_CAP && span >= 2000) {
    // Whole seconds, so the halves never share a repository.
    const mid = new Date(from.getTime() + Math.floor(span / 2000) * 1000);
    await searchWindow(gh, search, from, mid, out);
    await searchWindow(gh, search, new Date(mid.getTime() + 1000), to, out);
    return;
  }
  if (first.total_count > SEARCH_CAP) out.overfull.push(q);
  out.incomplete ||= first.incomplete_results;
  out.items.push(...first.items);
  const pages = Math.ceil(Math.min(first.total_count, SEARCH_CAP) / PER_PAGE);
  for (let n = 2; n <= pages; n++) {
    const next = await page(gh, q, n);
    out.incomplete ||= next.incomplete_results;
    out.items.push(...next.items);
    if (next.items.length < PER_PAGE) break;
  }
}

/** Every repository the search matches in its created window, past the 1,000-result cap. */
export async function searchRepositories(gh: GitHub, search: WindowSearch): Promise<SearchOutcome> {
  const out: SearchOutcome = { items: [], overfull: [], incomplete: false };
  await searchWindow(gh, search, search.from, search.to, out);
  return out;
}

/** The repositories whose files match a code search (at most the cap; code search cannot be windowed). */
export async function searchCode(gh: GitHub, query: string): Promise<string[]> {
  const names: string[] = [];
  for (let n = 1; n <= SEARCH_CAP / PER_PAGE; n++) {
    const { data } = await gh.octokit.request("GET /search/code", { q: query, per_page: PER_PAGE, page: n });
    const result = data as unknown as SearchPage<CodeItem>;
    names.push(...result.items.map((item) => item.repository.full_name));
    if (result.items.length < PER_PAGE || n * PER_PAGE >= result.total_count) break;
  }
  return names;
}
