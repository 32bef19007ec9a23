/** Rendering a response body once: its bytes, a strong ETag derived from them, and the fixed headers. */
import { bodies } from "./bodies";
import { SECURITY_HEADERS } from "./headers";

export interface Rendered {
  status: number;
  body: Uint8Array;
  etag: string;
  /** Every header of a 200, security headers included; routes may add to them before the rendering is served. */
  headers: Record<string, string>;
  /** The same as a Headers object, built when first served: a ready Headers makes a Response faster. */
  prepared?: Headers;
  /** The same with a rate limit's headers, built on the first limited request. */
  limited?: { limit: Readonly<Record<string, string>>; headers: Headers };
}

/** Smaller bodies gain too little from gzip to be worth a second representation. */
export const MIN_GZIP_BYTES = 1024;

/**
 * Suffix of a gzip representation's ETag: `"abc-1f"` becomes `"abc-1f.gzip"`. A dot never occurs
 * in the base-36 hash and length, so no plain ETag ends like a gzip one.
 */
const GZIP_ETAG_SUFFIX = '.gzip"';

/** A strong ETag from a hash of a body's bytes and their number: `"<hash>-<length>"` in base 36. */
export function strongEtag(hash: number | bigint, length: number): string {
  return `"${hash.toString(36)}-${length.toString(36)}"`;
}

/** The headers of a 200 with `etag`; Vary when a body of `plainLength` bytes also has a gzip form. */
export function bodyHeaders(
  contentType: string,
  cacheControl: string,
  etag: string,
  plainLength: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "Content-Type": contentType,
    "Cache-Control": cacheControl,
    ETag: etag,
  };
  if (plainLength >= MIN_GZIP_BYTES) headers.Vary = "Accept-Encoding";
  return headers;
}

/**
 * Renders a body, given whole or as parts written one after another, with a strong ETag derived
 * from its bytes. Parts spare a page the joined string of its items.
 */
export function render(
  body: string | readonly string[],
  contentType: string,
  cacheControl: string,
  status = 200,
): Rendered {
  const parts = typeof body === "string" ? [body] : body;
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part, "utf8");
  const bytes = bodies.take(length);
  let written = 0;
  for (const part of parts) written += bytes.write(part, written);
  const etag = strongEtag(Bun.hash(bytes), bytes.byteLength);
  return { status, body: bytes, etag, headers: bodyHeaders(contentType, cacheControl, etag, bytes.byteLength) };
}

/**
 * The gzip representation of a rendering, at the default level. Its ETag differs from the
 * original's, as a distinct representation's must.
 */
export function gzipped(rendered: Rendered): Rendered {
  const body = Bun.gzipSync(rendered.body as Uint8Array<ArrayBuffer>, { level: 6 });
  const etag = gzipEtag(rendered.etag);
  const headers = { ...rendered.headers, ETag: etag, "Content-Encoding": "gzip" };
  return { status: rendered.status, body, etag, headers };
}

/** The ETag of the gzip representation of a body whose ETag is `etag`. */
export function gzipEtag(etag: string): string {
  return `${etag.slice(0, -1)}${GZIP_ETAG_SUFFIX}`;
}

/** An ETag without the gzip suffix: both representations of one body are the same version of it. */
export function baseEtag(etag: string): string {
  return etag.endsWith(GZIP_ETAG_SUFFIX) ? `${etag.slice(0, -GZIP_ETAG_SUFFIX.length)}"` : etag;
}
