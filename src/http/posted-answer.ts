/**
 * The answer to arguments a handler read from a request's body (a POST, answer.ts `posted`):
 * cached per snapshot by the route's name and the arguments in their canonical spelling, so one
 * body however it is written is rendered once; a miss waits for its turn like a route's rendering
 * (turns.ts), refused with a 503 past the queue's bound.
 */
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import { canonicalParams, headersOf } from "./answer-parts";
import { acceptsGzip, type Rendered, type ResponseState, respond, type SnapshotResponses } from "./cache";
import { busy, unavailable } from "./errors";
import type { RequestNote } from "./request-log";
import type { Turns } from "./turns";

/** What a handler reads from Elysia's context (answer.ts `CatalogContext`). */
interface Context {
  request: Request;
  set: ResponseState;
  note: RequestNote;
}

/** What the answers of one app share: the snapshot store, its response cache, the turns, the shared caches' directives. */
export interface PostedDeps {
  store: CatalogStore;
  responses: SnapshotResponses<Snapshot>;
  turns?: { queue: Turns; failed: (error: unknown, request: Request, note: RequestNote) => Response };
  withShared: (rendered: Rendered) => Rendered;
}

export function postedAnswer<A>(
  { store, responses, turns, withShared }: PostedDeps,
  name: string,
  make: (snapshot: Snapshot, arg: A) => Rendered,
): (arg: A, context: Context) => Response | null | Promise<Response | null> {
  /** The answer from the serving snapshot's cache (it may have changed by the turn), rendered there on a miss. */
  const answer = (arg: A, key: string, { request, set, note }: Context) => {
    const snapshot = store.current();
    if (snapshot === null) throw unavailable();
    const gzip = acceptsGzip(request.headers.get("accept-encoding"));
    const { rendered, hit } = responses.for(snapshot).get(key, () => withShared(make(snapshot, arg)), gzip);
    note.cache = hit ? "hit" : "miss";
    return respond(rendered, request, set, note.limit);
  };
  return (arg, context) => {
    const snapshot = store.current();
    if (snapshot === null) throw unavailable();
    const params = canonicalParams(arg);
    context.note.params = params;
    // Apart from the GET's entries: a POST's answer carries its own headers.
    const key = `POST ${name}?${params}`;
    if (responses.for(snapshot).has(key) || turns === undefined || !turns.queue.enabled)
      return answer(arg, key, context);
    const waiting = turns.queue.take((): Response => {
      try {
        return answer(arg, key, context) ?? new Response(null, { status: 304, headers: headersOf(context.set) });
      } catch (error) {
        return turns.failed(error, context.request, context.note);
      }
    });
    if (waiting === null) throw busy();
    return waiting;
  };
}
