/**
 * Query-parameter parsing for the list endpoints. Malformed values become 400s naming the
 * parameter and what is allowed (decisions.md); unknown parameters are ignored; an empty value
 * counts as absent.
 */
import { SORTS, type Sort } from "../catalog/orders";
import { badRequest, snapshotChanged } from "./errors";

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

/** The filters a search page and the category counts share. */
export interface Filters {
  q: string | null;
  curated: boolean;
  /** Only archived (true) or only unarchived (false) plugins; null for both. */
  archived: boolean | null;
}

export interface ListParams extends Paging, Filters {
  category: string | null;
  sort: Sort;
}

export function parseFilters(params: URLSearchParams): Filters {
  const rawQ = params.getAll("q");
  if (rawQ.length > 1) throw badRequest("q", "give it at most once");
  const q = rawQ[0]?.trim() || null;
  if (q !== null && [...q].length > MAX_QUERY_CHARS) throw badRequest("q", `at most ${MAX_QUERY_CHARS} characters`);
  const curated = single(params, "curated");
  if (curated !== null && curated !== "1" && curated !== "true") throw badRequest("curated", "1 or true");
  const archived = single(params, "archived");
  if (archived !== null && !["true", "1", "false", "0"].includes(archived)) {
    throw badRequest("archived", "true or 1 (only archived plugins), false or 0 (none archived)");
  }
  return { q, curated: curated !== null, archived: archived === null ? null : archived === "true" || archived === "1" };
}

export function parseListParams(params: URLSearchParams, categories: ReadonlySet<string>): ListParams {
  const filters = parseFilters(params);
  const category = single(params, "category");
  if (category !== null && !categories.has(category)) {
    throw badRequest("category", `one of ${[...categories].join(", ")}`);
  }
  const sort = single(params, "sort") ?? "default";
  if (!(SORTS as readonly string[]).includes(sort)) throw badRequest("sort", `one of ${SORTS.join(", ")}`);
  return { ...filters, category, sort: sort as Sort, ...parsePaging(params, 20, 50) };
}

/** A snapshot time as the API writes it (`snapshotAt`, `generatedAt`): UTC with milliseconds. */
const SNAPSHOT_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A snapshot time parameter (`since`, `snapshot`); null when absent, 400 when not such a time. */
export function parseSnapshotAt(params: URLSearchParams, name: string): string | null {
  const value = single(params, name);
  if (value === null) return null;
  if (!SNAPSHOT_AT.test(value) || Number.isNaN(Date.parse(value))) {
    throw badRequest(name, "a snapshotAt as the API gives it, e.g. 2026-01-02T03:04:05.678Z");
  }
  return value;
}

/** Refuses a page of a pinned snapshot (`snapshot=`) that is no longer the one served. */
export function checkPinned(params: URLSearchParams, current: string): void {
  const pinned = parseSnapshotAt(params, "snapshot");
  if (pinned !== null && pinned !== current) throw snapshotChanged(pinned, current);
}
