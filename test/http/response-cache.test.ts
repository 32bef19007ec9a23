import { describe, expect, test } from "bun:test";
import { draft, render, respond, ResponseCache, type Rendered } from "../../src/http/cache";

const KB = 1024;

function page(key: string, size: number): Rendered {
  return render(`${key}:${"x".repeat(size - key.length - 1)}`, "application/json", "public");
}

function text(rendered: Rendered): string {
  return new TextDecoder().decode(rendered.body);
}

describe("ResponseCache", () => {
  test("a repeated key is a hit with the same bytes and ETag", () => {
    const cache = new ResponseCache(1024 * KB);
    const first = cache.get("a", () => page("a", 2 * KB));
    const again = cache.get("a", () => {
      throw new Error("rendered again");
    });
    expect(first.hit).toBe(false);
    expect(again.hit).toBe(true);
    expect(text(again.rendered)).toBe(text(page("a", 2 * KB)));
    expect(again.rendered.etag).toBe(first.rendered.etag);
  });

  test("stays within its byte budget however many distinct responses pass through", () => {
    const cache = new ResponseCache(1024 * KB);
    for (let i = 0; i < 5000; i++) {
      const key = `k${i}`;
      const { rendered } = cache.get(key, () => page(key, 10 * KB));
      expect(text(rendered).startsWith(`${key}:`)).toBe(true);
      expect(cache.usedBytes).toBeLessThanOrEqual(cache.maxBytes);
    }
    expect(cache.size).toBeLessThan(1024 / 10);
    expect(cache.get("k0", () => page("k0", 10 * KB)).hit).toBe(false);
    expect(cache.get("k4999", () => page("k4999", 10 * KB)).hit).toBe(true);
  });

  test("small answers are charged what their entries hold outside the ring, not only their bytes", () => {
    // A cached rendering with its prepared headers holds about 4 KB of objects beside its body:
    // a budget of 8 MiB keeps about 1,500 single plugins of 1.3 KB, not the 4,000 their bytes
    // alone would fit, whose objects took twice the budget again.
    const budget = 8 * 1024 * KB;
    const cache = new ResponseCache(budget);
    for (let i = 0; i < 20_000; i++) {
      const key = `plugin:owner-${i}/repository-${i}`;
      const { rendered } = cache.get(key, () => page(key, 1300));
      respond(rendered, new Request("http://localhost/"), { headers: {} });
      expect(cache.size * (1300 + 4096)).toBeLessThanOrEqual(budget);
    }
    expect(cache.size).toBeGreaterThan(1000);
  });

  test("a response asked for again and again survives a stream of others, bytes intact", () => {
    const cache = new ResponseCache(1024 * KB);
    cache.get("hot", () => page("hot", 5 * KB));
    for (let i = 0; i < 3000; i++) {
      cache.get(`k${i}`, () => page(`k${i}`, 7 * KB));
      const hot = cache.get("hot", () => page("hot", 5 * KB));
      expect(hot.hit).toBe(true);
      expect(text(hot.rendered)).toBe(text(page("hot", 5 * KB)));
    }
  });

  test("every cached body keeps its own bytes while others come and go", () => {
    const cache = new ResponseCache(512 * KB);
    for (let i = 0; i < 2000; i++) cache.get(`k${i}`, () => page(`k${i}`, 1 * KB + (i % 50) * 97));
    for (let i = 1999; i >= 1960; i--) {
      const got = cache.get(`k${i}`, () => page(`k${i}`, 1 * KB + (i % 50) * 97));
      expect(got.hit).toBe(true);
      expect(text(got.rendered)).toBe(text(page(`k${i}`, 1 * KB + (i % 50) * 97)));
    }
  });

  test("a body served again is sent from a Blob of its bytes, its gzip too", async () => {
    const cache = new ResponseCache(1024 * KB);
    const first = cache.get("a", () => page("a", 6 * KB), true);
    expect(first.rendered.blob).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const again = cache.get("a", () => page("a", 6 * KB), true);
      expect(again.hit).toBe(true);
      expect(again.rendered.blob).toBeDefined();
      expect(Buffer.from(await again.rendered.blob!.bytes()).equals(Buffer.from(again.rendered.body))).toBe(true);
      const response = respond(again.rendered, new Request("http://localhost/"), { headers: {} })!;
      expect(response.headers.get("Content-Encoding")).toBe("gzip");
      expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await response.arrayBuffer())))).toBe(text(page("a", 6 * KB)));
    }
    // The plain rendering was made by the first request: the first request for it is a hit.
    const plain = cache.get("a", () => page("a", 6 * KB));
    expect(plain.hit).toBe(true);
    expect(plain.rendered.blob).toBeDefined();
    expect(cache.blobBytesHeld).toBe(plain.rendered.body.byteLength + first.rendered.body.byteLength);
  });

  test("Blobs stay within a quarter of the budget and give it back as their bodies leave", () => {
    const cache = new ResponseCache(1024 * KB);
    cache.get("hot", () => page("hot", 5 * KB));
    cache.get("hot", () => page("hot", 5 * KB));
    // 60 bodies asked for twice fit the ring (with their entries' charge), but not all get a Blob.
    for (let i = 0; i < 60; i++) {
      cache.get(`k${i}`, () => page(`k${i}`, 7 * KB));
      expect(cache.get(`k${i}`, () => page(`k${i}`, 7 * KB)).hit).toBe(true);
      expect(cache.blobBytesHeld).toBeLessThanOrEqual(cache.maxBytes / 4);
    }
    expect(cache.blobBytesHeld).toBeGreaterThan(cache.maxBytes / 4 - 7 * KB);
    expect(cache.get("k59", () => page("k59", 7 * KB)).rendered.blob).toBeUndefined();
    // A stream of bodies asked for once makes no Blobs and pushes the others' out.
    for (let i = 0; i < 400; i++) {
      cache.get(`once${i}`, () => page(`once${i}`, 7 * KB));
      expect(cache.get("hot", () => page("hot", 5 * KB)).rendered.blob).toBeDefined();
    }
    expect(cache.blobBytesHeld).toBe(5 * KB);
  });

  test("a body larger than a segment is served but not kept; a zero budget keeps nothing", () => {
    const cache = new ResponseCache(256 * KB);
    expect(cache.get("big", () => page("big", 200 * KB)).rendered.body.byteLength).toBe(200 * KB);
    expect(cache.get("big", () => page("big", 200 * KB)).hit).toBe(false);
    const none = new ResponseCache(0);
    none.get("a", () => page("a", KB));
    expect(none.get("a", () => page("a", KB)).hit).toBe(false);
    expect(none.usedBytes).toBe(0);
  });

  test("a draft in parts is cached as exactly the bytes and ETag of the joined text", () => {
    const parts = ['{"items":[', '{"d":"Résumé 中文 😀"}', ",", '{"d":"lone \uD800 surrogate"}', "]}"];
    const whole = render(parts.join(""), "application/json", "public");
    for (const budget of [1024 * KB, 0]) {
      const cache = new ResponseCache(budget);
      const { rendered } = cache.get("k", () => draft(parts, "application/json", "public"));
      expect(Buffer.from(rendered.body).equals(Buffer.from(whole.body))).toBe(true);
      expect(rendered.etag).toBe(whole.etag);
      expect(rendered.headers).toEqual(whole.headers);
    }
    expect(Buffer.from(render(parts, "application/json", "public").body).equals(Buffer.from(whole.body))).toBe(true);
  });
});
