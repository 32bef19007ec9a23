import { describe, expect, test } from "bun:test";
import { canonicalClient, clientIp, clientKey } from "../../src/http/ratelimit";

describe("clientKey", () => {
  test("asks for the socket address only when it is the answer", () => {
    let asked = 0;
    const socket = () => {
      asked++;
      return "192.0.2.9";
    };
    expect(clientIp("203.0.113.5", socket, 1)).toBe("203.0.113.5");
    expect(asked).toBe(0);
    expect(clientIp("203.0.113.5", socket, 0)).toBe("192.0.2.9");
    expect(clientIp("not an ip", socket, 1)).toBe("192.0.2.9");
    expect(asked).toBe(2);
  });

  test("counts trusted hops from the right: what the client wrote on the left is never the key", () => {
    // The client sent "6.6.6.6"; the one trusted proxy appended the address it saw.
    expect(clientKey("6.6.6.6, 203.0.113.5", "10.0.0.1", 1)).toBe("203.0.113.5");
    expect(clientKey("7.7.7.7, 203.0.113.5", "10.0.0.1", 1)).toBe("203.0.113.5");
    // Two trusted proxies: the outer one appended the client, the inner one the outer proxy.
    expect(clientKey("6.6.6.6, 203.0.113.5, 10.0.0.2", "10.0.0.1", 2)).toBe("203.0.113.5");
    expect(clientKey("203.0.113.5, 10.0.0.2", "10.0.0.1", 2)).toBe("203.0.113.5");
    // Fewer entries than hops: the left-most there is.
    expect(clientKey("203.0.113.5", "10.0.0.1", 2)).toBe("203.0.113.5");
    // No proxy trusted: the header is ignored.
    expect(clientKey("203.0.113.5", "10.0.0.1", 0)).toBe("10.0.0.1");
    expect(clientKey(null, "10.0.0.1", 1)).toBe("10.0.0.1");
  });

  test("one client whatever the spelling: IPv6 compressed, IPv4-mapped as IPv4, one key per /64", () => {
    const key = canonicalClient("2001:db8::1");
    expect(key).toBe("2001:db8::/64");
    const spellings = ["2001:db8:0:0:0:0:0:1", "2001:DB8::1", "2001:0db8:0000::0001", "2001:db8::ffff:ffff:ffff:ffff"];
    for (const spelling of spellings) {
      expect(canonicalClient(spelling)).toBe(key);
    }
    expect(canonicalClient("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(canonicalClient("::ffff:192.0.2.9")).toBe("192.0.2.9");
    expect(canonicalClient("::ffff:c000:209")).toBe("192.0.2.9");
    expect(canonicalClient("192.0.2.9")).toBe("192.0.2.9");
    expect(clientKey(null, "::ffff:192.0.2.9", 0)).toBe("192.0.2.9");
    expect(canonicalClient("not an address")).toBeNull();
  });
});
