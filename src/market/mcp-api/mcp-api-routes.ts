/**
 * The MCP registry API, read-only (API version 2025-12-01): GET /v0.1/servers (paged by an opaque
 * cursor, with `search`, `updated_since` and `version`), GET /v0.1/servers/{serverName}/versions and
 * /versions/{version}. Every answer is cached per snapshot like the other documents; a page is a
 * slice of an order the snapshot's entries were written in (servers.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { PreparedPerSnapshot } from "../../catalog/snapshot/prepared";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { CatalogStore } from "../../catalog/snapshot/store";
import type { Answer } from "../../http/answer";
import { CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../../http/cache";
import { HttpError } from "../../http/errors";
import type { RouteDoc } from "../../http/openapi";
import { ServerListSchema, ServerResponseSchema } from "./mcp-api-schema";
import { firstEntry, type Order, RegistryServers } from "./servers";

/** The rate-limit group of clients that page through everything: a burst, then twenty requests a second. */
export const PAGING_RULE = { burst: 120, intervalMs: 50 } as const;

export const DEFAULT_LIMIT = 30;
export const MAX_LIMIT = 100;
const MAX_SEARCH = 200;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

const bad = (message: string) => new HttpError(400, message);
export const NOT_FOUND = "Server not found";
export const VERSION_NOT_FOUND = "Server version not found";
export const OLD_CURSOR = "The cursor belongs to an earlier snapshot of the catalog; list again without a cursor.";

/** A list request in canonical form. */
interface ListArgs {
  after: string | null;
  limit: number;
  search: string | null;
  since: string | null;
  version: string | null;
}

/** An opaque cursor: the snapshot and the last name served, base64url. */
export function cursorOf(snapshotAt: string, name: string): string {
  return Buffer.from(JSON.stringify([snapshotAt, name])).toString("base64url");
}

/** The last name a cursor of this snapshot holds; 400 for a malformed one or one of another snapshot. */
function readCursor(cursor: string, snapshotAt: string): string {
  let value: unknown;
  try {
    value = /^[A-Za-z0-9_-]{1,600}$/.test(cursor) ? JSON.parse(Buffer.from(cursor, "base64url").toString()) : null;
  } catch {
    value = null;
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === "string")) {
    throw bad("Invalid cursor parameter");
  }
  if (value[0] !== snapshotAt) throw bad(OLD_CURSOR);
  return value[1] as string;
}

function includeDeleted(query: URLSearchParams): void {
  const value = query.get("include_deleted");
  if (value !== null && value !== "true" && value !== "false")
    throw bad("Invalid include_deleted parameter: true or false");
}

function parseList(query: URLSearchParams, snapshot: Snapshot): ListArgs {
  includeDeleted(query);
  const cursor = query.get("cursor");
  const after = cursor === null || cursor === "" ? null : readCursor(cursor, snapshot.snapshotAt);
  const limitText = query.get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : 0;
  if (limit < 1 || limit > MAX_LIMIT) throw bad(`Invalid limit parameter: an integer from 1 to ${MAX_LIMIT}`);
  const search = query.get("search")?.trim() || null;
  if (search !== null && search.length > MAX_SEARCH)
    throw bad(`Invalid search parameter: at most ${MAX_SEARCH} characters`);
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
  return { after, limit, search, since, version };
}

