/**
 * HTTP hygiene over a real server: HEAD wherever GET works, 405 with Allow, 414 past 8 KB,
 * CORS preflight, and the security headers on every kind of response.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { MAX_REQUEST_LINE_BYTES } from "../../src/http/guard";
import { appWithSnapshot, call, json, serve, type TestApp } from "./support/catalog";

const GET_PATHS = [
  "/api/v1/plugins?pageSize=3",
  "/api/v1/plugins/owner1/repo-1",
  "/plugins/feed.xml",
  "/market/manifest.json",
  "/market/v1/plugins?page=2",
  "/healthz",
  "/readyz",
];

let t: TestApp;
let server: { url: string; stop: () => Promise<void> };

beforeAll(() => {
  t = appWithSnapshot();
  server = serve(t);
});
afterAll(async () => {
  await server.stop();
  t.close();
});

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
}

describe("methods", () => {
  for (const path of GET_PATHS) {
    test(`HEAD ${path} answers like GET, without a body`, async () => {
      const get = await fetch(server.url + path);
      const head = await fetch(server.url + path, { method: "HEAD" });
      expect(head.status).toBe(get.status);
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
      expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
      expect(head.headers.get("date")).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(await head.text()).toBe("");
      expectSecurityHeaders(head);
    });
  }

  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    test(`${method} on every endpoint is 405 with Allow and the error shape`, async () => {
      for (const path of GET_PATHS) {
        const response = await fetch(server.url + path, { method, body: method === "DELETE" ? undefined : "x" });
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        const body = await json(response);
        expect(body.code).toBe(405);
        expect(body.message).toContain(method);
        expectSecurityHeaders(response);
      }
    });
  }

  test("an unknown path is 404 whatever the method", async () => {
    for (const method of ["GET", "POST", "OPTIONS"]) {
      const response = await fetch(`${server.url}/api/v2/nothing`, { method });
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ code: 404, message: "No such endpoint: /api/v2/nothing.", data: null });
    }
  });
});

describe("CORS", () => {
  test("a preflight from any origin is allowed for GET and HEAD, with the asked-for headers", async () => {
    const response = await fetch(`${server.url}/api/v1/plugins`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match, x-client",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("if-none-match, x-client");
    expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(await response.text()).toBe("");
  });

  test("asked-for headers that are not header names are not echoed: the default list stands", async () => {
    const response = await fetch(`${server.url}/market/v1/plugins`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-one; drop table",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "Authorization, Content-Type, Accept, If-None-Match",
    );
  });

  test("a preflight that asks for no headers is allowed the ones clients send", async () => {
    const response = await fetch(`${server.url}/v0.1/servers`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "Authorization, Content-Type, Accept, If-None-Match",
    );
  });

  test("GET responses expose ETag and the rate-limit headers to scripts", async () => {
    const response = await fetch(`${server.url}/market/manifest.json`, { headers: { Origin: "https://app.example" } });
    expect(response.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(response.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });
});

describe("request line", () => {
  const prefix = "GET ";
  const suffix = " HTTP/1.1";
  const target = (bytes: number) =>
    `/api/v1/plugins?q=a&x=${"y".repeat(bytes - prefix.length - suffix.length - "/api/v1/plugins?q=a&x=".length)}`;

  test(`a request line of exactly ${MAX_REQUEST_LINE_BYTES} bytes is served`, async () => {
    const response = await fetch(server.url + target(MAX_REQUEST_LINE_BYTES));
    expect(response.status).toBe(200);
  });

  test("one byte more is 414 with the error shape", async () => {
    const response = await fetch(server.url + target(MAX_REQUEST_LINE_BYTES + 1));
    expect(response.status).toBe(414);
    expect(await json(response)).toEqual({
      code: 414,
      message: "The request line is longer than 8192 bytes.",
      data: null,
    });
    expectSecurityHeaders(response);
  });

  test("every over-long line the runtime lets through gets the JSON 414; past its 16 KiB the runtime's bare 431", async () => {
    const port = Number(new URL(server.url).port);
    const raw = (line: string) =>
      new Promise<string>((resolve, reject) => {
        let answer = "";
        const socket = connect({ port, host: "127.0.0.1" }, () =>
          socket.write(`${line}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
        );
        socket.on("data", (chunk) => (answer += chunk));
        socket.on("close", () => resolve(answer));
        socket.on("error", reject);
      });
    const answers: Array<[number, number, boolean]> = [];
    for (let bytes = MAX_REQUEST_LINE_BYTES + 1; bytes <= 17 * 1024; bytes += bytes < 16_200 ? 509 : 17) {
      const answer = await raw(`${prefix}${target(bytes)}${suffix}`);
      const status = Number(answer.slice(9, 12));
      const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
      const json414 = status === 414 && JSON.parse(body).code === 414;
      answers.push([bytes, status, status === 431 ? body === "" : json414]);
    }
    // Each answer is the kind its status promises, and no 414 comes after the runtime's first 431.
    expect(answers.filter(([, status, right]) => !right || (status !== 414 && status !== 431))).toEqual([]);
    const first431 = answers.findIndex(([, status]) => status === 431);
    expect(first431).toBeGreaterThan(10);
    expect(answers.slice(first431).every(([, status]) => status === 431)).toBe(true);
    expect(answers[first431]![0]).toBeGreaterThan(16_000);
  });

  test("a much longer line is refused with a 4xx and the server keeps serving", async () => {
    const response = await fetch(`${server.url}/market/v1/plugins?x=${"z".repeat(100_000)}`);
    // Up to the runtime's header limit (16 KiB) the app answers 414; beyond it the runtime answers 431.
    expect([414, 431]).toContain(response.status);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("security headers", () => {
  test("every kind of response carries nosniff and CORS", async () => {
    const etag = (await fetch(`${server.url}/market/manifest.json`)).headers.get("etag")!;
    const responses = [
      await fetch(`${server.url}/market/manifest.json`),
      await fetch(`${server.url}/market/manifest.json`, { headers: { "If-None-Match": etag } }),
      await fetch(`${server.url}/api/v1/plugins?page=0`),
      await fetch(`${server.url}/api/v1/plugins/nobody/nothing`),
      await fetch(`${server.url}/api/v1/plugins/%E0%A4/x`),
      await fetch(`${server.url}/nowhere`),
      await fetch(`${server.url}/plugins/feed.xml`, { method: "POST" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 304, 400, 404, 400, 404, 405]);
    for (const response of responses) expectSecurityHeaders(response);
  });

  test("a malformed percent-encoding in the path is a 400, not a lookup of a mangled id", async () => {
    const response = await call(t.app, "/api/v1/plugins/%ZZ/repo");
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({
      code: 400,
      message: "The request path is not valid percent-encoding.",
      data: null,
    });
  });
});
