/**
 * Floods: the limiter's memory stays bounded under a million distinct clients, it judges every
 * key it holds exactly, and a malformed X-Forwarded-For falls back to the socket address.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import fc from "fast-check";
import { clientAddress } from "../../src/http/client-address";
import { RateLimiter } from "../../src/http/rate-limit";
import { appWithSnapshot, serve, type TestApp } from "./support/catalog";

/** The n-th IPv4 address of a flood. */
const ipv4 = (n: number) => `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

describe("RateLimiter under a flood", () => {
  test("a million distinct clients: never more than maxKeys held, heap growth bounded, still fast", () => {
    const maxKeys = 10_000;
    const limiter = new RateLimiter(2000, maxKeys);
    Bun.gc(true);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    for (let i = 0; i < 1_000_000; i++) {
      // A million clients inside one window: nothing expires, only the bound can forget.
      expect(limiter.hit(`/api/v1/plugins ${ipv4(i)}`, 10_000 + i / 1000).allowed).toBe(true);
      if (i % 50_000 === 0) expect(limiter.size).toBeLessThanOrEqual(maxKeys);
    }
    const elapsed = performance.now() - started;
    expect(limiter.size).toBe(maxKeys);
    Bun.gc(true);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
    expect(elapsed).toBeLessThan(15_000);
  });

  test("exact for the keys it holds: the newest maxKeys clients are refused to the millisecond", () => {
    const limiter = new RateLimiter(2000, 1000);
    for (let i = 0; i < 50_000; i++) limiter.hit(ipv4(i), 100_000);
    for (let i = 49_000; i < 50_000; i++)
      expect(limiter.hit(ipv4(i), 101_500)).toEqual({ allowed: false, resetMs: 500 });
    expect(limiter.hit(ipv4(49_999), 101_999).allowed).toBe(false);
    expect(limiter.hit(ipv4(49_999), 102_000).allowed).toBe(true);
    // The oldest were forgotten to keep the bound: admitted again.
    expect(limiter.hit(ipv4(0), 101_500).allowed).toBe(true);
  });

  test("expired keys are forgotten first, so a quiet limiter shrinks as traffic moves on", () => {
    const limiter = new RateLimiter(1000, 100);
    for (let i = 0; i < 100; i++) limiter.hit(`a${i}`, 0);
    limiter.hit("late", 5000);
    expect(limiter.size).toBe(1);
  });

  test("floods and quiet spells in turn: the bound holds and the keys held stay exact", () => {
    // A power of two, so the key table has exactly twice the slots: the fullest it gets.
    const maxKeys = 1024;
    const limiter = new RateLimiter(1000, maxKeys);
    let now = 0;
    let next = 0;
    for (let spell = 0; spell < 30; spell++) {
      // A flood of new clients within one window: the oldest are forgotten to keep the bound.
      const first = next;
      for (let i = 0; i < 5 * maxKeys; i++) expect(limiter.hit(next++, now + i / 10_000).allowed).toBe(true);
      expect(limiter.size).toBe(maxKeys);
      // The newest maxKeys are held, exactly; the one before them is forgotten.
      const at = now + 0.6;
      for (let k = next - maxKeys; k < next; k++) expect(limiter.hit(k, at).allowed).toBe(false);
      expect(limiter.hit(next - maxKeys - 1, at).allowed).toBe(true);
      expect(limiter.hit(first, at).allowed).toBe(true);
      // Everyone's window passes; the same clients come back once and are admitted again.
      now += 5000;
      for (let k = next - 10; k < next; k++) expect(limiter.hit(k, now).allowed).toBe(true);
      expect(limiter.size).toBe(10);
      now += 5000;
    }
  });

  test("against an unbounded model: every key still held gets the model's verdict", () => {
    const step = fc.record({ key: fc.integer({ min: 0, max: 30 }), advance: fc.integer({ min: 0, max: 700 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(step, { maxLength: 300 }), (maxKeys, steps) => {
        const limiter = new RateLimiter(1000, maxKeys);
        const model = new Map<number, number>();
        const admissions: number[] = [];
        let now = 0;
        for (const { key, advance } of steps) {
          now += advance;
          const since = model.get(key);
          const modelAllows = since === undefined || now - since >= 1000;
          const held = admissions.slice(-maxKeys).includes(key) && since !== undefined && now - since < 1000;
          const verdict = limiter.hit(`k${key}`, now);
          if (held || modelAllows) expect(verdict.allowed).toBe(modelAllows);
          if (verdict.allowed) {
            model.set(key, now);
            admissions.push(key);
          }
          expect(limiter.size).toBeLessThanOrEqual(maxKeys);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("client address", () => {
  const MALFORMED = [
    "",
    " ",
    ",",
    "unknown",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "1.2.3.4:8080",
    "[::1]",
    "[::1]:80",
    ":",
    "1:2",
    "::::",
    "fe80::1%eth0",
    "<script>",
    "1.2.3.4 5.6.7.8",
    "x".repeat(5000),
  ];

  test("a malformed entry where the trusted proxy's should be falls back to the socket address", () => {
    for (const header of MALFORMED) expect(clientAddress(header, "192.0.2.1", 1)).toBe("192.0.2.1");
    expect(clientAddress(" 203.0.113.5 , 10.0.0.1", "192.0.2.1", 2)).toBe("203.0.113.5");
    expect(clientAddress("2001:db8::1", "192.0.2.1", 1)).toBe("2001:db8::1");
  });

  test("any header: the result is the socket address or the canonical entry the outermost trusted proxy wrote", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.ipV4(),
          fc.ipV6(),
          fc.array(fc.oneof(fc.ipV4(), fc.string())).map((a) => a.join(",")),
        ),
        fc.integer({ min: 1, max: 3 }),
        (header, hops) => {
          const ip = clientAddress(header, "192.0.2.1", hops);
          if (ip !== "192.0.2.1") {
            const entries = header.split(",");
            const written = entries[Math.max(0, entries.length - hops)]!.trim();
            expect(isIP(ip)).not.toBe(0);
            expect(clientAddress(null, written, 0)).toBe(ip);
          }
          expect(clientAddress(header, "192.0.2.1", 0)).toBe("192.0.2.1");
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("the limit over HTTP with TRUST_PROXY", () => {
  let t: TestApp | undefined;
  afterEach(() => {
    t?.close();
    t = undefined;
  });

  test("thousands of forwarded clients: the newest are still limited, the oldest forgotten", async () => {
    t = appWithSnapshot({ TRUST_PROXY: "2", RATE_LIMIT_WINDOW_MS: "60000", RATE_LIMIT_MAX_KEYS: "500" });
    const server = serve(t);
    const get = (ip: string) =>
      fetch(`${server.url}/market/manifest.json`, { headers: { "X-Forwarded-For": `${ip}, 10.0.0.1` } });
    const clients = Array.from({ length: 3000 }, (_, i) => ipv4(0x0a000000 + i));
    for (let i = 0; i < clients.length; i += 100) {
      const statuses = await Promise.all(clients.slice(i, i + 100).map(async (ip) => (await get(ip)).status));
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    const newest = await get(clients.at(-1)!);
    expect(newest.status).toBe(429);
    expect(Number(newest.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    expect((await get(clients[0]!)).status).toBe(200);
    await server.stop();
  });

  test("malformed X-Forwarded-For values all count against the socket address", async () => {
    t = appWithSnapshot({ TRUST_PROXY: "true", RATE_LIMIT_WINDOW_MS: "60000" });
    const server = serve(t);
    const get = (xff: string) => fetch(`${server.url}/market/v1/plugins`, { headers: { "X-Forwarded-For": xff } });
    expect((await get("not-an-address")).status).toBe(200);
    for (const xff of ["1.2.3.4:8080", "[::1]:443", "999.1.1.1", "203.0.113.1, ", "127.0.0.1.1"])
      expect((await get(xff)).status).toBe(429);
    expect((await fetch(`${server.url}/market/v1/plugins`)).status).toBe(429);
    expect((await get("203.0.113.1")).status).toBe(200);
    await server.stop();
  });
});
