/**
 * The OpenAPI 3.1 document, made from the app's own route table: every GET route with its
 * documentation (summary, query and path schemas, body schema, media type, statuses) and, per
 * snapshot, a real answer as its example. Parameters are documented, never validated by Elysia:
 * http/list-params.ts parses them so that a bad value gets the API's own 400 message (docs/api.md, Errors).
 */
import type { AnyElysia } from "elysia";
import { ALLOWED_METHODS, ALLOWED_WITH_POST } from "./guard";
import { headOf, optionsOf, plain, responses } from "./openapi-responses";
import type { DocumentedRoute, RouteDoc } from "./route-doc";
import { ErrorSchema, PluginSchema, ShortPluginSchema } from "./wire-schemas";

export { type DocumentedRoute, type MoreStatus, PINNED_CHANGED, type RouteDoc } from "./route-doc";

/** The read token (READ_TOKEN) as OpenAPI names it, and what a path that needs it says. */
const READ_TOKEN_SCHEME = {
  readToken: { type: "http", scheme: "bearer", description: "The read token the service was given (READ_TOKEN)." },
};
const READ_TOKEN_SECURITY = [{ readToken: [] }];

/** Path with Elysia's `:name` segments written as OpenAPI's `{name}`. */
function openapiPath(path: string): string {
  return path.replace(/:([^/]+)/g, "{$1}");
}

/** `/api/v1/plugins/:owner/:repo` → `getApiV1PluginsByOwnerByRepo`; `/` → `getRoot`. */
function operationId(path: string): string {
  const words = path.split(/[/.]/).filter(Boolean);
  const camel = words.map((w) =>
    w.startsWith(":") ? `By${cap(w.slice(1))}` : cap(w.replace(/-(\w)/g, (_, c) => c.toUpperCase())),
  );
  return `get${camel.join("") || "Root"}`;
}

const cap = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The parameters of a route, from its schemas. TypeBox schemas are JSON Schema already;
 * @elysiajs/openapi is not used, as it rewrites query integers as string-or-integer and gives
 * every enum its first value as a default, which this API does not have.
 */
function parameters(path: string, doc: RouteDoc<unknown>, snapshot: unknown) {
  const out: Array<Record<string, unknown>> = [];
  for (const [name] of path.matchAll(/:([^/]+)/g)) {
    const key = name.slice(1);
    const schema = doc.params?.properties[key];
    out.push({ name: key, in: "path", required: true, schema: schema ? plain(schema) : { type: "string" } });
  }
  const query = typeof doc.query === "function" ? doc.query(snapshot) : doc.query;
  const required = new Set(query?.required ?? []);
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    const { description, ...rest } = plain(schema);
    out.push({ name, in: "query", required: required.has(name), description, schema: rest });
  }
  return out;
}

/**
 * The document for `routes`, every one of them mounted on `app`, with `snapshot`'s values and
 * examples, written a route at a time: the writing yields after each route, so it can be run in
 * slices of the event loop (`runSliced`).
 */
export function* openapiWriting(
  app: AnyElysia,
  routes: readonly DocumentedRoute[],
  info: {
    title: string;
    version: string;
    description: string;
    baseUrl: string;
    rateLimitWindowMs: number;
    /** READ_TOKEN is set: the bearer scheme every path but the health checks requires. */
    private?: boolean;
  },
  snapshot: unknown,
): Generator<void, Record<string, unknown>> {
  const mounted = new Set(app.routes.filter((route) => route.method === "GET").map((route) => route.path));
  const schemas = { Plugin: plain(PluginSchema), ShortPlugin: plain(ShortPluginSchema), Error: plain(ErrorSchema) };
  const referenced = withReferences(schemas);
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    if (!mounted.has(route.path)) throw new Error(`${route.path} is documented but not mounted`);
    const { doc } = route;
    const params = parameters(route.path, doc, snapshot);
    const id = operationId(route.path);
    const get = {
      operationId: id,
      summary: doc.summary,
      description: doc.description,
      tags: [doc.tag],
      ...(params.length ? { parameters: params } : {}),
      responses: responses(
        route,
        doc.example?.(snapshot, info.baseUrl),
        info.rateLimitWindowMs,
        params.filter((p) => p.in === "query").map((p) => p.name),
      ),
    };
    const methods = doc.post ? ALLOWED_WITH_POST : ALLOWED_METHODS;
    const post = doc.post ? postOf(route, id, info.rateLimitWindowMs) : undefined;
    const path = {
      get,
      head: headOf(get, id),
      ...(post ? { post } : {}),
      options: optionsOf(route.path, id, doc.tag, methods),
    };
    const open = route.path === "/healthz" || route.path === "/readyz" || route.path === "/metrics";
    if (info.private && !open)
      for (const operation of [get, path.head]) Object.assign(operation, { security: READ_TOKEN_SECURITY });
    if (info.private && !open && post) Object.assign(post, { security: READ_TOKEN_SECURITY });
    paths[openapiPath(route.path)] = referenced(path);
    yield;
  }
  return {
    openapi: "3.1.1",
    info: { title: info.title, version: info.version, description: info.description },
    // Relative: requests go to the host the document was read from, whatever name or proxy that was.
    servers: [{ url: "/", description: `This service (its public address: ${info.baseUrl}).` }],
    paths,
    components: info.private ? { schemas, securitySchemes: READ_TOKEN_SCHEME } : { schemas },
  };
}

/** The POST operation of a path that takes one: its JSON request body, the GET's 200 body uncached, its own statuses. */
function postOf(route: DocumentedRoute, id: string, rateLimitWindowMs: number) {
  const post = route.doc.post!;
  const uncached = { ...route, doc: { ...route.doc, cached: false as const, more: post.more } };
  return {
    operationId: id.replace(/^get/, "post"),
    summary: post.summary,
    description: post.description,
    tags: [route.doc.tag],
    requestBody: { required: true, content: { "application/json": { schema: plain(post.request) } } },
    responses: responses(uncached, undefined, rateLimitWindowMs, []),
  };
}

/** What a node must share with a schema to be a copy of it: its keys and its properties' names, cheap to compare. */
const shapeOf = (node: object) =>
  `${Object.keys(node).join(",")}|${Object.keys((node as { properties?: object }).properties ?? {}).join(",")}`;

/** What replaces each copy of a component schema in a node with a reference to it. */
function withReferences(schemas: Record<string, Record<string, unknown>>): <T>(node: T) => T {
  const known = new Map(Object.entries(schemas).map(([name, schema]) => [JSON.stringify(schema), name]));
  // Only a node of a schema's shape is compared whole: a copy has the same keys in the same order.
  const shapes = new Set(Object.values(schemas).map(shapeOf));
  const walk = (node: unknown, key: string): unknown => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, key));
    // Examples are data, not schemas: a plugin in an example stays as it is.
    if (key === "example" || key === "examples") return node;
    const name = shapes.has(shapeOf(node)) ? known.get(JSON.stringify(node)) : undefined;
    if (name !== undefined) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
  };
  return <T>(node: T) => walk(node, "") as T;
}