/** The first index of `positions` whose key exceeds `key` (keys ascend). */
function after(positions: Int32Array, key: (position: number) => number, bound: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (key(positions[mid]!) <= bound) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The order a list request walks: every entry by name or by update time, narrowed by its filters. */
function orderOf(servers: RegistryServers, { search, since, version }: ListArgs): Order {
  const base = since === null ? servers.byNameOrder() : servers.updatedAfter(since);
  if (search === null && version === null) return base;
  let chosen: Int32Array = search === null ? servers.ofVersion(version!) : servers.searched(search);
  if (search !== null && version !== null) chosen = chosen.filter((p) => servers.entries[p]!.version === version);
  if (since === null) return { positions: chosen, key: base.key };
  const updated = chosen.filter((p) => servers.entries[p]!.updatedAt > since).sort((a, b) => base.key(a) - base.key(b));
  return { positions: updated, key: base.key };
}

function listPage(servers: RegistryServers, args: ListArgs): Rendered {
  const order = orderOf(servers, args);
  let start = 0;
  if (args.after !== null) {
    const last = servers.position(args.after);
    if (last === -1) throw bad("Invalid cursor parameter");
    start = after(order.positions, order.key, order.key(last));
  }
  const page = order.positions.subarray(start, start + args.limit);
  const items = Array.from(page, (p) => servers.entries[p]!.json);
  const end = start + page.length;
  const next =
    end < order.positions.length ? cursorOf(servers.snapshotAt, servers.entries[page[page.length - 1]!]!.name) : null;
  const metadata = next === null ? { count: items.length } : { nextCursor: next, count: items.length };
  return render(
    ['{"servers":[', items.join(","), `],"metadata":${JSON.stringify(metadata)}}`],
    JSON_TYPE,
    CACHE_CONTROL,
  );
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

function parseName(query: URLSearchParams, _snapshot: Snapshot, path: NameParams) {
  includeDeleted(query);
  return { name: decodedSegment(path.serverName) };
}

function parseVersion(query: URLSearchParams, snapshot: Snapshot, path: VersionParams) {
  return { ...parseName(query, snapshot, path), version: decodedSegment(path.version) };
}

const ListQuery = t.Object({
  cursor: t.Optional(
    t.String({
      pattern: "^[A-Za-z0-9_-]{1,600}$",
      "x-opaque": true,
      description:
        "The `metadata.nextCursor` of the page before; opaque, of one snapshot: any other value, or one of an " +
        "earlier snapshot, is a 400.",
    }),
  ),
  limit: t.Optional(
    t.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Servers per page (default ${DEFAULT_LIMIT}).` }),
  ),
  search: t.Optional(
    t.String({ maxLength: MAX_SEARCH, description: "Words the catalog's search finds (name, description, topics)." }),
  ),
  updated_since: t.Optional(
    t.String({
      format: "date-time",
      description: "Only servers updated after this RFC 3339 time, oldest update first.",
    }),
  ),
  version: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 255,
      description: "`latest` (every server: each has one version) or an exact version.",
    }),
  ),
  include_deleted: t.Optional(t.Boolean({ description: "Accepted; removed plugins are never listed." })),
});

const NameParamsSchema = t.Object({
  serverName: t.String({ description: "The server name, URL-encoded (`/` as `%2F`)." }),
});

const more404 = { 404: { description: "No server of that name (or of that version).", message: NOT_FOUND } };
const more400 = (message: string) => ({ 400: { description: "A malformed parameter.", message } });

export const registryDocs = {
  list: {
    tag: "MCP registry",
    summary: "MCP servers, as the MCP registry API lists them",
    description:
      "The MCP registry API (version 2025-12-01), read-only: every installable MCP server the catalog lists (an " +
      "npm, PyPI or OCI package or an https remote from its server.json), by name; with `updated_since`, by update " +
      "time. Page with `metadata.nextCursor` until it is absent; a cursor of an earlier snapshot is answered 400.",
    query: ListQuery,
    body: ServerListSchema,
    cached: "snapshot",
    more: more400(OLD_CURSOR),
    example: (snapshot: Snapshot, baseUrl: string) => exampleList(snapshot, baseUrl),
  },
  versions: {
    tag: "MCP registry",
    summary: "The versions of one MCP server",
    description: "The one version the catalog knows of the server (its latest), as a `ServerList`.",
    params: NameParamsSchema,
    query: t.Object({ include_deleted: ListQuery.properties.include_deleted }),
    body: ServerListSchema,
    cached: "snapshot",
    more: more404,
    example: (snapshot: Snapshot, baseUrl: string) => exampleList(snapshot, baseUrl),
  },
  version: {
    tag: "MCP registry",
    summary: "One version of one MCP server",
    description: "The server at `version`: `latest` or the exact version the catalog knows.",
    params: t.Object({
      ...NameParamsSchema.properties,
      version: t.String({ description: "`latest` or an exact version, URL-encoded." }),
    }),
    query: t.Object({ include_deleted: ListQuery.properties.include_deleted }),
    body: ServerResponseSchema,
    cached: "snapshot",
    more: more404,
    example: (snapshot: Snapshot, baseUrl: string) => exampleList(snapshot, baseUrl).servers[0],
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

/** A list of the first entry among the first rows, as the document's example. */
function exampleList(snapshot: Snapshot, baseUrl: string): { servers: unknown[] } {
  const first = firstEntry(snapshot, baseUrl);
  return { servers: first ? [JSON.parse(first.json)] : [], ...{ metadata: { count: first ? 1 : 0 } } };
}

export function registryHandlers(answer: Answer, store: CatalogStore, baseUrl: string) {
  const prepared = PreparedPerSnapshot.following(store, (snapshot) => RegistryServers.writing(snapshot, baseUrl));
  const entry = (snapshot: Snapshot, name: string | null) => {
    const found = name === null ? null : prepared.get(snapshot).named(name);
    if (found === null) throw new HttpError(404, NOT_FOUND);
    return found;
  };
  return {
    list: answer.route("mcp-servers", parseList, (snapshot, args) => listPage(prepared.get(snapshot), args)),
    versions: answer.route("mcp-versions", parseName, (snapshot, { name }) => {
      const found = entry(snapshot, name);
      return render(`{"servers":[${found.json}],"metadata":{"count":1}}`, JSON_TYPE, CACHE_CONTROL);
    }),
    version: answer.route("mcp-version", parseVersion, (snapshot, { name, version }) => {
      const found = entry(snapshot, name);
      if (version !== "latest" && version !== found.version) throw new HttpError(404, VERSION_NOT_FOUND);
      return render(found.json, JSON_TYPE, CACHE_CONTROL);
    }),
  };
}
