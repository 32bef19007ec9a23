import { describe, expect, test } from "bun:test";
import { clientIp, clientKey, RateLimiter } from "../../src/http/ratelimit";

describe("clientKey", () => {
  test("an IPv4 client is its address and endpoint exactly: distinct pairs, distinct keys", () => {
    const keys = new Set<number>();
    for (const endpoint of [0, 1, 4]) for (const ip of ["0.0.0.0", "10.0.0.1", "10.0.1.0", "255.255.255.255", "192.0.2.1"]) keys.add(clientKey(endpoint, ip));
    expect(keys.size).toBe(15);
    expect(clientKey(1, "10.0.0.1")).toBe(2 ** 32 + 10 * 2 ** 24 + 1);
  });

  test("IPv6 and anything else are hashed into a range IPv4 keys never reach", () => {
    for (const ip of ["2001:db8::1", "::1", "unknown", "1.2.3", "1.2.3.4.5", "256.1.1.1"]) {
      const key = clientKey(0, ip);
      expect(key).toBeGreaterThanOrEqual(2 ** 52);
      expect(Number.isSafeInteger(key)).toBe(true);
    }
    expect(clientKey(0, "2001:db8::1")).not.toBe(clientKey(1, "2001:db8::1"));
  });

  test("the limiter judges numeric keys like string ones", () => {
    const limiter = new RateLimiter(2000);
    expect(limiter.hit(clientKey(0, "10.0.0.1"), 1000).allowed).toBe(true);
    expect(limiter.hit(clientKey(0, "10.0.0.1"), 2000)).toEqual({ allowed: false, resetMs: 1000 });
    expect(limiter.hit(clientKey(1, "10.0.0.1"), 2000).allowed).toBe(true);
  });
});

describe("clientIp", () => {
  test("asks for the socket address only when it is the answer", () => {
    let asked = 0;
    const socket = () => (asked++, "192.0.2.9");
    expect(clientIp("203.0.113.5", socket, true)).toBe("203.0.113.5");
    expect(asked).toBe(0);
    expect(clientIp("203.0.113.5", socket, false)).toBe("192.0.2.9");
    expect(clientIp("not an ip", socket, true)).toBe("192.0.2.9");
    expect(asked).toBe(2);
  });
});
