/**
 * Responses rendered once per snapshot: body, ETag and headers are computed on the first request
 * and served from memory until the next swap (a new store cache). The cache is bounded in bytes.
 * A body of 1 KB or more is also kept gzip-compressed, made on the first request that accepts it.
 */
import Negotiator from "negotiator";
import { SECURITY_HEADERS } from "./headers";
import { baseEtag, byteLength, encodeParts, finish, gzipped, MIN_GZIP_BYTES, render, type Draft, type Rendered } from "./render";
import { limitHeaders } from "./limit";
import { BodyRing } from "./ring";

export { draft, render, type Draft, type Rendered } from "./render";

export const JSON_TYPE = "application/json; charset=utf-8";
export const JSON_CACHE_CONTROL = "public, max-age=300";

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

/**
 * Whether an Accept-Encoding header takes gzip over no encoding (RFC 9110 12.5.3, q-values
 * included). Clients send a handful of distinct headers: each is parsed once.
 */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  let accepted = gzipAccepted.get(acceptEncoding);
  if (accepted === undefined) {
    accepted = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(["gzip", "identity"]) === "gzip";
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
 * Answers with a rendered body: 304 with no body when the client's copy is current. A 200 is a
 * complete Response whose headers (the rendering's, the security headers and an admitted
 * request's rate-limit headers) are one Headers object built once per rendering: building a
 * Response from a ready Headers costs half as much as from a plain object, and with nothing in the
 * framework's per-request headers (`set`) it sends the Response as it is.
 */
export function respond(rendered: Rendered, request: Request, set: ResponseState): Response | null {
  const limit = limitHeaders(request);
  if (rendered.status === 200 && matchesEtag(request.headers.get("if-none-match"), rendered.etag)) {
    const { "Content-Encoding": _encoding, ...validators } = rendered.headers;
    Object.assign(set.headers, SECURITY_HEADERS, limit, validators);
    set.status = 304;
    return null;
  }
  let prepared = rendered.prepared;
  if (prepared === undefined || prepared.limit !== limit) {
    prepared = { limit, headers: new Headers({ ...SECURITY_HEADERS, ...limit, ...rendered.headers }) };
    rendered.prepared = prepared;
  }
  return new Response(rendered.blob ?? rendered.body, { status: rendered.status, headers: prepared.headers });
}

/**
 * Ring space charged per entry beyond its body and key: what the entry holds outside the ring.
 * Measured, a cached rendering with its prepared headers takes about 4 KB of heap and native
 * memory beside its body (its objects, its ETag and header strings, a Headers object). Charged
 * less (512 bytes, as before), a stream of distinct small answers such as single plugins filled
 * the budget with thousands of entries whose objects alone took twice the budget again.
 */
const ENTRY_OVERHEAD_BYTES = 4096;

function overhead(key: string): number {
  return key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

interface Kept {
  rendered: Rendered;
  /** The ring segment's sequence number. */
  seq: number;
}

/** A cached body and, once a client has accepted it, its gzip representation. */
interface Entry extends Kept {
  gzip: Kept | null;
}

/**
 * Share of the budget written between two hints to the garbage collector. Each cold response
 * leaves garbage (its rows' strings, the page's parts), which the runtime lets grow with the live
 * heap before collecting; a hint every eighth of the budget starts a concurrent collection early
 * and keeps the process 20 to 30 MB smaller under a stream of distinct requests (a quarter kept
 * it about 20 MB smaller than no hint), at no measurable cost in throughput.
 */
const HINT_AFTER_SHARE = 0.125;

/**
 * Share of the budget that Blobs of repeated bodies may take beside the ring. A Response built
 * from a byte array gets its own copy of the body, which the collector must then free; one built
 * from a Blob shares the Blob's bytes. On an 8 KB page that copy and the collections it brings
 * cost 4-7% of a request. A body gets its Blob on its first hit: a body asked for once (a stream
 * of distinct requests) never makes one, and the cap bounds what a stream of repeated ones can.
 */
const BLOB_SHARE = 0.25;

/** Key of a body's gzip representation: its plain key after a prefix no route's keys start with. */
const GZIP_KEY_PREFIX = "gzip|";

/**
 * The responses of one snapshot, bounded in bytes: bodies live in a BodyRing, which drops the
 * oldest sixteenth when full. A hit on a body in the older half copies it to the head, so what is
 * asked for keeps its place and what is not ages out: close to least-recently-used eviction.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ring: BodyRing;
  private writtenBytes = 0;
  private readonly maxBlobBytes: number;
  private blobBytes = 0;

  constructor(readonly maxBytes: number) {
    this.ring = new BodyRing(maxBytes, (key, seq) => this.dropped(key, seq));
    this.maxBlobBytes = Math.floor(maxBytes * BLOB_SHARE);
  }

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.ring.usedBytes;
  }

  /** Bytes held in Blobs of repeated bodies, beside the ring (at most a quarter of the budget). */
  get blobBytesHeld(): number {
    return this.blobBytes;
  }

  /**
   * The cached rendering of `key`, or the result of `make()`, stored when it fits; with `gzip`,
   * its gzip representation when the body is large enough to have one, made on first use.
   */
  get(key: string, make: () => Rendered | Draft, gzip = false): { rendered: Rendered; hit: boolean } {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      const made = this.make(key, make);
      return { rendered: gzip ? this.gzipOf(key, made) : made, hit: false };
    }
    // The refreshed copy is the one to send: the move may have reused the old one's segment.
    if (this.ring.isOld(entry.seq)) this.refresh(key, entry);
    if (!gzip) return { rendered: this.withBlob(entry.rendered), hit: true };
    if (entry.gzip === null) return { rendered: this.gzipOf(key, entry.rendered), hit: false };
    if (this.ring.isOld(entry.gzip.seq)) this.refresh(`${GZIP_KEY_PREFIX}${key}`, entry.gzip);
    return { rendered: this.withBlob(entry.gzip.rendered), hit: true };
  }

  /** A cached rendering served again, given its Blob while the Blobs' share has room. */
  private withBlob(rendered: Rendered): Rendered {
    if (rendered.blob !== undefined) return rendered;
    const size = rendered.body.byteLength;
    if (this.blobBytes + size > this.maxBlobBytes) return rendered;
    rendered.blob = new Blob([rendered.body]);
    this.blobBytes += size;
    return rendered;
  }

  /** Releases the share of a rendering's Blob as the rendering leaves the cache. */
  private release(rendered: Rendered | undefined): void {
    if (rendered?.blob !== undefined) this.blobBytes -= rendered.body.byteLength;
  }

  private make(key: string, make: () => Rendered | Draft): Rendered {
    const made = make();
    if ("body" in made) return this.store(key, made) ?? made;
    return this.storeDraft(key, made) ?? render(made.parts, made.contentType, made.cacheControl, made.status);
  }

  /** The gzip representation of `key`'s rendering, kept beside it; the rendering itself when it has none. */
  private gzipOf(key: string, rendered: Rendered): Rendered {
    if (rendered.status !== 200 || rendered.body.byteLength < MIN_GZIP_BYTES) return rendered;
    const compressed = gzipped(rendered);
    const entry = this.entries.get(key);
    if (entry === undefined) return compressed;
    const stored = this.ring.store(`${GZIP_KEY_PREFIX}${key}`, compressed.body, overhead(key));
    if (stored === null) return compressed;
    entry.gzip = { rendered: { ...compressed, body: stored.view }, seq: stored.seq };
    return entry.gzip.rendered;
  }

  private storeDraft(key: string, d: Draft): Rendered | null {
    const stored = this.ring.write(key, byteLength(d.parts), overhead(key), (target) => encodeParts(d.parts, target));
    if (stored === null) return null;
    this.hintCollector(stored.view.byteLength);
    const rendered = finish(stored.view, d);
    this.entries.set(key, { rendered, seq: stored.seq, gzip: null });
    return rendered;
  }

  private store(key: string, rendered: Rendered): Rendered | null {
    const stored = this.ring.store(key, rendered.body, overhead(key));
    if (stored === null) return null;
    const kept = { ...rendered, body: stored.view };
    this.entries.set(key, { rendered: kept, seq: stored.seq, gzip: null });
    return kept;
  }

  /** Copies a body from the older half of the ring to its head (`ringKey` is its key there). */
  private refresh(ringKey: string, kept: Kept): void {
    const stored = this.ring.store(ringKey, kept.rendered.body, overhead(ringKey));
    if (stored === null) return;
    kept.rendered = { ...kept.rendered, body: stored.view };
    kept.seq = stored.seq;
  }

  /** Forgets a body whose ring segment is being reused, unless it was written again since. */
  private dropped(ringKey: string, seq: number): void {
    if (ringKey.startsWith(GZIP_KEY_PREFIX)) {
      const entry = this.entries.get(ringKey.slice(GZIP_KEY_PREFIX.length));
      if (entry?.gzip?.seq !== seq) return;
      this.release(entry.gzip.rendered);
      entry.gzip = null;
    } else {
      const entry = this.entries.get(ringKey);
      if (entry?.seq !== seq) return;
      this.release(entry.rendered);
      this.release(entry.gzip?.rendered);
      this.entries.delete(ringKey);
    }
  }

  private hintCollector(written: number): void {
    this.writtenBytes += written;
    if (this.writtenBytes < this.maxBytes * HINT_AFTER_SHARE) return;
    this.writtenBytes = 0;
    Bun.gc(false);
  }
}
