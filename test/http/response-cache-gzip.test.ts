/** The gzip representations in the response cache: a second entry beside the plain body, made on first use. */
import { describe, expect, test } from "bun:test";
import { matchesEtag, type Rendered, ResponseCache, render } from "../../src/http/cache";
import { MIN_GZIP_BYTES } from "../../src/http/render";

const KB = 1024;

/** Pseudo-random letters: text that gzip shrinks, but only to about two thirds. */
const FILLER = (() => {
  let x = 12345;
  return Array.from({ length: 256 * KB }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(97 + (x % 26));
  }).join("");
})();

/** A body of exactly `size` bytes, distinct per key. */
function page(key: string, size: number, status = 200): Rendered {
  return render(`${key}:${FILLER.slice(0, size - key.length - 1)}`, "application/json", "public", status);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function gunzip(body: Uint8Array): Uint8Array {
  return Bun.gunzipSync(body as Uint8Array<ArrayBuffer>);
}

const never = (): Rendered => {
  throw new Error("rendered again");
};

/** Asserts `gz` is the gzip representation of `plain`. */
function expectGzipOf(gz: Rendered, plain: Rendered): void {
  expect(gz.status).toBe(200);
  expect(gz.etag).toBe(`${plain.etag.slice(0, -1)}.gzip"`);
  expect(gz.headers).toEqual({ ...plain.headers, ETag: gz.etag, "Content-Encoding": "gzip" });
  expect(gz.headers.Vary).toBe("Accept-Encoding");
  expect(sameBytes(gunzip(gz.body), plain.body)).toBe(true);
  expect(gz.body.byteLength).toBeLessThan(plain.body.byteLength);
}

describe("ResponseCache with gzip", () => {
  test("the first gzip request makes the gzip entry (a miss); the second is a hit with the same bytes", () => {
    const cache = new ResponseCache(1024 * KB);
    const plain = page("a", 8 * KB);
    const first = cache.get("a", () => plain, true);
    expect(first.hit).toBe(false);
    expectGzipOf(first.rendered, plain);
    const again = cache.get("a", never, true);
    expect(again.hit).toBe(true);
    expect(again.rendered.etag).toBe(first.rendered.etag);
    expect(sameBytes(again.rendered.body, first.rendered.body)).toBe(true);
    // The plain body was kept too.
    const plainAgain = cache.get("a", never);
    expect(plainAgain.hit).toBe(true);
    expect(plainAgain.rendered.etag).toBe(plain.etag);
    expect(sameBytes(plainAgain.rendered.body, plain.body)).toBe(true);
  });

  test("a cached plain body still gives a miss on its first gzip request, made from the cache without rendering", () => {
    const cache = new ResponseCache(1024 * KB);
    const plain = page("a", 4 * KB);
    expect(cache.get("a", () => plain).hit).toBe(false);
    expect(cache.get("a", never).hit).toBe(true);
    const firstGzip = cache.get("a", never, true);
    expect(firstGzip.hit).toBe(false);
    expectGzipOf(firstGzip.rendered, plain);
    expect(cache.get("a", never, true).hit).toBe(true);
    expect(cache.get("a", never).rendered.headers["Content-Encoding"]).toBeUndefined();
  });

  test("bodies under MIN_GZIP_BYTES get the plain rendering, hit or miss; from MIN_GZIP_BYTES on, gzip", () => {
    const cache = new ResponseCache(1024 * KB);
    const small = page("s", MIN_GZIP_BYTES - 1);
    expect(small.body.byteLength).toBe(MIN_GZIP_BYTES - 1);
    expect(small.headers.Vary).toBeUndefined();
    const first = cache.get("s", () => small, true);
    expect(first.rendered.etag).toBe(small.etag);
    expect(first.rendered.headers).toEqual(small.headers);
    expect(sameBytes(first.rendered.body, small.body)).toBe(true);
    const again = cache.get("s", never, true);
    expect(again.rendered.etag).toBe(small.etag);
    expect(again.rendered.headers["Content-Encoding"]).toBeUndefined();
    expect(sameBytes(again.rendered.body, small.body)).toBe(true);

    const edge = page("e", MIN_GZIP_BYTES);
    expect(edge.body.byteLength).toBe(MIN_GZIP_BYTES);
    expect(edge.headers.Vary).toBe("Accept-Encoding");
    expect(cache.get("e", () => edge, true).rendered.headers["Content-Encoding"]).toBe("gzip");
  });

  test("a large body with a status other than 200 is never compressed", () => {
    const cache = new ResponseCache(1024 * KB);
    const missing = page("m", 4 * KB, 404);
    for (let i = 0; i < 2; i++) {
      const { rendered } = cache.get("m", () => missing, true);
      expect(rendered.status).toBe(404);
      expect(rendered.etag).toBe(missing.etag);
      expect(rendered.headers["Content-Encoding"]).toBeUndefined();
      expect(sameBytes(rendered.body, missing.body)).toBe(true);
    }
  });

  test("with nothing kept (a zero budget, or a body larger than the budget), gzip is still served", () => {
    const none = new ResponseCache(0);
    const plain = page("a", 4 * KB);
    for (let i = 0; i < 2; i++) {
      const got = none.get("a", () => plain, true);
      expect(got.hit).toBe(false);
      expectGzipOf(got.rendered, plain);
    }
    expect(none.usedBytes).toBe(0);

    const small = new ResponseCache(256 * KB);
    const big = page("big", 250 * KB);
    const got = small.get("big", () => big, true);
    expect(got.hit).toBe(false);
    expectGzipOf(got.rendered, big);
  });

  test("the byte budget holds under a stream of distinct keys asked for with gzip, copies counted in it", () => {
    const cache = new ResponseCache(1024 * KB);
    const plainOnly = new ResponseCache(1024 * KB);
    const kept: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const key = `k${i}`;
      const plain = page(key, 10 * KB);
      const { rendered } = cache.get(key, () => plain, true);
      expect(rendered.headers["Content-Encoding"]).toBe("gzip");
      expect(sameBytes(gunzip(rendered.body), plain.body)).toBe(true);
      expect(cache.usedBytes).toBeLessThanOrEqual(cache.maxBytes);
      plainOnly.get(key, () => plain);
      if (i >= 990) kept.push(key);
    }
    // Each key costs its plain body and its gzip copy: fewer keys than plain bodies alone.
    expect(cache.size / 2).toBeLessThan(plainOnly.size * 0.8);
    expect(cache.get("k0", () => page("k0", 10 * KB), true).hit).toBe(false);
    for (const key of kept) {
      const plain = cache.get(key, never);
      expect(plain.hit).toBe(true);
      expect(sameBytes(plain.rendered.body, page(key, 10 * KB).body)).toBe(true);
      const gz = cache.get(key, never, true);
      expect(gz.hit).toBe(true);
      expect(sameBytes(gunzip(gz.rendered.body), plain.rendered.body)).toBe(true);
    }
  });

  test("a gzip copy survives as long as its key keeps being asked for with gzip, bytes intact", () => {
    const cache = new ResponseCache(1024 * KB);
    const hot = page("hot", 6 * KB);
    expect(cache.get("hot", () => hot, true).hit).toBe(false);
    const zippedEtag = cache.get("hot", never, true).rendered.etag;
    for (let i = 0; i < 1000; i++) {
      // Others pass through, plain and gzip.
      cache.get(`k${i}`, () => page(`k${i}`, 7 * KB), i % 2 === 0);
      const got = cache.get("hot", never, true);
      expect(got.hit).toBe(true);
      expect(got.rendered.etag).toBe(zippedEtag);
      expect(sameBytes(gunzip(got.rendered.body), hot.body)).toBe(true);
    }
    expect(cache.usedBytes).toBeLessThanOrEqual(cache.maxBytes);
    // Only the gzip copy was asked for, yet the plain body it belongs to was kept with it.
    const plain = cache.get("hot", never);
    expect(plain.hit).toBe(true);
    expect(sameBytes(plain.rendered.body, hot.body)).toBe(true);
  });

  test("a gzip copy no longer asked for ages out, while its plain body, asked for, stays", () => {
    const cache = new ResponseCache(1024 * KB);
    const hot = page("hot", 6 * KB);
    cache.get("hot", () => hot, true);
    for (let i = 0; i < 1000; i++) {
      cache.get(`k${i}`, () => page(`k${i}`, 7 * KB));
      expect(cache.get("hot", never).hit).toBe(true);
    }
    const again = cache.get("hot", never, true);
    expect(again.hit).toBe(false);
    expectGzipOf(again.rendered, hot);
    expect(cache.get("hot", never, true).hit).toBe(true);
  });

  test("a gzip copy is dropped with its plain body", () => {
    const cache = new ResponseCache(1024 * KB);
    cache.get("gone", () => page("gone", 6 * KB), true);
    expect(cache.get("gone", never, true).hit).toBe(true);
    for (let i = 0; i < 400; i++) cache.get(`k${i}`, () => page(`k${i}`, 7 * KB));
    let renders = 0;
    const got = cache.get("gone", () => (renders++, page("gone", 6 * KB)), true);
    expect(got.hit).toBe(false);
    expect(renders).toBe(1);
    expectGzipOf(got.rendered, page("gone", 6 * KB));
  });
});

describe("gzip ETags", () => {
  test("no plain ETag looks like a gzip one, whatever the body's length", () => {
    // 792,529 is "gzip" in base 36, the length part of a plain ETag.
    const plain = `"abc-${(792_529).toString(36)}"`;
    const gzipOfPlain = `${plain.slice(0, -1)}.gzip"`;
    expect(matchesEtag(plain, gzipOfPlain)).toBe(true);
    expect(matchesEtag(gzipOfPlain, plain)).toBe(true);
    expect(matchesEtag('"abc"', gzipOfPlain)).toBe(false);
  });
});
