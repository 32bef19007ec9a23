/**
 * The responses, headers and methods of each documented path: the 200 with its media types, the
 * common errors with the very bodies the service sends, 304, 429, 503 and a route's own statuses,
 * and the HEAD and OPTIONS operations every path answers.
 */
import type { TSchema } from "@sinclair/typebox";
import { JSON_TYPE } from "./cache";
import { errorBody, isRegistryPath, unavailable } from "./errors";
import { ALLOWED_METHODS, MAX_REQUEST_LINE_BYTES } from "./guard";
import { LIST_PAGING, parsePaging } from "./list-params";
import { tooManyBurst, tooManyRequests } from "./rate-limit";
import type { DocumentedRoute } from "./route-doc";
import { ErrorSchema, RegistryErrorSchema } from "./wire-schemas";

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
  "Cache-Control": header(
    "How long a client may reuse the answer (`max-age`), and, where the operator runs one in front, a shared cache (`s-maxage`, `stale-while-revalidate`); `no-store` on an error.",
  ),
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

/** Past the runtime's own limit on the request line and headers, it answers itself, before the app: no body. */
const TOO_LARGE = {
  description: "The request line and headers pass the runtime's 16 KiB limit: the runtime's bare answer, no body.",
};

/** The 400 of a paged route asked for page 0, as the parser words it. */
const PAGE_ZERO = (() => {
  try {
    parsePaging(new URLSearchParams("page=0"), LIST_PAGING);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
})();

/** The document of an error response of `path`, its example the very body the service sends with `message`. */
export function errorDoc(
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

export function responses(
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
    out[status] = errorDoc(path, Number(status), description, shown, status === "414" ? {} : limit);
  }
  out[431] = TOO_LARGE;
  if (limited) {
    const description = burst
      ? `More than a burst of ${burst.burst} requests, then one per ${burst.intervalMs} ms, from this client to the endpoints of this group together.`
      : "More than one request per window from this client to this endpoint.";
    const message = burst ? tooManyBurst(burst, 1) : tooManyRequests(windowMs, Math.ceil(windowMs / 1000));
    out[429] = errorDoc(path, 429, description, message, {
      "Retry-After": { ...RETRY_AFTER, required: true },
      ...RATE_LIMIT_HEADERS,
    });
  }
  if (doc.cached === "snapshot") {
    const description =
      `${unavailable().message} Also while a damaged database is restored, and when more answers than ` +
      "RENDER_QUEUE_MAX wait to be rendered, with Retry-After.";
    out[503] = errorDoc(path, 503, description, unavailable().message, { "Retry-After": RETRY_AFTER, ...limit });
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
          : errorDoc(path, Number(status), more.description, more.message ?? more.description, {
              ...limit,
              ...Object.fromEntries(Object.entries(more.headers ?? {}).map(([name, about]) => [name, header(about)])),
            });
  }
  return out;
}

/** A TypeBox schema as plain JSON Schema (its symbol-keyed kinds dropped). */
export const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

/** The HEAD operation of a GET: the same statuses and headers, no bodies. */
export function headOf(get: { responses: Record<string, unknown> } & Record<string, unknown>, id: string) {
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
export function optionsOf(path: string, id: string, tag: string, methods = ALLOWED_METHODS) {
  const fixed = (value: string) => ({ type: "string", enum: [value] });
  return {
    operationId: id.replace(/^get/, "options"),
    summary: "The methods this path allows (CORS preflight)",
    description: `Any other method than ${methods} is answered 405 with \`Allow\`.`,
    tags: [tag],
    ...(path.includes(":") ? { parameters: parametersOfPath(path) } : {}),
    responses: {
      204: {
        description: "The methods allowed; a preflight's asked-for headers are allowed back.",
        headers: {
          Allow: header("The methods allowed.", fixed(methods), true),
          "Access-Control-Allow-Methods": header("The methods allowed.", fixed(methods), true),
          "Access-Control-Max-Age": header("Seconds a browser may keep the preflight's answer.", seconds, true),
          "Access-Control-Allow-Headers": header(
            "The headers of `Access-Control-Request-Headers` when a token list, else `Authorization, Content-Type, Accept, If-None-Match`.",
            { type: "string" },
            true,
          ),
        },
      },
      400: errorDoc(path, 400, COMMON_ERRORS[400]![0], COMMON_ERRORS[400]![1]),
      414: errorDoc(path, 414, COMMON_ERRORS[414]![0], COMMON_ERRORS[414]![1]),
      431: TOO_LARGE,
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
