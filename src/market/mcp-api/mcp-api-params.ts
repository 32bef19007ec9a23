/**
 * What a request to the MCP registry API asks (mcp-api-routes.ts answers it): a list's cursor,
 * limit and filters (`search`, `q`, `updated_since`, `version`, `include_deleted`) in canonical
 * form, the opaque cursor that carries them to the next page, and a server's name and version from
 * the path. A malformed one is a 400 with the registry's CORS headers, in the words the official
 * registry uses.
 */
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import { HttpError } from "../../http/errors";
import { ALLOWED_METHODS } from "../../http/guard";

export const DEFAULT_LIMIT = 30;
export const MAX_LIMIT = 100;
export const MAX_SEARCH = 200;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The CORS headers of every registry answer beyond `Access-Control-Allow-Origin: *` (which every
 * answer of the service carries): what GitHub Copilot's registry documentation asks of a registry.
 */
export const REGISTRY_CORS: Readonly<Record<string, string>> = Object.freeze({
  "Access-Control-Allow-Methods": ALLOWED_METHODS,
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, If-None-Match",
});

export const bad = (message: string) => new HttpError(400, message, { ...REGISTRY_CORS });
export const OLD_CURSOR = "The cursor belongs to an earlier snapshot of the catalog; list again without a cursor.";
export const DELETED_SINCE =
  "Invalid include_deleted parameter: a list with updated_since always includes deleted servers; " +
  "leave include_deleted out or set it to true";
export const BAD_INCLUDE_DELETED = "Invalid include_deleted parameter: true or false";
const MAX_CURSOR = 4096;
export const CURSOR = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CURSOR}}$`);

/** The filters of a list; a cursor carries them to the next page. */
interface Filters {
  /** The registry's `search`: a substring of the name, lower case. */
  search: string | null;
  /** The catalog's word search. */
  q: string | null;
  since: string | null;
  version: string | null;
}

/** A list request in canonical form. */
export interface ListArgs extends Filters {
  after: string | null;
  limit: number;
}

/** What a cursor holds besides the snapshot and the last name: the filters, short keys, present ones only. */
type CursorFilters = { s?: string; q?: string; u?: string; v?: string };

/** An opaque cursor: the snapshot, the last name served and the list's filters, base64url. */
export function cursorOf(snapshotAt: string, name: string, filters?: Filters): string {
  const carried: CursorFilters = {};
  if (filters?.search) carried.s = filters.search;
  if (filters?.q) carried.q = filters.q;
  if (filters?.since) carried.u = filters.since;
  if (filters?.version) carried.v = filters.version;
  const value = Object.keys(carried).length > 0 ? [snapshotAt, name, carried] : [snapshotAt, name];
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

const optionalText = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The last name and the filters a cursor of this snapshot holds; 400 for a malformed one or one of another snapshot. */
function readCursor(cursor: string, snapshotAt: string): { name: string; filters: Filters } {
  let value: unknown;
  try {
    value = CURSOR.test(cursor) ? JSON.parse(Buffer.from(cursor, "base64url").toString()) : null;
  } catch {
    value = null;
  }
  const valid =
    Array.isArray(value) &&
    (value.length === 2 || value.length === 3) &&
    typeof value[0] === "string" &&
    typeof value[1] === "string" &&
    (value.length === 2 || (typeof value[2] === "object" && value[2] !== null && !Array.isArray(value[2])));
  if (!valid) throw bad("Invalid cursor parameter");
  const [at, name, carried = {}] = value as [string, string, Record<string, unknown>?];
  if (at !== snapshotAt) throw bad(OLD_CURSOR);
  const filters: Filters = {
    search: optionalText(carried.s),
    q: optionalText(carried.q),
    since: optionalText(carried.u),
    version: optionalText(carried.v),
  };
  // A filter as long as a request could give it: 200 characters of search text, 255 of version.
  if (Object.values(filters).some((f) => f !== null && f.length > 2 * MAX_SEARCH + 255)) {
    throw bad("Invalid cursor parameter");
  }
  return { name, filters };
}

/** `include_deleted` as given: true, false or absent (null); 400 for anything else. */
function includeDeleted(query: URLSearchParams): boolean | null {
  const value = query.get("include_deleted");
  if (value !== null && value !== "true" && value !== "false") throw bad(BAD_INCLUDE_DELETED);
  return value === null ? null : value === "true";
}

/** A search text as sent, trimmed; null when empty; 400 past the bound. */
function searchText(query: URLSearchParams, name: "search" | "q"): string | null {
  const text = query.get(name)?.trim() || null;
  if (text !== null && Array.from(text).length > MAX_SEARCH)
    throw bad(`Invalid ${name} parameter: at most ${MAX_SEARCH} characters`);
  return text;
}

export function parseList(query: URLSearchParams, snapshot: Snapshot): ListArgs {
  const deleted = includeDeleted(query);
  const cursor = query.get("cursor");
  const read = cursor === null || cursor === "" ? null : readCursor(cursor, snapshot.snapshotAt);
  const limitText = query.get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : 0;
  if (limit < 1 || limit > MAX_LIMIT) throw bad(`Invalid limit parameter: an integer from 1 to ${MAX_LIMIT}`);
  const search = searchText(query, "search")?.toLowerCase() ?? null;
  const q = searchText(query, "q");
  const sinceText = query.get("updated_since");
  let since: string | null = null;
  if (sinceText !== null) {
    const time = RFC3339.test(sinceText) ? Date.parse(sinceText.toUpperCase()) : Number.NaN;
    if (!Number.isFinite(time)) {
      throw bad("Invalid updated_since format: expected RFC3339 timestamp (e.g., 2025-08-07T13:15:04.280Z)");
    }
    since = new Date(time).toISOString();
  }
  const versionText = query.get("version");
  if (versionText !== null && (versionText === "" || versionText.length > 255)) throw bad("Invalid version parameter");
  const version = versionText === null || versionText === "latest" ? null : versionText;
  // What the request leaves out, the cursor's list says: its next page stays in that list.
  const carried = read?.filters;
  const args: ListArgs = {
    after: read?.name ?? null,
    limit,
    search: search ?? carried?.search ?? null,
    q: q ?? carried?.q ?? null,
    since: since ?? carried?.since ?? null,
    version: versionText === null ? (carried?.version ?? null) : version,
  };
  // The official registry: updated_since lists deleted servers too, so include_deleted=false contradicts it.
  if (args.since !== null && deleted === false) throw bad(DELETED_SINCE);
  return args;
}

/** A path segment as sent: percent-decoded once (`com.example%2Fserver`), or null when malformed. */
function decodedSegment(raw: string): string | null {
  try {
    return raw.includes("%") ? decodeURIComponent(raw) : raw;
  } catch {
    return null;
  }
}

type NameParams = { serverName: string };
type VersionParams = NameParams & { version: string };

export function parseName(query: URLSearchParams, _snapshot: Snapshot, path: NameParams) {
  includeDeleted(query);
  return { name: decodedSegment(path.serverName) };
}

export function parseVersion(query: URLSearchParams, snapshot: Snapshot, path: VersionParams) {
  return { ...parseName(query, snapshot, path), version: decodedSegment(path.version) };
}
