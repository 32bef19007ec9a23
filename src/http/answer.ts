/**
 * What every cached route does: take the snapshot serving the request, read the request into
 * canonical arguments, and answer from the snapshot's response cache, rendering on a miss.
 *
 * Every handler made here comes from `synchronous`, which keeps one shape, `const response =
 * serve(…); if (response === null) return null; return response;`: Elysia compiles a handler
 * whose source holds `return f(` or `=> f(` as asynchronous (a promise and an await on every
 * request), and Bun folds `const r = f(); return r;` back into `return f()`, so the 304 case
 * (null) is returned apart.
 * test/api/handler-shape.test.ts fails when a handler turns asynchronous.
 */
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import { canonicalParams, headersOf } from "./answer-parts";
import { acceptsGzip, type Rendered, type ResponseState, respond, SnapshotResponses } from "./cache";
import { busy, HttpError, unavailable } from "./errors";
import { postedAnswer } from "./posted-answer";
import type { RequestNote } from "./request-log";
import type { Turns } from "./turns";
import { rawQuery } from "./url";

/** What a catalog handler reads from Elysia's context. */
export interface CatalogContext {
  request: Request;
  set: ResponseState;
  note: RequestNote;
}

/** A route's path parameters (none by default). */
type PathParams = Record<string, string>;

/**
 * A synchronous handler: the response, or null for a 304 whose status and headers are in `set`; a
 * rendering that waits for its turn (turns.ts) answers with the promise of either.
 */
export type Handler<P extends PathParams = PathParams> = (
  context: CatalogContext & { params: P },
) => Response | null | Promise<Response | null>;

/**
 * Reads a request into canonical arguments: every field in the order the parser writes it, a
 * default written out, nothing else (400 on a bad value, 409 on a stale pin); `undefined` for a
 * route that takes none.
 */
export type Parse<A, P extends PathParams> = (query: URLSearchParams, snapshot: Snapshot, path: P) => A;

/** Counts a costly request against its client's budget: the refusal, or undefined when admitted. */
export type Charge = (route: string, request: Request, note: RequestNote) => Response | undefined;

export interface RouteOptions<A = unknown> {
  /** Parse every request: the arguments read more than the URL (the clock). By default a URL is parsed once per snapshot. */
  fresh?: boolean;
  /** The answer to the parser's 400 (a page telling what is malformed) instead of the error document. */
  bad?: (error: HttpError, note: RequestNote) => Response;
  /**
   * Whether rendering these arguments is costly work (a search): then a request the cache does
   * not answer is charged (answerFrom's `charge`) before it is rendered; a cached answer is not.
   */
  costly?: (arg: A) => boolean;
}

/** How long shared caches keep the answers (Cache-Control's `s-maxage` and `stale-while-revalidate`). */
export interface SharedCache {
  maxAgeS: number;
  staleS: number;
}

export interface AnswerOptions {
  /** Bytes of the response cache. */
  cacheBytes: number;
  /** Counts the costly requests the cache does not answer (RouteOptions.costly). */
  charge?: Charge;
  /** Added to every public answer's Cache-Control; none when absent. */
  sharedCache?: SharedCache;
  /**
   * The queue renderings wait in (turns.ts), and the answer to an error thrown at a rendering's
   * turn (the app's error document); each renders at once when absent.
   */
  turns?: { queue: Turns; failed: (error: unknown, request: Request, note: RequestNote) => Response };
}

