/**
 * What every catalog route does: take the snapshot serving the request and answer from its
 * response cache, rendering on a miss.
 *
 * Route handlers keep their rendering in module functions and never `return answer(…)` directly:
 * Elysia compiles a handler whose source holds `return f(` or `=> f(` as possibly asynchronous (an
 * async wrapper, a promise and an await on every request, 7% of a cached page's time), and Bun
 * folds `const r = f(); return r;` back into `return f()`. So they return the 304 case (null)
 * apart. test/api/sync-handlers.test.ts fails when a handler turns asynchronous.
 */
import type { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import { acceptsGzip, respond, type Draft, type Rendered, type ResponseState } from "../http/cache";
import { unavailable } from "../http/errors";
import { noteCacheHit } from "../http/requestlog";

/** The snapshot serving this request; 503 when none has been loaded. */
export function currentSnapshot(store: CatalogStore): Snapshot {
  const snapshot = store.current();
  if (snapshot === null) throw unavailable();
  return snapshot;
}

/**
 * Answers a request from the current snapshot's response cache: the rendering of `key`, made by
 * `make(snapshot, arg)` on a miss, in gzip when the client accepts it. The cache use is noted for
 * the request log.
 */
export function answer<A>(
  store: CatalogStore,
  request: Request,
  set: ResponseState,
  key: string,
  make: (snapshot: Snapshot, arg: A) => Rendered | Draft,
  arg: A,
): Response | null {
  const snapshot = currentSnapshot(store);
  const { rendered, hit } = store.responses().get(key, () => make(snapshot, arg), acceptsGzip(request.headers.get("accept-encoding")));
  noteCacheHit(request, hit);
  return respond(rendered, request, set);
}
