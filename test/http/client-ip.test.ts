import { describe, expect, test } from "bun:test";
import { clientIp } from "../../src/http/ratelimit";

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
