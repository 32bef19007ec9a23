/**
 * Hostile input at every parameter of every endpoint and at every path segment: arbitrary
 * unicode, huge numbers, repeated and array-valued parameters. Whatever arrives, the answer is
 * never a 500, errors have the contract's shape, and nothing internal leaks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { appWithSnapshot, call, json, serve, type TestApp } from "./support/catalog";
import { encodeBytes, expectSafe, queryOf, segment, value } from "./support/hostile";

const RUNS = 400;
let t: TestApp;

beforeAll(() => {
  t = appWithSnapshot();
});
afterAll(() => t.close());

async function check(path: string): Promise<Response> {
  const response = await call(t.app, path);
  await expectSafe(response.clone(), path);
  return response;
}

async function expectPage(response: Response, enveloped: boolean): Promise<void> {
  if (response.status !== 200) return;
  const body = await json(response);
  const data = enveloped ? body.data : body;
  expect(Array.isArray(data.items)).toBe(true);
  expect(Number.isSafeInteger(data.total)).toBe(true);
  expect(data.pageSize).toBeGreaterThanOrEqual(1);
  expect(data.generatedAt).toBe("2026-01-02T03:04:05.678Z");
}

describe("hostile input to the client APIs", () => {
  test("GET /v0.1/servers with any cursor, limit, search, updated_since, version and include_deleted", async () => {
    const names = ["cursor", "limit", "search", "updated_since", "version", "include_deleted"] as const;
    await fc.assert(
      fc.asyncProperty(queryOf(names), async (query) => {
        await check(`/v0.1/servers${query}`);
      }),
      { numRuns: RUNS },
    );
  });

  test("GET /v0.1/servers/{serverName}/versions/{version} with any segments", async () => {
    await fc.assert(
      fc.asyncProperty(segment, segment, async (name, version) => {
        await check(`/v0.1/servers/${name}/versions`);
        await check(`/v0.1/servers/${name}/versions/${version}`);
      }),
      { numRuns: RUNS },
    );
  });

  test("GET /api/v1/lookup with any ids and since", async () => {
    await fc.assert(
      fc.asyncProperty(queryOf(["ids", "since"] as const), async (query) => {
        await check(`/api/v1/lookup${query}`);
      }),
      { numRuns: RUNS },
    );
  });

  test("POST /api/v1/lookup with any body", async () => {
    const body = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ ids: fc.array(fc.string(), { maxLength: 120 }), since: fc.string() }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const response = await t.app.handle(
          new Request("http://localhost/api/v1/lookup", {
            method: "POST",
            body: text,
            headers: { "Content-Type": "application/json" },
          }),
        );
        await expectSafe(response, "/api/v1/lookup", "POST");
      }),
      { numRuns: RUNS },
    );
  });
});

describe("hostile query parameters", () => {
  test("GET /api/v1/plugins with any q, category, curated, sort, page and pageSize", async () => {
    const names = ["q", "category", "curated", "sort", "page", "pageSize"] as const;
    await fc.assert(
      fc.asyncProperty(queryOf(names), async (query) => {
        await expectPage(await check(`/api/v1/plugins${query}`), true);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  test("any single q is searched as plain text: 200, or 400 past 200 characters", async () => {
    await fc.assert(
      fc.asyncProperty(value, async (q) => {
        const response = await check(`/api/v1/plugins?q=${encodeBytes(q)}`);
        const sent = new URLSearchParams(`q=${encodeBytes(q)}`).get("q")!.trim();
        expect(response.status).toBe([...sent].length > 200 ? 400 : 200);
        await expectPage(response, true);
      }),
      { numRuns: RUNS },
    );
  });

  test("page and pageSize: 200 exactly for whole numbers >= 1, else 400 naming the parameter", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("page", "pageSize"), value, async (name, raw) => {
        const response = await check(`/market/v1/plugins?${name}=${encodeBytes(raw)}`);
        const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
        const valid = raw === "" || (Number.isSafeInteger(n) && n >= 1);
        expect(response.status).toBe(valid ? 200 : 400);
        if (!valid) expect((await json(response)).message).toContain(`"${name}"`);
      }),
      { numRuns: RUNS },
    );
  });

  test("GET /market/v1/plugins with any page and pageSize", async () => {
    await fc.assert(
      fc.asyncProperty(queryOf(["page", "pageSize"]), async (query) => {
        await expectPage(await check(`/market/v1/plugins${query}`), false);
      }),
      { numRuns: RUNS },
    );
  });

  test("endpoints without parameters ignore whatever is sent", async () => {
    const paths = [
      "/plugins/feed.xml",
      "/market/manifest.json",
      "/healthz",
      "/readyz",
      "/api/v1/plugins/owner1/repo-1",
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), queryOf(["q", "page", "id"]), async (path, query) => {
        const response = await check(`${path}${query}`);
        expect(response.status).toBe(200);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("hostile path segments", () => {
  test("GET /api/v1/plugins/:owner/:repo with any owner and repo", async () => {
    await fc.assert(
      fc.asyncProperty(segment, segment, async (owner, repo) => {
        const response = await check(`/api/v1/plugins/${owner}/${repo}`);
        expect([200, 400, 404]).toContain(response.status);
      }),
      { numRuns: RUNS },
    );
  });

  test("any segments under and beside every endpoint", async () => {
    const prefixes = [
      "",
      "/api",
      "/api/v1",
      "/api/v1/plugins",
      "/market",
      "/market/v1",
      "/plugins",
      "/api/v1/plugins/owner1/repo-1",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        async (prefix, parts) => {
          await check(`${prefix}/${parts.join("/")}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test("any method on any endpoint: 405 with Allow, 404, or a GET's answer", async () => {
    const methods = ["POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND", "OPTIONS", "HEAD", "GET"];
    const paths = [
      "/api/v1/plugins",
      "/api/v1/plugins/a/b",
      "/plugins/feed.xml",
      "/market/manifest.json",
      "/market/v1/plugins",
      "/nope",
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), fc.constantFrom(...paths), async (method, path) => {
        const response = await call(t.app, path, { method });
        await expectSafe(response.clone(), path, method);
        if (response.status === 405) expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      }),
      { numRuns: RUNS },
    );
  });
});

/** Sends raw bytes as a request (asking the server to close after it) and returns whatever comes back before it does. */
async function rawExchange(port: number, request: Uint8Array): Promise<string> {
  let text = "";
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data: (_s, chunk) => {
        text += chunk.toString("latin1");
      },
      close: () => done(),
      error: () => done(),
    },
  });
  socket.write(request);
  await closed;
  return text;
}

describe("raw request lines over TCP", () => {
  test("any bytes in the request target: never a 5xx, and the server keeps serving", async () => {
    const server = serve(t);
    const port = Number(new URL(server.url).port);
    try {
      await fc.assert(
        // Spaces and line breaks reframe the request line itself; the runtime's parser answers those (400 or 505).
        fc.asyncProperty(
          fc
            .uint8Array({ minLength: 1, maxLength: 300 })
            .map((b) => b.filter((x) => x !== 0x20 && x !== 0x0d && x !== 0x0a)),
          fc.constantFrom("/api/v1/plugins?q=", "/api/v1/plugins/", "/market/v1/plugins?page=", "/"),
          async (bytes, prefix) => {
            const head = new TextEncoder().encode(`GET ${prefix}`);
            const tail = new TextEncoder().encode(" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            const answer = await rawExchange(port, new Uint8Array([...head, ...bytes, ...tail]));
            const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
            if (status === undefined) return;
            // Control bytes never reach the app: the runtime's parser refuses them itself, with 505.
            if (bytes.some((b) => b < 0x20)) expect(["400", "505"]).toContain(status);
            else expect(Number(status)).toBeLessThan(500);
          },
        ),
        { numRuns: 150 },
      );
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
