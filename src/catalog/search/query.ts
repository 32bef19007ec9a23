/** A list query as the list endpoints, the pages and the category counts parse it: what the search engine is asked. */
import type { IncludePart } from "../model/details";
import type { Sort } from "./orders";

/** Plugins per page when a query names no `limit`: the list API's and the pages' default. */
export const PAGE_SIZE = 20;

/** A list query, as the list endpoints, the pages and the category counts parse it; absent is "any". */
export interface Query {
  /** The search text; null for no search. */
  q?: string | null;
  category?: string | null;
  curated?: boolean;
  /** Only archived (true) or only unarchived (false) plugins; null for both. */
  archived?: boolean | null;
  /** `has=` kinds, every one required; `harness=`; `original=` (no forks or look-alikes). */
  has?: readonly string[];
  harness?: string | null;
  original?: boolean;
  /** `verified=`: only plugins whose owner is an organization with a domain the platform verified. */
  verified?: boolean;
  /** `risk=`: `none` (no risk note) or a rule the plugin has a note of; null for any. */
  risk?: string | null;
  /** `advisories=`: `none` (pinned packages checked, no advisory) or `any`; null for any plugin. */
  advisories?: string | null;
  /** `context_max=`: only plugins measured at or under these always-on tokens (CONTEXT_MAX_VALUES); null for any. */
  contextMax?: number | null;
  /** Parts added to each plugin's full form (`include=`). */
  include?: readonly IncludePart[];
  /** The order ("default" when absent) and the page; the category counts ignore them and `category`. */
  sort?: Sort;
  offset?: number;
  limit?: number;
}
