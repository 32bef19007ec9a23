import { describe, expect, test } from "bun:test";
import { isIP } from "node:net";
import { canonicalAddress, clientAddress, clientKey, ipv4Number } from "../../src/http/client-address";

describe("client address", () => {
  test("one spelling per address: IPv6 compressed and lower case, IPv4-mapped as IPv4", () => {
    expect(canonicalAddress("2001:db8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(canonicalAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(canonicalAddress("::ffff:192.0.2.9")).toBe("192.0.2.9");
    expect(canonicalAddress("::FFFF:c000:209")).toBe("192.0.2.9");
    for (const bad of ["127.1", "0x7f.0.0.1", "1.2.3.4:80", "[::1]", "fe80::1%eth0", "1:2", ""]) {
      expect(canonicalAddress(bad)).toBeNull();
    }
  });

  test("IPv6 clients are keyed by their /64, IPv4 clients by their address", () => {
    expect(clientKey("2001:db8::1")).toBe("2001:db8::/64");
    expect(clientKey("2001:db8::ffff:1")).toBe("2001:db8::/64");
    expect(clientKey("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(clientKey("192.0.2.9")).toBe("192.0.2.9");
  });

  test("the entry `hops` from the right is the client; the socket when no proxy is trusted", () => {
    let asked = 0;
    const socket = () => {
      asked++;
      return "::ffff:192.0.2.9";
    };
    expect(clientAddress("6.6.6.6, 203.0.113.5", socket, 1)).toBe("203.0.113.5");
    expect(clientAddress("6.6.6.6, 203.0.113.5", socket, 2)).toBe("6.6.6.6");
    expect(clientAddress("203.0.113.5", socket, 3)).toBe("203.0.113.5");
    expect(asked).toBe(0);
    expect(clientAddress("203.0.113.5", socket, 0)).toBe("192.0.2.9");
    expect(clientAddress("203.0.113.5, not an ip", socket, 1)).toBe("192.0.2.9");
    expect(asked).toBe(2);
  });
});

describe("ipv4Number", () => {
  test("a dotted IPv4 address as a proxy writes it is its 32-bit number", () => {
    expect(ipv4Number("0.0.0.0")).toBe(0);
    expect(ipv4Number("192.0.2.9")).toBe(0xc0000209);
    expect(ipv4Number("255.255.255.255")).toBe(2 ** 32 - 1);
  });

  test("takes exactly the dotted addresses isIP calls IPv4, so canonicalAddress needs no second check", () => {
    const octets = ["0", "00", "01", "1", "9", "10", "99", "100", "199", "249", "250", "255", "256", "1000", ""];
    for (const a of octets)
      for (const b of octets)
        for (const c of ["0", "01", "255", "256"])
          for (const d of ["0", "7", "07", "255", "256", ""]) {
            const text = `${a}.${b}.${c}.${d}`;
            expect(ipv4Number(text) !== null).toBe(isIP(text) === 4);
          }
  });

  test("anything else is not one", () => {
    for (const bad of [
      "",
      "1.2.3",
      "1.2.3.4.5",
      "1.2.3.256",
      "01.2.3.4",
      "1..3.4",
      "1.2.3.",
      " 1.2.3.4",
      "::1",
      "1.2.3.4:80",
    ]) {
      expect(ipv4Number(bad)).toBeNull();
    }
  });
});
