/**
 * The catalog for people, as server-rendered HTML that needs no script:
 * GET /browse (search, filters and pages with the list API's parameters), GET /categories/{id}
 * (one category), GET /plugin/{owner}/{repo} (one plugin; a former id redirects). Each page is a
 * pure function of the snapshot and its canonical parameters, cached per snapshot like the JSON.
 * This file declares their documents and handlers; the pages themselves are the .tsx files beside it.
 */
import { Type as t } from "@sinclair/typebox";
import { h } from "preact";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { Answer } from "../http/answer";
import type { HttpError } from "../http/errors";
import { secured } from "../http/headers";
import { categoryParam, FILTERS, LIST_PAGE_SIZE, LIST_PAGING, type ListParams, SORT } from "../http/list-params";
import type { MoreStatus, RouteDoc } from "../http/openapi";
import { described, schemaOf } from "../http/param-parser";
import type { RequestNote } from "../http/request-log";
import { TextSchema } from "../http/wire-schemas";
import { listing } from "./browse-page";
import { parseBrowse } from "./browse-query";
import { HTML_TYPE, renderPage } from "./layout";
import { BadRequestPage } from "./notices";
import { pluginPage, type ServedIn } from "./plugin-page";

export { browseQuery, parseBrowse } from "./browse-query";
export { reviewDoc, reviewHandlers } from "./review-routes";

/** A malformed parameter on a page: the error told as a page, never cached. */
function badPage(error: HttpError, note: RequestNote): Response {
  const headers = secured({ "Content-Type": HTML_TYPE, "Cache-Control": "no-store", ...note.limit });
  const rendered = renderPage(h(BadRequestPage, { error }), error.status);
  return new Response(rendered.body as Uint8Array<ArrayBuffer>, {
    status: error.status,
    headers: { ...headers, "Content-Security-Policy": rendered.headers["Content-Security-Policy"]! },
  });
}

const UNCACHED_SEARCH =
  "A search (`q`) the response cache does not answer also counts as a request to `/api/v1/plugins` (one per " +
  "window per client): past it, 429 with `Retry-After`.";

const HTML_STATUS = (description: string): MoreStatus => ({ description, type: "text/html" });
const PAGE_MORE = {
  400: HTML_STATUS("A malformed parameter or an unknown category: a page that names it."),
};

/** The list API's parameters a listing page reads (parseBrowse), as documented. */
const browseQuerySchema = (snapshot: Snapshot, withCategory: boolean) => {
  const { q, ...filters } = FILTERS;
  return t.Object(
    schemaOf({
      q,
      ...(withCategory ? { category: categoryParam(snapshot.categoryIds, "Only this category.") } : {}),
      ...filters,
      sort: described(SORT, "As the list API's `sort`."),
      page: described(LIST_PAGING.page, `Page number (${LIST_PAGE_SIZE.fallback} plugins a page).`),
    }),
  );
};

export const pageDocs = {
  browse: {
    tag: "Pages",
    summary: "Search and browse the catalog (HTML)",
    description:
      "The list API's parameters as a page for people: the results, the total, the corrected spelling, " +
      `filters and pages of ${LIST_PAGE_SIZE.fallback}. Works without JavaScript; the script adds suggestions as one types. ` +
      UNCACHED_SEARCH,
    query: (snapshot) => browseQuerySchema(snapshot, true),
    body: TextSchema,
    type: "text/html",
    cached: "snapshot",
    more: PAGE_MORE,
  },
  category: {
    tag: "Pages",
    summary: "One category's plugins (HTML)",
    description: `The category's name, description and feeds, and its plugins with the browse page's parameters. ${UNCACHED_SEARCH}`,
    params: t.Object({ id: t.String({ description: "A category id." }) }),
    query: (snapshot) => browseQuerySchema(snapshot, false),
    body: TextSchema,
    type: "text/html",
    cached: "snapshot",
    more: { ...PAGE_MORE, 404: HTML_STATUS("No such category.") },
  },
  plugin: {
    tag: "Pages",
    summary: "One plugin (HTML)",
    description:
      "Description (and the Chinese one), stars, forks, language, licence, dates, topics, categories, links to the " +
      "repository, homepage and JSON, and the install instructions, contents and flags when the record has them.",
    params: t.Object({
      owner: t.String({ description: "Repository owner." }),
      repo: t.String({ description: "Repository name." }),
    }),
    body: TextSchema,
    type: "text/html",
    cached: "snapshot",
    more: {
      301: {
        description: "A former id of a renamed plugin, or another case of its id: `Location` is its page.",
        type: "text/html",
        headers: { Location: "The plugin's page, `/plugin/{owner}/{repo}`." },
      },
      404: HTML_STATUS("The catalog has no such plugin."),
    },
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

/** A listing that searches: when not cached, it costs what the list API's search costs. */
const searches = (p: ListParams): boolean => p.q !== null;

// A malformed parameter's page (badPage) is answered apart, never cached.
export function pageHandlers(answer: Answer, servedIn: ServedIn = () => null) {
  return {
    browse: answer.route(
      "page:browse",
      (query) => parseBrowse(query),
      (s, p) => listing(s, p, false),
      { bad: badPage, costly: searches },
    ),
    category: answer.route(
      "page:category",
      (query, _snapshot, { id }: { id: string }) => parseBrowse(query, id),
      (s, p) => listing(s, p, true),
      { bad: badPage, costly: searches },
    ),
    plugin: answer.route(
      "page:plugin",
      (_query, _snapshot, { owner, repo }: { owner: string; repo: string }) => `${owner}/${repo}`,
      (snapshot, id) => pluginPage(snapshot, id, servedIn),
    ),
  };
}

/** The pages' rate-limit group: a person may open a few pages at once, then one every half second. */
export const PAGES_RULE = { burst: 10, intervalMs: 500 } as const;
