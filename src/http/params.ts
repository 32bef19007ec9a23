/**
 * Query-parameter parsing for the list endpoints. Malformed values become 400s naming the
 * parameter and what is allowed (decisions.md); unknown parameters are ignored; an empty value
 * counts as absent.
 */
import { Type as t } from "@sinclair/typebox";
import { stringEnum } from "./wireschemas";
import { SORTS, type Sort } from "../catalog/orders";
import { badRequest } from "./errors";

export const MAX_QUERY_CHARS = 200;
/** Page sizes: the default and the cap of /api/v1/plugins and of /market/v1/plugins. */
export const LIST_PAGE_SIZE = { fallback: 20, cap: 50 } as const;
export const SYNC_PAGE_SIZE = { fallback: 50, cap: 100 } as const;

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

export interface ListParams extends Paging {
  q: string | null;
  category: string | null;
  curated: boolean;
  sort: Sort;
}

export function parseListParams(params: URLSearchParams, categories: ReadonlySet<string>): ListParams {
  const rawQ = params.getAll("q");
  if (rawQ.length > 1) throw badRequest("q", "give it at most once");
  const q = rawQ[0]?.trim() || null;
  if (q !== null && [...q].length > MAX_QUERY_CHARS) throw badRequest("q", `at most ${MAX_QUERY_CHARS} characters`);
  const category = single(params, "category");
  if (category !== null && !categories.has(category)) {
    throw badRequest("category", `one of ${[...categories].join(", ")}`);
  }
  const curated = single(params, "curated");
  if (curated !== null && curated !== "1" && curated !== "true") throw badRequest("curated", "1 or true");
  const sort = single(params, "sort") ?? "default";
  if (!(SORTS as readonly string[]).includes(sort)) throw badRequest("sort", `one of ${SORTS.join(", ")}`);
  const paging = parsePaging(params, LIST_PAGE_SIZE.fallback, LIST_PAGE_SIZE.cap);
  return { q, category, curated: curated !== null, sort: sort as Sort, ...paging };
}

/**
 * The paging parameters as documented: `x-cap` is the largest size served, a larger one is capped
 * rather than refused. The parsers above are the gate; these schemas only describe it.
 */
export function pagingSchema(size: { fallback: number; cap: number }) {
  return {
    page: t.Optional(t.Integer({ minimum: 1, default: 1, description: "Page number; past the end gives no items." })),
    pageSize: t.Optional(
      t.Integer({
        minimum: 1,
        default: size.fallback,
        "x-cap": size.cap,
        description: `Items per page, ${size.fallback} by default; values above ${size.cap} are capped to ${size.cap}.`,
      }),
    ),
  };
}

/** The list parameters as documented, with the category ids of the snapshot being served. */
export function listQuerySchema(categories: Iterable<string>) {
  return t.Object({
    q: t.Optional(
      t.String({
        maxLength: MAX_QUERY_CHARS,
        description:
          "Prefix full-text search over name, topics and description; search syntax is plain text; " +
          "empty means no search.",
      }),
    ),
    category: t.Optional(
      stringEnum([...categories], { description: "Only plugins of this category (primary or not)." }),
    ),
    curated: t.Optional(stringEnum(["1", "true"], { description: "Only editor-curated plugins." })),
    sort: t.Optional(
      stringEnum(SORTS, {
        default: "default",
        description:
          "`default`: relevance with `q`, else curated first then stars; `heat`: " +
          "log10(1 + stars + 2·forks) · 0.5^(days since push / 30). Every order ends with id ascending.",
      }),
    ),
    ...pagingSchema(LIST_PAGE_SIZE),
  });
}

export const syncQuerySchema = t.Object(pagingSchema(SYNC_PAGE_SIZE));
