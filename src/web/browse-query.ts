/**
 * The listing pages' parameters: the list API's, parsed by its parser, and their canonical query
 * string, which names the cached page and every link between pages.
 */
import type { Snapshot } from "../catalog/snapshot/snapshot";
import { type ListParams, parseListParams } from "../http/list-params";
import { categoryPath } from "../http/paths";

/**
 * A listing's parameters: the list API's, bar `pageSize`, `include` and `snapshot`; 400 when
 * malformed. The category is checked against the snapshot when the page is rendered.
 */
export function parseBrowse(params: URLSearchParams, category: string | null = null): ListParams {
  params.delete("pageSize");
  params.delete("include");
  const p = parseListParams(params, null);
  return category === null ? p : { ...p, category };
}

/** The canonical query string of `p` (defaults left out, a fixed order), without the category when it is in the path. */
export function browseQuery(p: ListParams, withCategory: boolean, pageNumber = p.page): string {
  const out = new URLSearchParams();
  if (p.q !== null) out.set("q", p.q);
  if (withCategory && p.category !== null) out.set("category", p.category);
  if (p.curated) out.set("curated", "1");
  if (p.archived !== null) out.set("archived", String(p.archived));
  if (p.has.length > 0) out.set("has", p.has.join(","));
  if (p.harness !== null) out.set("harness", p.harness);
  if (p.original) out.set("original", "1");
  if (p.verified) out.set("verified", "1");
  if (p.risk) out.set("risk", p.risk);
  if (p.advisories) out.set("advisories", p.advisories);
  if (p.contextMax !== null) out.set("context_max", String(p.contextMax));
  if (p.sort !== "default") out.set("sort", p.sort);
  if (pageNumber !== 1) out.set("page", String(pageNumber));
  const text = out.toString();
  return text === "" ? "" : `?${text}`;
}

/** Whether any filter beyond the words narrows the listing. */
export const filtered = (p: ListParams) =>
  p.category !== null ||
  p.curated ||
  p.archived !== null ||
  p.has.length > 0 ||
  p.harness !== null ||
  p.original ||
  p.verified ||
  p.risk !== null ||
  p.advisories !== null ||
  p.contextMax !== null;

export interface ListingProps {
  snapshot: Snapshot;
  p: ListParams;
  inCategory: boolean;
}

/** Where a listing's links lead: its category's page or the search page. */
export const baseOf = ({ p, inCategory }: Pick<ListingProps, "p" | "inCategory">) =>
  inCategory ? categoryPath(p.category!) : "/browse";
