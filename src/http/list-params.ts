/**
 * The query parameters of the list endpoints and the sync source, each declared once (param-parser.ts):
 * the parsers below and the schemas /openapi.json documents are both read from these declarations.
 * Unknown parameters are ignored.
 */
import { Type as t } from "@sinclair/typebox";
import { CONTEXT_MAX_VALUES } from "../catalog/model/context-cost";
import { HARNESSES, HAS_KINDS, INCLUDE_PARTS, type IncludePart } from "../catalog/model/details";
import { RISK_FILTERS } from "../catalog/model/risk";
import { ADVISORY_FILTERS } from "../catalog/model/security";
import { SORTS, type Sort } from "../catalog/search/orders";
import { PAGE_SIZE, type Query } from "../catalog/search/query";
import { badRequest, snapshotChanged } from "./errors";
import { choice, count, flag, type Param, param, schemaOf, snapshotTime, text, words } from "./param-parser";
import { stringEnum } from "./wire-schemas";

export const MAX_QUERY_CHARS = 200;
/** Page sizes: the default and the cap of /api/v1/plugins and of /market/v1/plugins. */
export const LIST_PAGE_SIZE = { fallback: PAGE_SIZE, cap: 50 } as const;
export const SYNC_PAGE_SIZE = { fallback: 50, cap: 100 } as const;

/** The filters a search page and the category counts share: a query without category, sort or page. */
export const FILTERS = {
  q: text("q", {
    maxLength: MAX_QUERY_CHARS,
    description:
      "Prefix full-text search over name, topics and description; search syntax is plain text; " +
      "empty means no search.",
  }),
  curated: flag("curated", "Only editor-curated plugins."),
  archived: choice("archived", ["true", "1", "false", "0"], {
    fallback: null,
    description: "`true`/`1`: only archived plugins; `false`/`0`: none archived.",
    wording: "true or 1 (only archived plugins), false or 0 (none archived)",
  }),
  has: words("has", HAS_KINDS, {
    examples: ["skills", "mcp,install"],
    description:
      "Only plugins whose manifests name these (comma list, all required): `skills`, `commands`, `agents`, " +
      "`hooks` (hook events), `mcp` (an MCP server: server.json, an MCP SDK dependency or bundled servers), " +
      "`install` (at least one install instruction), `tools` (its remote MCP server listed tools when asked).",
  }),
  harness: choice("harness", HARNESSES, {
    fallback: null,
    description: "Only plugins whose evidence says they work with this harness (`works_with`).",
  }),
  original: flag(
    "original",
    "Leave out forks (`fork_of`), look-alikes (`lookalike_of`) and copies (`canonical`) of another plugin.",
  ),
  verified: flag(
    "verified",
    "Only plugins whose owner is an organization whose domain the platform verified (`owner_verified`).",
  ),
  risk: choice("risk", RISK_FILTERS, {
    fallback: null,
    description: "`none`: only plugins without risk notes (`include=risk`); a rule id: only those with a note of it.",
  }),
  advisories: choice("advisories", ADVISORY_FILTERS, {
    fallback: null,
    description:
      "`none`: only plugins whose pinned npm/PyPI versions deps.dev checked and knows no advisory of " +
      "(`include=security`); `any`: only those with at least one. Plugins with nothing pinned, or not " +
      "answered, match neither.",
  }),
  context_max: choice(
    "context_max",
    CONTEXT_MAX_VALUES.map((v) => String(v)),
    {
      fallback: null,
      description:
        "Only plugins whose always-on context cost (`include=context`, as Claude Code counts it) is measured and " +
        "at most this many tokens; plugins not measured (files unread, or MCP tools unseen) are left out.",
    },
  ),
};

/** `include=`: the parts added to each plugin; none by default, so the answer is the contract's. */
export const INCLUDE = words("include", INCLUDE_PARTS, {
  examples: ["contents,install,flags,works_with"],
  description:
    "Adds these parts to each plugin (comma list): `contents`, `install`, `flags` (`fork_of`, `deprecated`, " +
    "`lookalike_of`, `latest_release`, and when set `deprecation`, `canonical`, `owner_verified`), `works_with`, " +
    "`risk` (risk notes), `security` (Scorecard, advisories, provenance), `tools` (`remote`: what its remote MCP " +
    "server said when asked, and the `tools` it lists), `context` (context cost). Without it the plugin has exactly " +
    "the contract's fields.",
});

export const SORT = choice("sort", SORTS, {
  fallback: "default",
  description:
    "`default`: relevance with `q`, else curated first then stars; `heat`: " +
    "log10(1 + stars + 2·forks) · 0.5^(days since push / 30); `newest`: first seen in the catalog, " +
    "latest first; `context`: always-on context cost, lightest first, plugins not measured last. Every order " +
    "ends with id ascending.",
});

/**
 * The category filter: one of the snapshot's category ids, checked against `ids` (null leaves the
 * check to the caller, as a page whose path names the category does).
 */
