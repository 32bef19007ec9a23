/**
 * The OpenAPI 3.1 document, made from the app's own route table: every GET route with its
 * documentation (summary, query and path schemas, body schema, media type, statuses) and, per
 * snapshot, a real answer as its example. Parameters are documented, never validated by Elysia:
 * http/params.ts parses them so that a bad value gets the API's own 400 message (docs/api.md, Errors).
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import type { AnyElysia } from "elysia";
import { JSON_TYPE } from "./cache";
import { errorBody, isRegistryPath, snapshotChanged, unavailable } from "./errors";
import { ALLOWED_METHODS, MAX_REQUEST_LINE_BYTES } from "./guard";
import { parsePaging } from "./params";
import { type BurstRule, tooManyBurst, tooManyRequests } from "./ratelimit";
import { ErrorSchema, PluginSchema, RegistryErrorSchema, ShortPluginSchema } from "./wireschemas";

/** A status beyond the common ones: its body schema (the error shape by default), example message, headers. */
export interface MoreStatus {
  description: string;
  body?: TSchema;
  /** A media type other than the error shape's JSON (an HTML page's 404, a redirect's page). */
  type?: string;
  message?: string;
  headers?: Record<string, string>;
  /** A byte range of the 200 body (206): the 200's media types, no schema (a range is not a document). */
  partial?: boolean;
}

/** The 409 of a paged list pinned to a snapshot (`snapshot=`) that is no longer served. */
export const PINNED_CHANGED: MoreStatus = {
  description: "`snapshot` names a snapshot that is no longer served: start again from page 1.",
  message: snapshotChanged("2026-08-22T00:00:00.000Z", "2026-08-22T06:00:00.000Z").message,
};

/** A function of the snapshot, written as a method so a route of any source fits the route table. */
type OfSnapshot<S, T> = { of(snapshot: S): T }["of"];

/** What a route says about itself; the route table in app.ts pairs it with the path and the handler. */
export interface RouteDoc<S = never> {
  summary: string;
  description: string;
  tag: string;
  /** The query parameters, documented from this schema (or the one for the snapshot served), parsed by the handler. */
  query?: TObject | OfSnapshot<S, TObject>;
  params?: TObject;
  /** The 200 body. */
  body: TSchema;
  /** Media types of the 200 body (JSON by default). */
  type?: string | readonly string[];
  /**
   * `snapshot`: rendered from the snapshot (ETag, If-None-Match → 304, 503 before one is loaded);
   * `static`: the same without a snapshot; false: never cached.
   */
  cached: "snapshot" | "static" | false;
  /** Headers of the 200 beyond the common ones, with what each says. */
  headers?: Record<string, string>;
  /** Statuses this route answers beyond the common ones (a 404 for an unknown id, a 503 that is not an error). */
  more?: Partial<Record<number, MoreStatus>>;
  /** A real 200 body for the document, from the snapshot being served. */
  example?(snapshot: S, baseUrl: string): unknown;
}

export interface DocumentedRoute {
  path: string;
  limited: boolean;
  /** The route's burst group, when it is in one rather than the one-per-window group. */
  burst?: BurstRule;
  // biome-ignore lint/suspicious/noExplicitAny: each route's example reads its own kind of source.
  doc: RouteDoc<any>;
}

const header = (description: string, schema: Record<string, unknown> = { type: "string" }, required = false) =>
  required ? { description, required, schema } : { description, schema };
const seconds = { type: "integer", minimum: 0 };
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": header("Requests allowed per window on this endpoint.", seconds),
  "RateLimit-Remaining": header("Requests left in the current window.", seconds),
  "RateLimit-Reset": header("Seconds until the window resets.", seconds),
};
const CACHE_HEADERS = {
  ETag: header(
    "Strong validator of this body; a gzip form's ends in `.gzip` and validates either form.",
    { type: "string" },
    true,
  ),
  "Cache-Control": header("How long a client may reuse the answer; `no-store` on an error."),
};
/** A cached body of 1 KB or more also has a gzip form, sent to a client whose Accept-Encoding takes it. */
const GZIP_HEADERS = {
  "Content-Encoding": header("`gzip` when the body is sent compressed.", { type: "string", enum: ["gzip"] }),
  Vary: header("`Accept-Encoding`: the body depends on it.", { type: "string", enum: ["Accept-Encoding"] }),
};
/** An answer of another media type than the error shape (a page's 404, a redirect's page): rendered and cached, or not. */
const PAGE_HEADERS = {
  "Cache-Control": CACHE_HEADERS["Cache-Control"],
  ETag: header("Validator of an answer cached per snapshot; absent on one that is not cached."),
  ...GZIP_HEADERS,
};
const RETRY_AFTER = header("Whole seconds (>= 1) until a request is admitted again.", { type: "integer", minimum: 1 });

