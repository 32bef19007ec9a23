/**
 * What every catalog route does: take the snapshot serving the request and answer from its
 * response cache, rendering on a miss.
 *
 * Handlers never `return answer(…)` directly: Elysia compiles a handler whose source holds
 * `return f(` or `=> f(` as asynchronous (a promise and an await on every request), and Bun folds
 * `const r = f(); return r;` back into `return f()`, so they return the 304 case (null) apart.
 * test/api/sync-handlers.test.ts fails when a handler turns asynchronous.
 */
import type { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import { acceptsGzip, type Rendered, type ResponseState, respond, SnapshotResponses } from "../http/cache";
import { rawQuery } from "../http/envelope";
import { unavailable } from "../http/errors";
import type { RequestNote } from "../http/requestlog";

/** What a catalog handler reads from Elysia's context. */
export interface CatalogContext {
  request: Request;
  set: ResponseState;
  note: RequestNote;
}

export type Answer = (<A>(
  context: CatalogContext,
  /** The cache key, or a function of the snapshot giving it (answers many requests share). */
  key: string | ((snapshot: Snapshot, arg: A) => string),
  make: (snapshot: Snapshot, arg: A) => Rendered,
  arg: A,
) => Response | null) & { query: AnswerQuery };

/**
 * Answers a request whose meaning is its parsed query: `parse` reads the query (400 on a bad
 * value, 409 on a stale pin) into canonical parameters, and the cache key is `route` with those
 * parameters, so unknown parameters, their order and their percent-encoding reach one entry.
 */
export type AnswerQuery = <A>(
  context: CatalogContext,
  route: string,
  parse: (params: URLSearchParams, snapshot: Snapshot) => A,
  make: (snapshot: Snapshot, arg: A) => Rendered,
) => Response | null;

/** Parsed queries remembered per snapshot, so a repeated query string is parsed once. */
const MAX_REMEMBERED_QUERIES = 1024;

/**
 * Answers from the current snapshot's response cache: the rendering of `key`, made by
 * `make(snapshot, arg)` on a miss, in gzip when the client accepts it; 503 before any snapshot.
 */
export function answerFrom(store: CatalogStore, cacheBytes: number): Answer {
  const responses = new SnapshotResponses<Snapshot>(cacheBytes);
  const answerIn = <A>(
    { request, set, note }: CatalogContext,
    key: string | ((snapshot: Snapshot, arg: A) => string),
    make: (snapshot: Snapshot, arg: A) => Rendered,
    arg: A,
    snapshot: Snapshot | null = store.current(),
  ) => {
    if (snapshot === null) throw unavailable();
    const gzip = acceptsGzip(request.headers.get("accept-encoding"));
    const named = typeof key === "string" ? key : key(snapshot, arg);
    const { rendered, hit } = responses.for(snapshot).get(named, () => make(snapshot, arg), gzip);
    note.cache = hit ? "hit" : "miss";
    return respond(rendered, request, set, note.limit);
  };
  const answer = ((context, key, make, arg) => answerIn(context, key, make, arg)) as Answer;
  let parsedFor: Snapshot | null = null;
  const parsed = new Map<string, { key: string; arg: unknown; params: string }>();
  answer.query = (context, route, parse, make) => {
    const snapshot = store.current();
    if (snapshot === null) throw unavailable();
    if (parsedFor !== snapshot) {
      parsedFor = snapshot;
      parsed.clear();
    }
    const raw = `${route}?${rawQuery(context.request.url)}`;
    let known = parsed.get(raw);
    if (known === undefined) {
      const arg = parse(new URLSearchParams(rawQuery(context.request.url)), snapshot);
      const params = canonicalParams(arg);
      known = { key: `${route}?${params}`, arg, params };
      if (parsed.size >= MAX_REMEMBERED_QUERIES) parsed.clear();
      parsed.set(raw, known);
    }
    context.note.params = known.params;
    return answerIn(context, known.key, make, known.arg as Parameters<typeof make>[1], snapshot);
  };
  return answer;
}

/**
 * Parsed parameters in one spelling: every field in the order the parser wrote it, a default
 * written out, nothing else; what a cache key and the slow-request log name a query by.
 */
export function canonicalParams(arg: unknown): string {
  return JSON.stringify(arg);
}
