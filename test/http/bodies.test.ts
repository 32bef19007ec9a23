import { describe, expect, test } from "bun:test";
import { BodyPool } from "../../src/http/bodies";
import { ResponseCache, render } from "../../src/http/cache";

const KB = 1024;

describe("BodyPool", () => {
  test("a body given back is the memory of the next body of its size class", () => {
    const pool = new BodyPool();
    pool.maxFreeBytes = 64 * KB;
    const first = pool.take(3000);
    expect(first.byteLength).toBe(3000);
    expect(first.buffer.byteLength).toBe(4 * KB);
    pool.give(first);
    expect(pool.take(2500).buffer).toBe(first.buffer);
    expect(pool.take(2500).buffer).not.toBe(first.buffer);
  });

  test("keeps no more free memory than allowed, and never adopts a buffer it did not make", () => {
    const pool = new BodyPool();
    pool.maxFreeBytes = 8 * KB;
    const taken = [pool.take(4 * KB), pool.take(4 * KB), pool.take(4 * KB)];
    for (const body of taken) pool.give(body);
    const again = [pool.take(4 * KB), pool.take(4 * KB), pool.take(4 * KB)].map((b) => b.buffer);
    expect(again.filter((buffer) => taken.some((t) => t.buffer === buffer))).toHaveLength(2);
    const foreign = new Uint8Array(4 * KB);
    pool.give(foreign);
    expect(pool.take(4 * KB).buffer).not.toBe(foreign.buffer);
  });

  test("a body over 1 MiB gets a buffer of its own size", () => {
    const pool = new BodyPool();
    expect(pool.take(3 * 1024 * KB).buffer.byteLength).toBe(3 * 1024 * KB);
  });
});

describe("rendering into pooled memory", () => {
  test("a body given in parts renders the same bytes and ETag as the joined text", () => {
    const parts = ['{"items":[', '{"name":"é✓"}', ",", '{"name":"𝄞"}', "]}"];
    const joined = render(parts.join(""), "application/json", "public");
    const fromParts = render(parts, "application/json", "public");
    expect(Buffer.from(fromParts.body).equals(Buffer.from(joined.body))).toBe(true);
    expect(fromParts.etag).toBe(joined.etag);
  });

  test("a Response keeps its bytes after the cache drops its body and the memory holds another", async () => {
    const cache = new ResponseCache(64 * KB);
    const first = cache.get("first", () => render("a".repeat(20 * KB), "text/plain", "public")).rendered;
    const response = new Response(first.body as Uint8Array<ArrayBuffer>);
    // Three more bodies of the same size class push the first out; one of them reuses its buffer.
    const later = ["b", "c", "d"].map(
      (letter) => cache.get(letter, () => render(letter.repeat(20 * KB), "text/plain", "public")).rendered,
    );
    expect(cache.get("first", () => render("", "text/plain", "public")).hit).toBe(false);
    expect(later.some((rendered) => rendered.body.buffer === first.body.buffer)).toBe(true);
    expect(await response.text()).toBe("a".repeat(20 * KB));
  });

  test("a stream of distinct answers recycles the cache's memory instead of allocating anew", () => {
    const cache = new ResponseCache(256 * KB);
    const buffers = new Set<ArrayBufferLike>();
    for (let i = 0; i < 2000; i++) {
      const body = `${i}:${"x".repeat(6 * KB)}`;
      buffers.add(cache.get(`k${i}`, () => render(body, "text/plain", "public")).rendered.body.buffer);
    }
    // 8 KiB buffers: what the budget holds, and a few in flight, however many answers pass.
    expect(buffers.size).toBeLessThan((256 * KB) / (8 * KB) + 8);
  });
});