/** The description of each common status, by the situation that gives it, and an example message. */
const COMMON_ERRORS: Record<number, [string, string]> = {
  400: [
    "A malformed parameter or path; the message names the parameter and what is allowed.",
    "The request path is not valid percent-encoding.",
  ],
  414: [
    "The request line is longer than 8 KB (past the runtime's own 16 KiB limit on the request line and headers, " +
      "the runtime answers 431 with no body).",
    `The request line is longer than ${MAX_REQUEST_LINE_BYTES} bytes.`,
  ],
  500: ["An internal error.", "Internal error."],
};

/** The 400 of a paged route asked for page 0, as the parser words it. */
const PAGE_ZERO = (() => {
  try {
    parsePaging(new URLSearchParams("page=0"), 1, 1);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
})();

/** An error response of `path`, its example the very body the service sends with `message`. */
function errorResponse(
  path: string,
  status: number,
  description: string,
  message: string,
  headers: Record<string, unknown> = {},
) {
  const example = JSON.parse(errorBody(path, status, message));
  headers = { "Cache-Control": CACHE_HEADERS["Cache-Control"], ...headers };
  const schema = plain(isRegistryPath(path) ? RegistryErrorSchema : ErrorSchema);
  return { description, headers, content: { "application/json": { schema, example } } };
}

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

function responses(
  { path, limited, doc, burst }: DocumentedRoute,
  example: unknown,
  windowMs: number,
  queryNames: readonly unknown[],
) {
  const limit = limited ? RATE_LIMIT_HEADERS : {};
  const cacheHeaders = doc.cached
    ? { ...CACHE_HEADERS, ...GZIP_HEADERS }
    : { "Cache-Control": CACHE_HEADERS["Cache-Control"] };
  const extra = Object.fromEntries(Object.entries(doc.headers ?? {}).map(([name, about]) => [name, header(about)]));
  const okHeaders = { ...cacheHeaders, ...extra, ...limit };
  const media: Record<string, unknown> = { schema: plain(doc.body) };
  if (example !== undefined) media.example = example;
  const types = typeof doc.type === "string" ? [doc.type] : (doc.type ?? [JSON_TYPE.split(";")[0]!]);
  const content = Object.fromEntries(types.map((type) => [type, media]));
  const out: Record<string, unknown> = { 200: { description: doc.summary, headers: okHeaders, content } };
  if (doc.cached) {
    out[304] = {
      description: "The client's copy (If-None-Match) is current; no body and no Content-Type.",
      headers: { ...CACHE_HEADERS, Vary: GZIP_HEADERS.Vary, ...extra, ...limit },
    };
  }
  for (const [status, [description, message]] of Object.entries(COMMON_ERRORS)) {
    const shown = status === "400" && queryNames.includes("page") ? PAGE_ZERO : message;
    // A request line too long is refused before the limiter counts it.
    out[status] = errorResponse(path, Number(status), description, shown, status === "414" ? {} : limit);
  }
  if (limited) {
    const description = burst
      ? `More than a burst of ${burst.burst} requests, then one per ${burst.intervalMs} ms, from this client to this endpoint.`
      : "More than one request per window from this client to this endpoint.";
    const message = burst ? tooManyBurst(burst, 1) : tooManyRequests(windowMs, Math.ceil(windowMs / 1000));
    out[429] = errorResponse(path, 429, description, message, {
      "Retry-After": { ...RETRY_AFTER, required: true },
      ...RATE_LIMIT_HEADERS,
    });
  }
  if (doc.cached === "snapshot") {
    const description = `${unavailable().message} Also while a damaged database is restored, with Retry-After.`;
    out[503] = errorResponse(path, 503, description, unavailable().message, { "Retry-After": RETRY_AFTER, ...limit });
  }
  for (const [status, more] of Object.entries(doc.more ?? {})) {
    if (!more) continue;
    const moreHeaders = Object.fromEntries(
      Object.entries(more.headers ?? {}).map(([name, about]) => [name, header(about)]),
    );
    out[status] = more.type
      ? {
          description: more.description,
          headers: { ...PAGE_HEADERS, ...limit, ...moreHeaders },
          content: { [more.type]: { schema: more.body ? plain(more.body) : { type: "string" } } },
        }
      : more.body
        ? { description: more.description, content: { "application/json": { schema: plain(more.body) } } }
        : more.partial
          ? {
              description: more.description,
              headers: { ...okHeaders, ...moreHeaders },
              content: Object.fromEntries(types.map((type) => [type, {}])),
            }
          : errorResponse(path, Number(status), more.description, more.message ?? more.description, {
              ...limit,
              ...Object.fromEntries(Object.entries(more.headers ?? {}).map(([name, about]) => [name, header(about)])),
            });
  }
  return out;
}

/** A TypeBox schema as plain JSON Schema (its symbol-keyed kinds dropped). */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

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

/** The document for `routes`, every one of them mounted on `app`, with `snapshot`'s values and examples. */
export function openapiDocument(
  app: AnyElysia,
  routes: readonly DocumentedRoute[],
  info: { title: string; version: string; description: string; baseUrl: string; rateLimitWindowMs: number },
  snapshot: unknown,
) {
  const mounted = new Set(app.routes.filter((route) => route.method === "GET").map((route) => route.path));
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
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
    paths[openapiPath(route.path)] = { get, head: headOf(get, id), options: optionsOf(route.path, id, doc.tag) };
  }
  const schemas = { Plugin: plain(PluginSchema), ShortPlugin: plain(ShortPluginSchema), Error: plain(ErrorSchema) };
  return {
    openapi: "3.1.1",
    info: { title: info.title, version: info.version, description: info.description },
    // Relative: requests go to the host the document was read from, whatever name or proxy that was.
    servers: [{ url: "/", description: `This service (its public address: ${info.baseUrl}).` }],
    paths: withReferences(paths, schemas),
    components: { schemas },
  };
}

