/**
 * Query-parameter parsing for the list endpoints. Malformed values become 400s naming the
 * parameter and what is allowed (docs/api.md, *Errors*); unknown parameters are ignored; an empty value
 * counts as absent.
 */
import { Type as t } from "@sinclair/typebox";
import { HARNESSES, HAS_KINDS, INCLUDE_PARTS, type IncludePart } from "../catalog/model/details";
import { RISK_FILTERS } from "../catalog/model/risk";
import { SORTS, type Sort } from "../catalog/search/orders";
import { PAGE_SIZE, type Query } from "../catalog/search/query";
import { badRequest, snapshotChanged } from "./errors";
import { stringEnum } from "./wireschemas";

export const MAX_QUERY_CHARS = 200;
/** Page sizes: the default and the cap of /api/v1/plugins and of /market/v1/plugins. */
export const LIST_PAGE_SIZE = { fallback: PAGE_SIZE, cap: 50 } as const;
export const SYNC_PAGE_SIZE = { fallback: 50, cap: 100 } as const;
const ARCHIVED = ["true", "1", "false", "0"] as const;

/** The single value of a parameter; a parameter given twice is ambiguous and refused. */
function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw badRequest(name, "give it at most once");
  const value = values[0];
  return value === undefined || value === "" ? null : value;
}

function positiveInteger(params: URLSearchParams, name: string, fallback: number, cap?: number): number {
  const raw = single(params, name);
  if (raw === null) return fallback;
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw badRequest(name, cap === undefined ? "an integer >= 1" : `an integer >= 1 (values above ${cap} are capped)`);
  }
  return cap === undefined ? value : Math.min(value, cap);
}

export interface Paging {
  page: number;
  pageSize: number;
}

export function parsePaging(params: URLSearchParams, defaultSize: number, maxSize: number): Paging {
  return {
    page: positiveInteger(params, "page", 1),
    pageSize: positiveInteger(params, "pageSize", defaultSize, maxSize),
  };
}

/** A comma list of allowed words, each at most once; 400 naming the parameter otherwise. */
function wordList<T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T[] {
  const raw = single(params, name);
  if (raw === null) return [];
  const words = raw.split(",");
  if (words.some((w) => !(allowed as readonly string[]).includes(w))) {
    throw badRequest(name, `a comma-separated list of ${allowed.join(", ")}`);
  }
  // In the allowed list's order: one spelling of the same set, for the cache key.
  return allowed.filter((word) => words.includes(word));
}

/** `include=`: the parts added to each plugin; none by default, so the answer is the contract's. */
export function parseInclude(params: URLSearchParams): IncludePart[] {
  return wordList(params, "include", INCLUDE_PARTS);
}

/** The filters a search page and the category counts share: a query without category, sort or page. */
export function parseFilters(params: URLSearchParams) {
  const rawQ = params.getAll("q");
  if (rawQ.length > 1) throw badRequest("q", "give it at most once");
  const q = rawQ[0]?.trim() || null;
  if (q !== null && [...q].length > MAX_QUERY_CHARS) throw badRequest("q", `at most ${MAX_QUERY_CHARS} characters`);
  const curated = single(params, "curated");
  if (curated !== null && curated !== "1" && curated !== "true") throw badRequest("curated", "1 or true");
  const archived = single(params, "archived");
  if (archived !== null && !(ARCHIVED as readonly string[]).includes(archived)) {
    throw badRequest("archived", "true or 1 (only archived plugins), false or 0 (none archived)");
  }
  const harness = single(params, "harness");
  if (harness !== null && !(HARNESSES as readonly string[]).includes(harness)) {
    throw badRequest("harness", `one of ${HARNESSES.join(", ")}`);
  }
  const original = single(params, "original");
  if (original !== null && original !== "1" && original !== "true") throw badRequest("original", "1 or true");
  const risk = single(params, "risk");
  if (risk !== null && !(RISK_FILTERS as readonly string[]).includes(risk)) {
    throw badRequest("risk", `one of ${RISK_FILTERS.join(", ")}`);
  }
  return {
    q,
    curated: curated !== null,
    archived: archived === null ? null : archived === "true" || archived === "1",
    has: wordList(params, "has", HAS_KINDS),
    harness,
    original: original !== null,
    risk,
  } satisfies Query;
}

/**
 * A list query with its page as the URL names it (what the envelope reports) and as the searcher
 * takes it. `categories`: the category ids to check `category` against; null leaves it to the caller.
 */
export function parseListParams(params: URLSearchParams, categories: ReadonlySet<string> | null) {
  const filters = parseFilters(params);
  const category = single(params, "category");
  if (category !== null && categories !== null && !categories.has(category)) {
    throw badRequest("category", `one of ${[...categories].join(", ")}`);
  }
  const sort = single(params, "sort") ?? "default";
  if (!(SORTS as readonly string[]).includes(sort)) throw badRequest("sort", `one of ${SORTS.join(", ")}`);
  const paging = parsePaging(params, LIST_PAGE_SIZE.fallback, LIST_PAGE_SIZE.cap);
  return {
    ...filters,
    include: parseInclude(params),
    category,
    sort: sort as Sort,
    ...paging,
    offset: (paging.page - 1) * paging.pageSize,
    limit: paging.pageSize,
  } satisfies Query & Paging;
}

export type ListParams = ReturnType<typeof parseListParams>;

/** A snapshot time as the API writes it (`snapshotAt`, `generatedAt`): UTC with milliseconds. */
const SNAPSHOT_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether `value` has the form and names a real instant: it round-trips (no Feb 31, hour 24 or second 60). */
function isCalendarTime(value: string): boolean {
  if (!SNAPSHOT_AT.test(value)) return false;
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === value;
}