export interface Answer {
  /**
   * `cacheControl` (a public answer's) with the shared caches' directives added: what every
   * route's answer carries, so a proxy in front serves it for `s-maxage` and revalidates by ETag.
   */
  shared(cacheControl: string): string;
  /**
   * The handler of `name`: the cache key is `name` with the parsed arguments, so unknown
   * parameters, their order and their percent-encoding reach one entry; `make` renders on a miss.
   */
  route<A, P extends PathParams = PathParams>(
    name: string,
    parse: Parse<A, P>,
    make: (snapshot: Snapshot, arg: A) => Rendered,
    options?: RouteOptions<A>,
  ): Handler<P>;
  /**
   * The answer to arguments a handler read from a request's body (a POST): cached per snapshot
   * by `name` and the arguments in their canonical spelling, so one body however it is written
   * is rendered once; a miss waits for its turn like a route's rendering (503 past the queue's bound).
   */
  posted<A>(
    name: string,
    make: (snapshot: Snapshot, arg: A) => Rendered,
  ): (arg: A, context: CatalogContext) => Response | null | Promise<Response | null>;
}

/** Parsed URLs remembered per route and snapshot, so a repeated URL is parsed once. */
const MAX_REMEMBERED_URLS = 1024;

interface Parsed<A> {
  key: string;
  arg: A;
  params: string | null;
}

/** A request read against the snapshot serving it: its arguments and that snapshot's response cache. */
interface Prepared<A> {
  snapshot: Snapshot;
  known: Parsed<A>;
  cache: ReturnType<SnapshotResponses<Snapshot>["for"]>;
}

/** A public Cache-Control with the shared caches' directives added, once per distinct value. */
function sharedDirectives(sharedCache: SharedCache | undefined): (cacheControl: string) => string {
  if (sharedCache === undefined) return (cacheControl) => cacheControl;
  const made = new Map<string, string>();
  const directives = `s-maxage=${sharedCache.maxAgeS}, stale-while-revalidate=${sharedCache.staleS}`;
  return (cacheControl) => {
    let shared = made.get(cacheControl);
    if (shared === undefined) {
      const add = cacheControl.startsWith("public") && !cacheControl.includes("s-maxage");
      shared = add ? `${cacheControl}, ${directives}` : cacheControl;
      made.set(cacheControl, shared);
    }
    return shared;
  };
}

/**
 * Answers from the current snapshot's response cache, in gzip when the client accepts it; 503
 * before any snapshot. `options.charge` counts the costly requests the cache does not answer.
 */
export function answerFrom(store: CatalogStore, options: number | AnswerOptions): Answer {
  const { cacheBytes, charge, sharedCache, turns } =
    typeof options === "number" ? ({ cacheBytes: options } as AnswerOptions) : options;
  const responses = new SnapshotResponses<Snapshot>(cacheBytes);
  const shared = sharedDirectives(sharedCache);
  // A rendering gets the directives once, when it is made; the cache then serves it as it is.
  const withShared = (rendered: Rendered): Rendered => {
    const cacheControl = rendered.headers["Cache-Control"];
    if (cacheControl !== undefined) rendered.headers["Cache-Control"] = shared(cacheControl);
    return rendered;
  };
  return {
    shared,
    route<A, P extends PathParams>(
      name: string,
      parse: Parse<A, P>,
      make: (snapshot: Snapshot, arg: A) => Rendered,
      { fresh = false, bad, costly }: RouteOptions<A> = {},
    ): Handler<P> {
      const read = urlReader(name, parse, fresh);
      /** The request read against the serving snapshot: its arguments and cache, or the answer already. */
      const prepare = (request: Request, note: RequestNote, path: P): Prepared<A> | Response => {
        const snapshot = store.current();
        if (snapshot === null) throw unavailable();
        try {
          const known = read(request, snapshot, path);
          note.params = known.params;
          return { snapshot, known, cache: responses.for(snapshot) };
        } catch (error) {
          if (bad !== undefined && error instanceof HttpError && error.status === 400) return bad(error, note);
          throw error;
        }
      };
      /** The answer from the prepared request's cache, rendered there on a miss. */
      const answer = (prepared: Prepared<A>, request: Request, set: ResponseState, note: RequestNote) => {
        const { snapshot, known, cache } = prepared;
        const gzip = acceptsGzip(request.headers.get("accept-encoding"));
        const { rendered, hit } = cache.get(known.key, () => withShared(make(snapshot, known.arg)), gzip);
        note.cache = hit ? "hit" : "miss";
        return respond(rendered, request, set, note.limit);
      };
      // At its turn the snapshot may have changed: the request is read again against the one serving then.
      // A promise's null would be answered 200 with no body: the 304 that `set` describes is made here.
      const inTurn = (request: Request, set: ResponseState, note: RequestNote, path: P) => (): Response => {
        try {
          const prepared = prepare(request, note, path);
          if (prepared instanceof Response) return prepared;
          return answer(prepared, request, set, note) ?? new Response(null, { status: 304, headers: headersOf(set) });
        } catch (error) {
          return turns!.failed(error, request, note);
        }
      };
      const serve = (request: Request, set: ResponseState, note: RequestNote, path: P) => {
        const prepared = prepare(request, note, path);
        if (prepared instanceof Response) return prepared;
        const { known, cache } = prepared;
        const cached = cache.has(known.key);
        if (!cached && charge !== undefined && costly?.(known.arg)) {
          const refusal = charge(name, request, note);
          if (refusal !== undefined) return refusal;
        }
        if (cached || turns === undefined || !turns.queue.enabled) return answer(prepared, request, set, note);
        const waiting = turns.queue.take(inTurn(request, set, note, path));
        if (waiting === null) throw busy();
        return waiting;
      };
      return synchronous(serve);
    },
    posted: (name, make) => postedAnswer({ store, responses, turns, withShared }, name, make),
  };
}

