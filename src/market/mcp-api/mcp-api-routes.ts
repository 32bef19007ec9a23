/**
 * The MCP registry API, read-only (API version 2025-12-01): GET /v0.1/servers (paged by an opaque
 * cursor, with `search`, `updated_since` and `version`, and the catalog's own word search `q`), GET
 * /v0.1/servers/{serverName}/versions and /versions/{version}. Every answer is cached per snapshot
 * like the other documents; a page is a slice of an order the snapshot's entries were written in
 * (servers.ts). A cursor carries the filters of the list it continues, so a client that asks the
 * next page with the cursor alone (VS Code) stays in that list. Every answer carries the CORS
 * headers GitHub Copilot's registry documentation names.
 */
import { Type as t } from "@sinclair/typebox";
import { PreparedPerSnapshot } from "../../catalog/snapshot/prepared";
import type { Snapshot } from "../../catalog/snapshot/snapshot";
import type { CatalogStore } from "../../catalog/snapshot/store";
import type { Answer } from "../../http/answer";
import { CACHE_CONTROL, JSON_TYPE, type Rendered, render } from "../../http/cache";
import { HttpError } from "../../http/errors";
import { ALLOWED_METHODS } from "../../http/guard";
import type { RouteDoc } from "../../http/openapi";
import {
  BAD_INCLUDE_DELETED,
  bad,
  CURSOR,
  cursorOf,
  DEFAULT_LIMIT,
  type ListArgs,
  MAX_LIMIT,
  MAX_SEARCH,
  OLD_CURSOR,
  parseList,
  parseName,
  parseVersion,
  REGISTRY_CORS,
} from "./mcp-api-params";
import { ServerListSchema, ServerResponseSchema } from "./mcp-api-schema";
import { firstEntry, type Order, RegistryServers } from "./servers";

/** The rate-limit group of clients that page through everything: a burst, then twenty requests a second. */
export const PAGING_RULE = { burst: 120, intervalMs: 50 } as const;

const CORS_DOCS = {
  "Access-Control-Allow-Methods": `The methods the registry API answers: \`${ALLOWED_METHODS}\`.`,
  "Access-Control-Allow-Headers": `The request headers a browser may send: \`${REGISTRY_CORS["Access-Control-Allow-Headers"]}\`.`,
};

export const NOT_FOUND = "Server not found";
export const VERSION_NOT_FOUND = "Server version not found";

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
function orderOf(servers: RegistryServers, { search, q, since, version }: ListArgs): Order {
  const base = since === null ? servers.byNameOrder() : servers.updatedAfter(since);
  // Each filter narrows the positions by name; the smallest set is walked, the others tested.
  const sets: Int32Array[] = [];
  if (search !== null) sets.push(servers.named(search));
  if (q !== null) sets.push(servers.searched(q));
  if (version !== null) sets.push(servers.ofVersion(version));
  if (sets.length === 0) return base;
  sets.sort((a, b) => a.length - b.length);
  const [smallest, ...others] = sets as [Int32Array, ...Int32Array[]];
  const members = others.map((set) => new Set(set));
  let chosen = members.length === 0 ? smallest : smallest.filter((p) => members.every((m) => m.has(p)));
  if (since === null) return { positions: chosen, key: base.key };
  chosen = chosen.filter((p) => servers.entries[p]!.updatedAt > since).sort((a, b) => base.key(a) - base.key(b));
  return { positions: chosen, key: base.key };
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
  const last = page.length > 0 ? servers.entries[page[page.length - 1]!]!.name : null;
  const next = end < order.positions.length && last !== null ? cursorOf(servers.snapshotAt, last, args) : null;
  const metadata = next === null ? { count: items.length } : { nextCursor: next, count: items.length };
  return withCors(
    render(['{"servers":[', items.join(","), `],"metadata":${JSON.stringify(metadata)}}`], JSON_TYPE, CACHE_CONTROL),
  );
}

/** A rendering with the registry's CORS headers: its 200, its gzip form and its 304 carry them. */
function withCors(rendered: Rendered): Rendered {
  Object.assign(rendered.headers, REGISTRY_CORS);
  return rendered;
}

