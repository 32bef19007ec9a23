/** The limiter's IPv4 parser agrees with net.isIPv4 on what an address is, and reads its number. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isIPv4 } from "node:net";
import { clientKey, forwardedClient, forwardedKey, ipv4Number } from "../../src/http/ratelimit";

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

describe("forwardedKey", () => {
  test("is the key of the client forwardedClient names, or -1 when it names none", () => {
    const headers = [null, "", "10.0.0.1", " 10.0.0.1 , 172.16.0.1", "\t192.168.0.9,10.0.0.1", "01.2.3.4", "garbage, 10.0.0.1", "2001:db8::1", " 2001:db8::1 ,10.0.0.1", "fe80::1%eth0", "[::1]:80", "1.2.3.4:80"];
    for (const header of headers) {
      const client = forwardedClient(header);
      expect(forwardedKey(3, header)).toBe(client === null ? -1 : clientKey(3, client));
    }
  });

  test("agrees with forwardedClient on arbitrary headers", () => {
    const header = fc.array(fc.constantFrom("1", "0", "25", "255", "256", ".", ",", " ", "\t", "\u00a0", "\n", ":", "a", "f", "::"), { maxLength: 16 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(header, (value) => {
        const client = forwardedClient(value);
        return forwardedKey(1, value) === (client === null ? -1 : clientKey(1, client));
      }),
      { numRuns: 20_000 },
    );
  });
});