/** A route's reader of request URLs; a repeated URL is read once per snapshot unless `fresh`. */
function urlReader<A, P extends PathParams>(name: string, parse: Parse<A, P>, fresh: boolean) {
  let parsedFor: Snapshot | null = null;
  const parsed = new Map<string, Parsed<A>>();
  const parseIn = (request: Request, snapshot: Snapshot, path: P): Parsed<A> => {
    const arg = parse(new URLSearchParams(rawQuery(request.url)), snapshot, path);
    const params = arg === undefined ? null : canonicalParams(arg);
    return { key: params === null ? name : `${name}?${params}`, arg, params };
  };
  const remembered = (request: Request, snapshot: Snapshot, path: P): Parsed<A> => {
    if (parsedFor !== snapshot) {
      parsedFor = snapshot;
      parsed.clear();
    }
    let known = parsed.get(request.url);
    if (known === undefined) {
      known = parseIn(request, snapshot, path);
      if (parsed.size >= MAX_REMEMBERED_URLS) parsed.clear();
      parsed.set(request.url, known);
    }
    return known;
  };
  return fresh ? parseIn : remembered;
}

/** A handler of the one shape the module comment explains, around `serve`. */
function synchronous<P extends PathParams>(
  serve: (request: Request, set: ResponseState, note: RequestNote, path: P) => ReturnType<Handler<P>>,
): Handler<P> {
  return ({ request, set, note, params }) => {
    const response = serve(request, set, note, params);
    if (response === null) return null;
    return response;
  };
}

/**
 * A beforeHandle hook of the same shape, around `decide` (undefined lets the request through);
 * it destructures its context, so Elysia reads no more of the request than these fields.
 */
export function synchronousHook(
  decide: (route: string, request: Request, note: RequestNote) => Response | undefined,
): (context: { route: string; request: Request; note: RequestNote }) => Response | undefined {
  return ({ route, request, note }) => {
    const refusal = decide(route, request, note);
    if (refusal === undefined) return undefined;
    return refusal;
  };
}

/** A handler answering a rendering that is no snapshot's (a static file), picked by the request. */
export function fixedRoute<P extends PathParams = PathParams>(
  pick: (request: Request, path: P) => Rendered,
): Handler<P> {
  return synchronous((request, set, _note, path) => respond(pick(request, path), request, set, null));
}

export { canonicalParams } from "./answer-parts";