const ListQuery = t.Object({
  cursor: t.Optional(
    t.String({
      pattern: CURSOR.source,
      "x-opaque": true,
      description:
        "The `metadata.nextCursor` of the page before; opaque, of one snapshot: any other value, or one of an " +
        "earlier snapshot, is a 400. It carries the list's filters (`search`, `q`, `updated_since`, `version`): " +
        "the cursor alone asks the next page of the same list; a filter the request gives replaces the cursor's.",
    }),
  ),
  limit: t.Optional(
    t.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Servers per page (default ${DEFAULT_LIMIT}).` }),
  ),
  search: t.Optional(
    t.String({
      maxLength: MAX_SEARCH,
      description:
        "Servers whose name holds this text, case aside (the registry's substring search of the name; `github` " +
        "finds `io.github.acme/weather`).",
    }),
  ),
  q: t.Optional(
    t.String({
      maxLength: MAX_SEARCH,
      description:
        "The catalog's own word search (name, description, topics; prefix matching, as `/api/v1/plugins?q=`); " +
        "with `search`, servers both find.",
    }),
  ),
  updated_since: t.Optional(
    t.String({
      format: "date-time",
      description:
        "Only servers updated after this RFC 3339 time, oldest update first. It lists deleted servers too, as " +
        "the official registry's does: with `include_deleted=false` it is a 400.",
    }),
  ),
  version: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 255,
      description: "`latest` (every server: each has one version) or an exact version.",
    }),
  ),
  include_deleted: t.Optional(
    t.Boolean({
      description:
        "Accepted; removed plugins are never listed. `false` with `updated_since` is a 400 (that list always " +
        "includes deleted servers).",
    }),
  ),
});

const IncludeDeleted = t.Optional(t.Boolean({ description: "Accepted; removed plugins are never listed." }));

const NameParamsSchema = t.Object({
  serverName: t.String({ description: "The server name, URL-encoded (`/` as `%2F`)." }),
});

const more404 = {
  404: { description: "No server of that name (or of that version).", message: NOT_FOUND, headers: CORS_DOCS },
};
const more400 = (message: string) => ({
  400: {
    description:
      "A malformed parameter; for a list also a cursor of an earlier snapshot, or `include_deleted=false` with " +
      "`updated_since`.",
    message,
    headers: CORS_DOCS,
  },
});

export const mcpApiDocs = {
  list: {
    tag: "MCP registry",
    summary: "MCP servers, as the MCP registry API lists them",
    description:
      "The MCP registry API (version 2025-12-01), read-only: every installable MCP server the catalog lists (an " +
      "npm, PyPI or OCI package or an https remote from its server.json), by name; with `updated_since`, by update " +
      "time. Page with `metadata.nextCursor` until it is absent (the cursor carries the filters); a cursor of an " +
      "earlier snapshot is answered 400.",
    query: ListQuery,
    body: ServerListSchema,
    cached: "snapshot",
    headers: CORS_DOCS,
    more: more400(OLD_CURSOR),
    example: (snapshot: Snapshot, baseUrl: string) => exampleList(snapshot, baseUrl),
  },
  versions: {
    tag: "MCP registry",
    summary: "The versions of one MCP server",
    description: "The one version the catalog knows of the server (its latest), as a `ServerList`.",
    params: NameParamsSchema,
    query: t.Object({ include_deleted: IncludeDeleted }),
    body: ServerListSchema,
    cached: "snapshot",
    headers: CORS_DOCS,
    more: { ...more404, ...more400(BAD_INCLUDE_DELETED) },
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
    query: t.Object({ include_deleted: IncludeDeleted }),
    body: ServerResponseSchema,
    cached: "snapshot",
    headers: CORS_DOCS,
    more: { ...more404, ...more400(BAD_INCLUDE_DELETED) },
    example: (snapshot: Snapshot, baseUrl: string) => exampleList(snapshot, baseUrl).servers[0],
  },
} satisfies Record<string, RouteDoc<Snapshot>>;

/** A list of the first entry among the first rows, as the document's example. */
function exampleList(snapshot: Snapshot, baseUrl: string): { servers: unknown[] } {
  const first = firstEntry(snapshot, baseUrl);
  return { servers: first ? [JSON.parse(first.json)] : [], ...{ metadata: { count: first ? 1 : 0 } } };
}

export function mcpApiHandlers(answer: Answer, store: CatalogStore, baseUrl: string) {
  const prepared = PreparedPerSnapshot.following(store, (snapshot) => RegistryServers.writing(snapshot, baseUrl));
  const entry = (snapshot: Snapshot, name: string | null) => {
    const found = name === null ? null : prepared.get(snapshot).withName(name);
    if (found === null) throw new HttpError(404, NOT_FOUND, { ...REGISTRY_CORS });
    return found;
  };
  return {
    list: answer.route("mcp-servers", parseList, (snapshot, args) => listPage(prepared.get(snapshot), args)),
    versions: answer.route("mcp-versions", parseName, (snapshot, { name }) => {
      const found = entry(snapshot, name);
      return withCors(render(`{"servers":[${found.json}],"metadata":{"count":1}}`, JSON_TYPE, CACHE_CONTROL));
    }),
    version: answer.route("mcp-version", parseVersion, (snapshot, { name, version }) => {
      const found = entry(snapshot, name);
      if (version !== "latest" && version !== found.version)
        throw new HttpError(404, VERSION_NOT_FOUND, { ...REGISTRY_CORS });
      return withCors(render(found.json, JSON_TYPE, CACHE_CONTROL));
    }),
  };
}
