/**
 * Responses rendered once per snapshot: body, ETag and headers are computed on the first request
 * and served from memory until the next swap (a new store cache). The cache is bounded in bytes
 * and evicts the least recently used entries first.
 */

export interface Rendered {
  status: number;
  body: Uint8Array;
  etag: string;
  headers: Record<string, string>;
}

export const JSON_TYPE = "application/json; charset=utf-8";
export const JSON_CACHE_CONTROL = "public, max-age=300";

const encoder = new TextEncoder();

/** Renders a body once: bytes, a strong ETag derived from them, and the fixed headers. */
export function render(body: string, contentType: string, cacheControl: string, status = 200): Rendered {
  const bytes = encoder.encode(body);
  const etag = `"${Bun.hash(bytes).toString(36)}-${bytes.byteLength.toString(36)}"`;
  return {
    status,
    body: bytes,
    etag,
    headers: { "Content-Type": contentType, "Cache-Control": cacheControl, ETag: etag },
  };
}

/** True when an If-None-Match header names the ETag (or is `*`). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** The response state of a request as the framework (Elysia's `set`) keeps it. */
export interface ResponseState {
  headers: Record<string, string | number>;
  status?: number | string;
}

/**
 * Answers with a rendered body: 304 with no body when the client's copy is current. The headers
 * go into the response state and the bare bytes are returned, so the framework builds the one
 * Response of the request with every header at once; a returned Response would be rebuilt to
 * merge the headers other hooks set, which cost a third of the throughput of a cached page.
 */
export function respond(rendered: Rendered, request: Request, set: ResponseState): Uint8Array | null {
  Object.assign(set.headers, rendered.headers);
  if (rendered.status === 200 && matchesEtag(request.headers.get("if-none-match"), rendered.etag)) {
    set.status = 304;
    return null;
  }
  set.status = rendered.status;
  return rendered.body;
}

const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Share of the budget evicted between two full collections. Evicted bodies have lived long enough
 * to be old garbage, which the runtime collects late: under a stream of distinct requests the
 * process grew to several times the budget before it did. Collecting after every quarter budget
 * keeps it near the budget, for a pause of a few milliseconds every few hundred cold requests.
 */
const COLLECT_AFTER_SHARE = 0.25;

export class ResponseCache {
  private readonly entries = new Map<string, Rendered>();
  private bytes = 0;
  private evictedBytes = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /** The cached rendering of `key`, or the result of `make()`, stored when it fits the budget. */
  get(key: string, make: () => Rendered): { rendered: Rendered; hit: boolean } {
    const found = this.entries.get(key);
    if (found) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, found);
      return { rendered: found, hit: true };
    }
    const rendered = make();
    const cost = rendered.body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (cost <= this.maxBytes) {
      while (this.bytes + cost > this.maxBytes) this.evictOldest();
      this.entries.set(key, rendered);
      this.bytes += cost;
      this.collectIfChurned();
    }
    return { rendered, hit: false };
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done) return;
    const entry = this.entries.get(oldest.value)!;
    this.entries.delete(oldest.value);
    const cost = entry.body.byteLength + oldest.value.length * 2 + ENTRY_OVERHEAD_BYTES;
    this.bytes -= cost;
    this.evictedBytes += cost;
  }

  private collectIfChurned(): void {
    if (this.evictedBytes < this.maxBytes * COLLECT_AFTER_SHARE) return;
    this.evictedBytes = 0;
    Bun.gc(true);
  }
}
