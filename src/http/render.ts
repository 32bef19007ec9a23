/**
 * Rendering a response body once: its bytes, a strong ETag derived from them, and the fixed
 * headers. A body may come as parts, written one after another and never joined.
 */

export interface Rendered {
  status: number;
  body: Uint8Array;
  etag: string;
  headers: Record<string, string>;
  /** The complete response headers, built on first use (see `respond` in cache.ts). */
  prepared?: Prepared;
  /**
   * The body as a Blob, made once the response cache has served the rendering again (see
   * `ResponseCache`): Bun sends a Blob's bytes as they are, where it copies a byte array into
   * every Response.
   */
  blob?: Blob;
}

export interface Prepared {
  /** The rate-limit headers they include (one shared object per window length), or null. */
  limit: Readonly<Record<string, string>> | null;
  headers: Headers;
}

const encoder = new TextEncoder();

/**
 * Bodies from this size on are also offered gzip-compressed (and say `Vary: Accept-Encoding`);
 * smaller ones gain too little to be worth a second representation.
 */
export const MIN_GZIP_BYTES = 1024;

/**
 * A body not yet encoded: its text in parts, written one after another and never joined, so a
 * page of plugins is encoded straight into the response cache without whole-page strings.
 */
export interface Draft {
  parts: readonly string[];
  contentType: string;
  cacheControl: string;
  status: number;
}

export function draft(body: string | readonly string[], contentType: string, cacheControl: string, status = 200): Draft {
  return { parts: typeof body === "string" ? [body] : body, contentType, cacheControl, status };
}

/** The UTF-8 length of the parts. */
export function byteLength(parts: readonly string[]): number {
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part, "utf8");
  return length;
}

/** Encodes the parts into `target`; the bytes written, or -1 when they did not all fit. */
export function encodeParts(parts: readonly string[], target: Uint8Array): number {
  let written = 0;
  for (const part of parts) {
    const result = encoder.encodeInto(part, target.subarray(written));
    if (result.read < part.length) return -1;
    written += result.written;
  }
  return written;
}

/** The rendering of encoded bytes: a strong ETag derived from them and the fixed headers. */
export function finish(body: Uint8Array, d: Draft): Rendered {
  const etag = `"${Bun.hash(body).toString(36)}-${body.byteLength.toString(36)}"`;
  const headers: Record<string, string> = { "Content-Type": d.contentType, "Cache-Control": d.cacheControl, ETag: etag };
  if (body.byteLength >= MIN_GZIP_BYTES) headers.Vary = "Accept-Encoding";
  return { status: d.status, body, etag, headers };
}

/**
 * Suffix of a gzip representation's ETag: `"abc-1f"` becomes `"abc-1f.gzip"`. A dot never occurs
 * in the base-36 hash and length, so no plain ETag ends like a gzip one.
 */
const GZIP_ETAG_SUFFIX = '.gzip"';

/**
 * The gzip representation of a rendering: compressed once, at the level that is the usual
 * default (a 36 KB page to 8 KB in 0.4 ms; level 9 saves under 1% at twice the time). Its ETag
 * differs from the original's, as a distinct representation's must.
 */
export function gzipped(rendered: Rendered): Rendered {
  const body = Bun.gzipSync(rendered.body as Uint8Array<ArrayBuffer>, { level: 6 });
  const etag = `${rendered.etag.slice(0, -1)}${GZIP_ETAG_SUFFIX}`;
  return { status: rendered.status, body, etag, headers: { ...rendered.headers, ETag: etag, "Content-Encoding": "gzip" } };
}

/** An ETag without the gzip suffix: both representations of one body are the same version of it. */
export function baseEtag(etag: string): string {
  return etag.endsWith(GZIP_ETAG_SUFFIX) ? `${etag.slice(0, -GZIP_ETAG_SUFFIX.length)}"` : etag;
}

/** Renders a body once: bytes, a strong ETag derived from them, and the fixed headers. */
export function render(body: string | readonly string[], contentType: string, cacheControl: string, status = 200): Rendered {
  const d = draft(body, contentType, cacheControl, status);
  if (d.parts.length === 1) return finish(encoder.encode(d.parts[0]), d);
  const bytes = new Uint8Array(byteLength(d.parts));
  return finish(encodeParts(d.parts, bytes) === bytes.byteLength ? bytes : encoder.encode(d.parts.join("")), d);
}
