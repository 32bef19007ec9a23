import { describe, expect, test } from "bun:test";
import { type Rendered, ResponseCache, render, respond } from "../../src/http/cache";

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

  test("small answers are charged what their entries hold beside their bytes", () => {
    // A cached rendering with its prepared headers holds about 4 KB of objects beside its body:
    // a budget of 8 MiB keeps about 1,500 single plugins of 1.3 KB, not the 4,000 their bytes
    // alone would fit, whose objects took twice the budget again.
    const budget = 8 * 1024 * KB;
    const cache = new ResponseCache(budget);
    for (let i = 0; i < 20_000; i++) {
      const key = `plugin:owner-${i}/repository-${i}`;
      const { rendered } = cache.get(key, () => page(key, 1300));
      respond(rendered, new Request("http://localhost/"), { headers: {} }, null);
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

  test("a body larger than the budget is served but not kept; a zero budget keeps nothing", () => {
    const cache = new ResponseCache(256 * KB);
    expect(cache.get("big", () => page("big", 300 * KB)).rendered.body.byteLength).toBe(300 * KB);
    expect(cache.get("big", () => page("big", 300 * KB)).hit).toBe(false);
    const none = new ResponseCache(0);
    none.get("a", () => page("a", KB));
    expect(none.get("a", () => page("a", KB)).hit).toBe(false);
    expect(none.usedBytes).toBe(0);
  });
});