/** The HEAD operation of a GET: the same statuses and headers, no bodies. */
function headOf(get: { responses: Record<string, unknown> } & Record<string, unknown>, id: string) {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => {
      const { content: _, ...rest } = response as Record<string, unknown>;
      return [status, rest];
    }),
  );
  return {
    ...get,
    operationId: id.replace(/^get/, "head"),
    summary: `${get.summary} (headers only)`,
    description: "What GET answers, without the body.",
    responses,
  };
}

/** The OPTIONS operation every path answers: a CORS preflight or a plain OPTIONS, no body. */
function optionsOf(path: string, id: string, tag: string) {
  const fixed = (value: string) => ({ type: "string", enum: [value] });
  return {
    operationId: id.replace(/^get/, "options"),
    summary: "The methods this path allows (CORS preflight)",
    description: `Any other method than ${ALLOWED_METHODS} is answered 405 with \`Allow\`.`,
    tags: [tag],
    ...(path.includes(":") ? { parameters: parametersOfPath(path) } : {}),
    responses: {
      204: {
        description: "The methods allowed; a preflight's asked-for headers are allowed back.",
        headers: {
          Allow: header("The methods allowed.", fixed(ALLOWED_METHODS), true),
          "Access-Control-Allow-Methods": header("The methods allowed.", fixed(ALLOWED_METHODS), true),
          "Access-Control-Max-Age": header("Seconds a browser may keep the preflight's answer.", seconds, true),
          "Access-Control-Allow-Headers": header("The headers of `Access-Control-Request-Headers`, when a token list."),
        },
      },
      400: errorResponse(path, 400, COMMON_ERRORS[400]![0], COMMON_ERRORS[400]![1]),
      414: errorResponse(path, 414, COMMON_ERRORS[414]![0], COMMON_ERRORS[414]![1]),
    },
  };
}

function parametersOfPath(path: string) {
  return [...path.matchAll(/:([^/]+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

/** `paths` with each copy of a component schema replaced by a reference to it. */
function withReferences<T>(paths: T, schemas: Record<string, Record<string, unknown>>): T {
  const known = new Map(Object.entries(schemas).map(([name, schema]) => [JSON.stringify(schema), name]));
  const walk = (node: unknown, key: string): unknown => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, key));
    // Examples are data, not schemas: a plugin in an example stays as it is.
    if (key === "example" || key === "examples") return node;
    const name = known.get(JSON.stringify(node));
    if (name !== undefined) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
  };
  return walk(paths, "") as T;
}