/** A snapshot time parameter (`since`, `snapshot`); null when absent, 400 when not such a time. */
export function parseSnapshotAt(params: URLSearchParams, name: string): string | null {
  const value = single(params, name);
  if (value === null) return null;
  if (!isCalendarTime(value)) {
    throw badRequest(name, "a snapshotAt as the API gives it, e.g. 2026-01-02T03:04:05.678Z");
  }
  return value;
}

/** Refuses a page of a pinned snapshot (`snapshot=`) that is no longer the one served. */
export function checkPinned(params: URLSearchParams, current: string): void {
  const pinned = parseSnapshotAt(params, "snapshot");
  if (pinned !== null && pinned !== current) throw snapshotChanged(pinned, current);
}

/**
 * The paging parameters as documented: `x-cap` is the largest size served, a larger one is capped
 * rather than refused. The parsers above are the gate; these schemas only describe it.
 */
export function pagingSchema(size: { fallback: number; cap: number }) {
  return {
    page: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        default: 1,
        description: "Page number; past the end gives no items.",
      }),
    ),
    pageSize: t.Optional(
      t.Integer({
        minimum: 1,
        // Larger numbers are refused, not capped: past this one a number is no longer exact.
        maximum: Number.MAX_SAFE_INTEGER,
        default: size.fallback,
        "x-cap": size.cap,
        description:
          `Items per page, ${size.fallback} by default; values above ${size.cap} (up to the maximum, ` +
          `2^53 - 1) are capped to ${size.cap}.`,
      }),
    ),
  };
}

/** A snapshot time as a parameter: the form `snapshotAt` and `generatedAt` have. */
function snapshotAtSchema(description: string) {
  return t.String({
    pattern: SNAPSHOT_AT.source,
    format: "date-time",
    examples: ["2026-08-22T00:00:00.000Z"],
    description: `${description} A value that is not a real calendar time (February 31, hour 24, second 60) is a 400.`,
  });
}

/** The filters as documented: what `parseFilters` reads. */
export const filtersSchema = {
  q: t.Optional(
    t.String({
      maxLength: MAX_QUERY_CHARS,
      description:
        "Prefix full-text search over name, topics and description; search syntax is plain text; " +
        "empty means no search.",
    }),
  ),
  curated: t.Optional(stringEnum(["1", "true"], { description: "Only editor-curated plugins." })),
  archived: t.Optional(
    stringEnum(ARCHIVED, { description: "`true`/`1`: only archived plugins; `false`/`0`: none archived." }),
  ),
  has: t.Optional(
    t.String({
      pattern: `^(?:${HAS_KINDS.join("|")})(?:,(?:${HAS_KINDS.join("|")}))*$`,
      examples: ["skills", "mcp,install"],
      description:
        "Only plugins whose manifests name these (comma list, all required): `skills`, `commands`, `agents`, " +
        "`hooks` (hook events), `mcp` (an MCP server: server.json, an MCP SDK dependency or bundled servers), " +
        "`install` (at least one install instruction).",
    }),
  ),
  harness: t.Optional(
    stringEnum(HARNESSES, {
      description: "Only plugins whose evidence says they work with this harness (`works_with`).",
    }),
  ),
  original: t.Optional(
    stringEnum(["1", "true"], {
      description: "Leave out forks (`fork_of`) and look-alikes (`lookalike_of`) of another plugin.",
    }),
  ),
  risk: t.Optional(
    stringEnum(RISK_FILTERS, {
      description: "`none`: only plugins without risk notes (`include=risk`); a rule id: only those with a note of it.",
    }),
  ),
};

/** The `include=` parameter as documented: what `parseInclude` reads. */
export const includeSchema = {
  include: t.Optional(
    t.String({
      pattern: `^(?:${INCLUDE_PARTS.join("|")})(?:,(?:${INCLUDE_PARTS.join("|")}))*$`,
      examples: ["contents,install,flags,works_with"],
      description:
        "Adds these parts to each plugin (comma list): `contents`, `install`, `flags` (`fork_of`, `deprecated`, " +
        "`lookalike_of`, `latest_release`), `works_with`, `risk` (risk notes). Without it the plugin has exactly " +
        "the contract's fields.",
    }),
  ),
};

/** The `snapshot` parameter of the paged lists: pins the pages to one snapshot. */
export const pinnedSchema = {
  snapshot: t.Optional(
    snapshotAtSchema(
      "The `generatedAt` of the first page: a later page of another snapshot is a 409, so the client starts again.",
    ),
  ),
};

export const sinceQuerySchema = t.Object({
  since: snapshotAtSchema("The `snapshotAt` of the catalog the client holds."),
});

export const categoriesQuerySchema = t.Object(filtersSchema);

/** The list parameters as documented, with the category ids of the snapshot being served. */
export function listQuerySchema(categories: Iterable<string>) {
  return t.Object({
    ...filtersSchema,
    category: t.Optional(
      stringEnum([...categories], { description: "Only plugins of this category (primary or not)." }),
    ),
    sort: t.Optional(
      stringEnum(SORTS, {
        default: "default",
        description:
          "`default`: relevance with `q`, else curated first then stars; `heat`: " +
          "log10(1 + stars + 2·forks) · 0.5^(days since push / 30); `newest`: first seen in the catalog, " +
          "latest first. Every order ends with id ascending.",
      }),
    ),
    ...pagingSchema(LIST_PAGE_SIZE),
    ...pinnedSchema,
    ...includeSchema,
  });
}

export const syncQuerySchema = t.Object({ ...pagingSchema(SYNC_PAGE_SIZE), ...pinnedSchema });
