/** The limiter's IPv4 parser agrees with net.isIPv4 on what an address is, and reads its number. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isIPv4 } from "node:net";
import { ipv4Number } from "../../src/http/ratelimit";

describe("ipv4Number", () => {
  test("reads dotted quads as 32-bit numbers", () => {
    expect(ipv4Number("0.0.0.0")).toBe(0);
    expect(ipv4Number("10.0.0.1")).toBe(10 * 2 ** 24 + 1);
    expect(ipv4Number("255.255.255.255")).toBe(2 ** 32 - 1);
    expect(ipv4Number("192.168.1.20")).toBe(((192 * 256 + 168) * 256 + 1) * 256 + 20);
  });

  test("rejects what net.isIPv4 rejects", () => {
    for (const bad of ["", "1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.", "256.1.1.1", "01.2.3.4", "1.2.3.04", "1.2.3.4 ", "a.b.c.d", "1.2.3.-4", "::1", "1.2.3.4:80"]) {
      expect(isIPv4(bad)).toBe(false);
      expect(ipv4Number(bad)).toBe(-1);
    }
  });

  test("agrees with net.isIPv4 on arbitrary strings of digits and dots", () => {
    const text = fc.array(fc.constantFrom("0", "1", "2", "5", "9", ".", "25", "255", "256", "00"), { maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(fc.property(text, (value) => (ipv4Number(value) >= 0) === isIPv4(value)), { numRuns: 20_000 });
  });
});