export function categoryParam(ids: ReadonlySet<string> | null, description: string): Param<string | null> {
  const read = param("category", t.String(), (value) => {
    if (value !== null && ids !== null && !ids.has(value))
      throw badRequest("category", `one of ${[...ids].join(", ")}`);
    return value;
  }).read;
  // Built when documented, not on every request that reads the parameter.
  return {
    name: "category",
    get schema() {
      return stringEnum([...(ids ?? [])], { description });
    },
    read,
  };
}
const CATEGORY_ABOUT = "Only plugins of this category (primary or not).";

/** The paging parameters: `x-cap` is the largest size served, a larger one is capped rather than refused. */
function pagingParams(size: { fallback: number; cap: number }) {
  return {
    page: count("page", { fallback: 1, description: "Page number; past the end gives no items." }),
    pageSize: count("pageSize", {
      fallback: size.fallback,
      cap: size.cap,
      extra: { "x-cap": size.cap },
      description:
        `Items per page, ${size.fallback} by default; values above ${size.cap} (up to the maximum, ` +
        `2^53 - 1) are capped to ${size.cap}.`,
    }),
  };
}
export const LIST_PAGING = pagingParams(LIST_PAGE_SIZE);
export const SYNC_PAGING = pagingParams(SYNC_PAGE_SIZE);

/** The `snapshot` parameter of the paged lists: pins the pages to one snapshot. */
export const PINNED = snapshotTime(
  "snapshot",
  "The `generatedAt` of the first page: a later page of another snapshot is a 409, so the client starts again.",
);
export const SINCE = snapshotTime("since", "The `snapshotAt` of the catalog the client holds.");

export interface Paging {
  page: number;
  pageSize: number;
}

export function parsePaging(params: URLSearchParams, paging: typeof LIST_PAGING): Paging {
  return { page: paging.page.read(params), pageSize: paging.pageSize.read(params) };
}

export function parseInclude(params: URLSearchParams): IncludePart[] {
  return INCLUDE.read(params);
}

export function parseFilters(params: URLSearchParams) {
  // Read in this order, so a request with two bad values is told about the same one as ever.
  const q = FILTERS.q.read(params);
  const curated = FILTERS.curated.read(params);
  const archived = FILTERS.archived.read(params);
  const harness = FILTERS.harness.read(params);
  const original = FILTERS.original.read(params);
  const has = FILTERS.has.read(params);
  const risk = FILTERS.risk.read(params);
  const advisories = FILTERS.advisories.read(params);
  const verified = FILTERS.verified.read(params);
  const contextMax = FILTERS.context_max.read(params);
  return {
    q,
    curated,
    archived: archived === null ? null : archived === "true" || archived === "1",
    has,
    harness,
    original,
    risk,
    advisories,
    verified,
    contextMax: contextMax === null ? null : Number(contextMax),
  } satisfies Query;
}

/**
 * A list query with its page as the URL names it (what the envelope reports) and as the searcher
 * takes it. `categories`: the category ids to check `category` against; null leaves it to the caller.
 */
export function parseListParams(params: URLSearchParams, categories: ReadonlySet<string> | null) {
  const filters = parseFilters(params);
  const category = categoryParam(categories, CATEGORY_ABOUT).read(params);
  const sort: Sort = SORT.read(params);
  const paging = parsePaging(params, LIST_PAGING);
  return {
    ...filters,
    include: parseInclude(params),
    category,
    sort,
    ...paging,
    offset: (paging.page - 1) * paging.pageSize,
    limit: paging.pageSize,
  } satisfies Query & Paging;
}

export type ListParams = ReturnType<typeof parseListParams>;

/** A snapshot time parameter (`since`, `snapshot`); null when absent, 400 when not such a time. */
export function parseSnapshotAt(params: URLSearchParams, name: "since" | "snapshot"): string | null {
  return (name === "since" ? SINCE : PINNED).read(params);
}

/** Refuses a page of a pinned snapshot (`snapshot=`) that is no longer the one served. */
export function checkPinned(params: URLSearchParams, current: string): void {
  const pinned = PINNED.read(params);
  if (pinned !== null && pinned !== current) throw snapshotChanged(pinned, current);
}

/** The filters as documented: what `parseFilters` reads. */
export const filtersSchema = schemaOf(FILTERS);
export const includeSchema = schemaOf({ include: INCLUDE });
export const pinnedSchema = schemaOf({ snapshot: PINNED });
export const sinceQuerySchema = t.Object({ since: SINCE.schema });
export const categoriesQuerySchema = t.Object(filtersSchema);

/** The list parameters as documented, with the category ids of the snapshot being served. */
export function listQuerySchema(categories: ReadonlySet<string>) {
  return t.Object({
    ...filtersSchema,
    ...schemaOf({ category: categoryParam(categories, CATEGORY_ABOUT), sort: SORT }),
    ...schemaOf(LIST_PAGING),
    ...pinnedSchema,
    ...includeSchema,
  });
}

export const syncQuerySchema = t.Object({ ...schemaOf(SYNC_PAGING), ...pinnedSchema });
