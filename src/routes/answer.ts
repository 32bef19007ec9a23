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
import { unavailable } from "../http/errors";
import type { RequestNote } from "../http/requestlog";

/** What a catalog handler reads from Elysia's context. */
export interface CatalogContext {
  request: Request;
  set: ResponseState;
  note: RequestNote;
}

export type Answer = <A>(
  context: CatalogContext,
  /** The cache key, or a function of the snapshot giving it (answers many requests share). */
  key: string | ((snapshot: Snapshot, arg: A) => string),
  make: (snapshot: Snapshot, arg: A) => Rendered,
  arg: A,
) => Response | null;

/**
 * Answers from the current snapshot's response cache: the rendering of `key`, made by
 * `make(snapshot, arg)` on a miss, in gzip when the client accepts it; 503 before any snapshot.
 */
export function answerFrom(store: CatalogStore, cacheBytes: number): Answer {
  const responses = new SnapshotResponses<Snapshot>(cacheBytes);
  return ({ request, set, note }, key, make, arg) => {
    const snapshot = store.current();
    if (snapshot === null) throw unavailable();
    const gzip = acceptsGzip(request.headers.get("accept-encoding"));
    const named = typeof key === "string" ? key : key(snapshot, arg);
    const { rendered, hit } = responses.for(snapshot).get(named, () => make(snapshot, arg), gzip);
    note.cache = hit ? "hit" : "miss";
    return respond(rendered, request, set, note.limit);
  };
}
