/**
 * Query-parameter parsing for the list endpoints. Malformed values become 400s naming the
 * parameter and what is allowed (decisions.md); unknown parameters are ignored; an empty value
 * counts as absent.
 */
import { SORTS, type Sort } from "../catalog/orders";
import { badRequest } from "./errors";

export const MAX_QUERY_CHARS = 200;

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
  return { q, category, curated: curated !== null, sort: sort as Sort, ...parsePaging(params, 20, 50) };
}
