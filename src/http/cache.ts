/**
 * Responses rendered once per snapshot: body, ETag and headers are computed on the first request
 * and served from memory until the next swap. The cache is bounded in bytes, least recently used
 * first out, and gives a dropped body's memory back to the pool it came from (bodies.ts); a body of
 * 1 KB or more also gets its gzip form, made on the first request accepting it.
 */
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import { bodies } from "./bodies";
import { baseEtag, gzipped, MIN_GZIP_BYTES, type Rendered } from "./render";

export { type Rendered, render } from "./render";

export const JSON_TYPE = "application/json; charset=utf-8";
/** Every answer kept per snapshot (JSON, pages, badges, documents): short, so a new snapshot shows within minutes. */
export const CACHE_CONTROL = "public, max-age=300";

/** The JSON a rendered answer holds: a route's documented example is its own answer. */
export const decoded = (rendered: Rendered): unknown => JSON.parse(new TextDecoder().decode(rendered.body));

/**
 * True when an If-None-Match header names the ETag (or is `*`). The gzip and the plain
 * representation of one body validate each other: a client that changed what it accepts still
 * holds the current version.
 */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const wanted = baseEtag(etag);
  return ifNoneMatch.split(",").some((tag) => baseEtag(tag.trim().replace(/^W\//, "")) === wanted);
}

const MAX_REMEMBERED_ACCEPTS = 256;
const gzipAccepted = new Map<string, boolean>();

/** Whether an Accept-Encoding header takes gzip over no encoding (RFC 9110 12.5.3, q-values included). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  // Clients send a handful of distinct headers, so each is parsed once.
  let accepted = gzipAccepted.get(acceptEncoding);
  if (accepted === undefined) {
    const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } });
    accepted = negotiator.encoding(["gzip", "identity"]) === "gzip";
    if (gzipAccepted.size >= MAX_REMEMBERED_ACCEPTS) gzipAccepted.clear();
    gzipAccepted.set(acceptEncoding, accepted);
  }
  return accepted;
}

/** The response state of a request as the framework (Elysia's `set`) keeps it. */
export interface ResponseState {
  headers: Record<string, string | number>;
  status?: number | string;
}

/**
 * Answers with a rendered body, with an admitted request's rate-limit headers when `limit` is
 * given; null (a 304, its status and headers in `set`) when the client's copy is current.
 */
export function respond(
  rendered: Rendered,
  request: Request,
  set: ResponseState,
  limit: Readonly<Record<string, string>> | null,
): Response | null {
  if (rendered.status === 200 && matchesEtag(request.headers.get("if-none-match"), rendered.etag)) {
    // A 304 describes no body: no Content-Type or Content-Encoding (RFC 9110 15.4.5).
    for (const [name, value] of Object.entries(rendered.headers)) {
      if (name !== "Content-Encoding" && name !== "Content-Type") set.headers[name] = value;
    }
    if (limit !== null) Object.assign(set.headers, limit);
    set.status = 304;
    return null;
  }
  const body = rendered.body as Uint8Array<ArrayBuffer>;
  if (limit === null) {
    rendered.prepared ??= new Headers(rendered.headers);
    return new Response(body, { status: rendered.status, headers: rendered.prepared });
  }
  if (rendered.limited?.limit !== limit)
    rendered.limited = { limit, headers: new Headers({ ...rendered.headers, ...limit }) };
  return new Response(body, { status: rendered.status, headers: rendered.limited.headers });
}

/**
 * Bytes charged per entry beyond its body and key, for a cached rendering's objects, ETag and
 * Headers: without the charge a stream of small answers would hold thousands of them.
 */
const ENTRY_OVERHEAD_BYTES = 4096;

/** What an entry is charged: its body's buffer, its key and the objects beside them. */
function sizeOf(key: string, rendered: Rendered): number {
  return rendered.body.buffer.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/** Key of a body's gzip representation: its plain key after a prefix no route's keys start with. */
const GZIP_KEY_PREFIX = "gzip|";

/** The responses of one snapshot, bounded in bytes, least recently used dropped first. */
export class ResponseCache {
  private readonly entries: LRUCache<string, Rendered> | null;

  constructor(readonly maxBytes: number) {
    bodies.maxFreeBytes = Math.max(bodies.maxFreeBytes, maxBytes);
    this.entries =
      maxBytes > 0
        ? new LRUCache({
            maxSize: maxBytes,
            sizeCalculation: (rendered, key) => sizeOf(key, rendered),
            // Dropped, its body is read no more: a Response copies a byte array's bytes.
            dispose: (rendered) => bodies.give(rendered.body),
          })
        : null;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  get usedBytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** Whether `key` is answered from the cache (its recency unchanged). */
  has(key: string): boolean {
    return this.entries?.has(key) ?? false;
  }

  /**
   * The cached rendering of `key`, or the result of `make()`, stored when it fits; with `gzip`,
   * its gzip representation when the body is large enough to have one.
   */
  get(key: string, make: () => Rendered, gzip = false): { rendered: Rendered; hit: boolean } {
    let plain = this.entries?.get(key);
    const hit = plain !== undefined;
    if (plain === undefined) {
      plain = make();
      this.keep(key, plain);
    }
    if (!gzip || plain.status !== 200 || plain.body.byteLength < MIN_GZIP_BYTES) {
      return { rendered: plain, hit };
    }
    const gzipKey = `${GZIP_KEY_PREFIX}${key}`;
    const compressed = this.entries?.get(gzipKey);
    if (compressed !== undefined) return { rendered: compressed, hit };
    const made = gzipped(plain);
    if (this.entries?.has(key)) {
      made.body = bodies.copy(made.body);
      this.keep(gzipKey, made);
    }
    return { rendered: made, hit: false };
  }

  private keep(key: string, rendered: Rendered): void {
    if (this.entries !== null && sizeOf(key, rendered) <= this.maxBytes) this.entries.set(key, rendered);
  }
}

/** The response cache of whichever snapshot is being served: a new snapshot starts an empty one. */
export class SnapshotResponses<S extends object> {
  private snapshot: S | null = null;
  private cache: ResponseCache;

  constructor(private readonly maxBytes: number) {
    this.cache = new ResponseCache(maxBytes);
  }

  for(snapshot: S): ResponseCache {
    if (snapshot !== this.snapshot) {
      this.snapshot = snapshot;
      this.cache = new ResponseCache(this.maxBytes);
    }
    return this.cache;
  }
}
