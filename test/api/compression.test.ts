/**
 * Gzip over real HTTP: bodies of MIN_GZIP_BYTES or more are also served gzip-compressed to
 * clients whose Accept-Encoding takes gzip over no encoding; the two representations have distinct
 * ETags that validate each other, and both say `Vary: Accept-Encoding`.
 *
 * Bun's fetch asks for gzip by default and decompresses transparently: every request here passes
 * `decompress: false` (which, in Bun 1.4.5, also drops the default Accept-Encoding) to see the
 * bytes on the wire, and a request without the header at all goes through node:http.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import http from "node:http";
import { createApp } from "../../src/app";
import { MIN_GZIP_BYTES } from "../../src/http/render";
import { plugin, snapshotInput, startServer, type TestServer, testConfig } from "../helpers";

let server: TestServer;

const plugins = [
  ...Array.from({ length: 40 }, (_, i) =>
    plugin(`acme/p${String(i).padStart(2, "0")}`, {
      stars: 100 + i,
      forks: i % 5,
      description: `Plugin ${i}: an MCP server for tool number ${i}, with a description of some length.`,
      categories: i % 2 ? ["mcp"] : ["cli"],
      category: i % 2 ? "mcp" : "cli",
      first_seen_at: new Date(Date.parse("2026-06-01T00:00:00Z") + i * 3_600_000).toISOString(),
    }),
  ),
  // One plugin whose own page is large, one whose page is small.
  plugin("acme/big", {
    stars: 5,
    description: Array.from({ length: 60 }, (_, i) => `sentence ${i} about the big plugin.`).join(" "),
  }),
  plugin("acme/small", { stars: 1, description: "Small." }),
];

beforeAll(() => {
  server = startServer(snapshotInput(plugins));
});
afterAll(() => server.stop());

interface Raw {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** A request whose response body arrives exactly as sent: no decompression. */
async function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  const res = await fetch(server.url + path, { method, headers, decompress: false });
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
}

/** A GET with no Accept-Encoding header at all (node:http adds none). */
function rawWithoutAcceptEncoding(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(server.url + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === "string") headers.set(name, value);
          resolve({ status: res.statusCode!, headers, body: new Uint8Array(Buffer.concat(chunks)) });
        });
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const identity = (path: string, headers: Record<string, string> = {}) =>
  raw(path, { "Accept-Encoding": "identity", ...headers });
const gzip = (path: string, headers: Record<string, string> = {}) =>
  raw(path, { "Accept-Encoding": "gzip", ...headers });

function gzipEtagOf(etag: string): string {
  return `${etag.slice(0, -1)}.gzip"`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function isGzipMagic(body: Uint8Array): boolean {
  return body[0] === 0x1f && body[1] === 0x8b;
}

/** Asserts `res` is the plain representation, byte for byte `plain`. */
function expectPlain(res: Raw, plain: Raw): void {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBeNull();
  expect(res.headers.get("etag")).toBe(plain.headers.get("etag"));
  expect(sameBytes(res.body, plain.body)).toBe(true);
}

/** Asserts `res` is the gzip representation of `plain`. */
function expectGzipOf(res: Raw, plain: Raw): void {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBe("gzip");
  expect(res.headers.get("etag")).toBe(gzipEtagOf(plain.headers.get("etag")!));
  expect(res.headers.get("vary")).toBe("Accept-Encoding");
  expect(isGzipMagic(res.body)).toBe(true);
  expect(sameBytes(Bun.gunzipSync(res.body as Uint8Array<ArrayBuffer>), plain.body)).toBe(true);
}

const LARGE = [
  ["list page", "/api/v1/plugins"],
  ["list page with a query", "/api/v1/plugins?category=mcp&sort=forks&pageSize=30"],
  ["single plugin (long description)", "/api/v1/plugins/acme/big"],
  ["feed", "/plugins/feed.xml"],
  ["sync page", "/market/v1/plugins"],
] as const;

const SMALL = [
  ["manifest", "/market/manifest.json"],
  ["single plugin (short description)", "/api/v1/plugins/acme/small"],
  ["sync page of one", "/market/v1/plugins?pageSize=1"],
] as const;

describe("bodies of MIN_GZIP_BYTES or more", () => {
  for (const [name, path] of LARGE) {
    test(`${name}: gzip for a client that takes it, gunzipping to the plain body byte for byte`, async () => {
      const plain = await identity(path);
      expect(plain.status).toBe(200);
      expect(plain.body.byteLength).toBeGreaterThanOrEqual(MIN_GZIP_BYTES);
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.headers.get("vary")).toBe("Accept-Encoding");
      expect(plain.headers.get("etag")).toMatch(/^"[^"]+"$/);
      expect(plain.headers.get("etag")).not.toContain(".gzip");

      const zipped = await gzip(path);
      expectGzipOf(zipped, plain);
      expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength);
      expect(zipped.headers.get("content-type")).toBe(plain.headers.get("content-type"));
      expect(zipped.headers.get("cache-control")).toBe(plain.headers.get("cache-control"));
      expect(zipped.headers.get("x-content-type-options")).toBe("nosniff");
      expect(Number(zipped.headers.get("content-length"))).toBe(zipped.body.byteLength);

      // Served again (now from the cache): the same bytes, each representation.
      const zippedAgain = await gzip(path);
      expect(zippedAgain.headers.get("etag")).toBe(zipped.headers.get("etag"));
      expect(sameBytes(zippedAgain.body, zipped.body)).toBe(true);
      expectPlain(await identity(path), plain);
    });
  }
});

describe("bodies under MIN_GZIP_BYTES", () => {
  for (const [name, path] of SMALL) {
    test(`${name}: never compressed, no Vary`, async () => {
      const plain = await identity(path);
      expect(plain.status).toBe(200);
      expect(plain.body.byteLength).toBeLessThan(MIN_GZIP_BYTES);
      expect(plain.headers.get("vary")).toBeNull();
      for (const accept of ["gzip", "*", "gzip, deflate, br, zstd"]) {
        const res = await raw(path, { "Accept-Encoding": accept });
        expectPlain(res, plain);
        expect(res.headers.get("vary")).toBeNull();
      }
    });
  }
});

describe("Accept-Encoding negotiation (RFC 9110 12.5.3, q-values respected)", () => {
  const path = "/api/v1/plugins?sort=stars&pageSize=25";
  const cases: Array<[header: string, gzip: boolean, why: string]> = [
    ["gzip", true, "gzip asked for"],
    ["GZIP", true, "codings are case-insensitive"],
    ["gzip, deflate, br, zstd", true, "a browser-like list"],
    ["*", true, "any coding"],
    ["br, gzip;q=0.8, zstd", true, "gzip is the one available coding listed"],
    ["deflate, gzip;q=1.0, *;q=0.5", true, "gzip at q=1 over identity at q=0.5 through *"],
    ["gzip, identity;q=0.5", true, "gzip preferred to identity"],
    ["identity;q=0, gzip", true, "identity refused, gzip taken"],
    ["gzip;q=0", false, "gzip refused"],
    ["identity", false, "only identity"],
    ["br", false, "only a coding the server lacks (identity stays acceptable)"],
    ["", false, "an empty header: no coding wanted"],
    ["gzip;q=0.5, identity", false, "identity at q=1 over gzip at q=0.5"],
    ["gzip;q=0.5, *;q=0.8", false, "identity at q=0.8 through * over gzip at q=0.5"],
    ["*, gzip;q=0", false, "gzip refused by name though * takes the rest"],
  ];

  let plain: Raw;
  beforeAll(async () => {
    plain = await identity(path);
    expect(plain.body.byteLength).toBeGreaterThanOrEqual(MIN_GZIP_BYTES);
  });

  for (const [header, wantsGzip, why] of cases) {
    test(`${JSON.stringify(header)} → ${wantsGzip ? "gzip" : "plain"} (${why})`, async () => {
      const res = await raw(path, { "Accept-Encoding": header });
      if (wantsGzip) expectGzipOf(res, plain);
      else expectPlain(res, plain);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
    });
  }

  test("no Accept-Encoding header → plain", async () => {
    const res = await rawWithoutAcceptEncoding(path);
    expectPlain(res, plain);
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
  });
});

describe("conditional requests: the two representations validate each other", () => {
  const path = "/api/v1/plugins?sort=name&pageSize=30";
  let plainEtag: string;
  let gzipEtag: string;
  beforeAll(async () => {
    const plain = await identity(path);
    const zipped = await gzip(path);
    expect(plain.body.byteLength).toBeGreaterThanOrEqual(MIN_GZIP_BYTES);
    plainEtag = plain.headers.get("etag")!;
    gzipEtag = zipped.headers.get("etag")!;
    expect(gzipEtag).toBe(gzipEtagOf(plainEtag));
  });

  /** Asserts a 304 for the representation whose ETag is `etag`. */
  function expectNotModified(res: Raw, etag: string): void {
    expect(res.status).toBe(304);
    expect(res.body.byteLength).toBe(0);
    expect(res.headers.get("etag")).toBe(etag);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
  }

  test("a gzip request with the plain ETag: 304 naming the gzip ETag, no Content-Encoding", async () => {
    expectNotModified(await gzip(path, { "If-None-Match": plainEtag }), gzipEtag);
  });

  test("a plain request with the gzip ETag: 304 naming the plain ETag", async () => {
    expectNotModified(await identity(path, { "If-None-Match": gzipEtag }), plainEtag);
    expectNotModified(await rawWithoutAcceptEncoding(path, { "If-None-Match": `W/${gzipEtag}` }), plainEtag);
  });

  test("each representation with its own ETag, alone or in a list: 304", async () => {
    expectNotModified(await gzip(path, { "If-None-Match": gzipEtag }), gzipEtag);
    expectNotModified(await identity(path, { "If-None-Match": plainEtag }), plainEtag);
    expectNotModified(await gzip(path, { "If-None-Match": `"other", W/${gzipEtag}` }), gzipEtag);
  });

  test("another body's ETags, plain or gzip, do not validate this one", async () => {
    const other = await gzip("/api/v1/plugins?sort=name&pageSize=31");
    const otherGzip = other.headers.get("etag")!;
    expect(otherGzip.endsWith('.gzip"')).toBe(true);
    expect((await gzip(path, { "If-None-Match": otherGzip })).status).toBe(200);
    expect((await identity(path, { "If-None-Match": otherGzip })).status).toBe(200);
    expect((await gzip(path, { "If-None-Match": '"stale.gzip"' })).status).toBe(200);
    const stale = await gzip(path, { "If-None-Match": `${plainEtag.slice(0, -1)}x.gzip"` });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("content-encoding")).toBe("gzip");
  });
});

describe("HEAD", () => {
  test("with gzip accepted: the gzip headers and no body", async () => {
    const path = "/market/v1/plugins?pageSize=40";
    const zipped = await gzip(path);
    const head = await raw(path, { "Accept-Encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers.get("content-encoding")).toBe("gzip");
    expect(head.headers.get("etag")).toBe(zipped.headers.get("etag"));
    expect(head.headers.get("etag")!.endsWith('.gzip"')).toBe(true);
    expect(head.headers.get("vary")).toBe("Accept-Encoding");
    expect(Number(head.headers.get("content-length"))).toBe(zipped.body.byteLength);
  });

  test("without gzip accepted: the plain headers and no body", async () => {
    const path = "/market/v1/plugins?pageSize=41";
    const plain = await identity(path);
    const head = await raw(path, { "Accept-Encoding": "identity" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers.get("content-encoding")).toBeNull();
    expect(head.headers.get("etag")).toBe(plain.headers.get("etag"));
    expect(head.headers.get("vary")).toBe("Accept-Encoding");
    expect(Number(head.headers.get("content-length"))).toBe(plain.body.byteLength);
  });
});

describe("errors are never compressed", () => {
  const long = "b".repeat(1500);
  const cases = [
    ["400, bad parameter", "/api/v1/plugins?page=0", 400],
    ["400, bad sort", `/api/v1/plugins?sort=${long}`, 400],
    ["404, unknown plugin (a body over MIN_GZIP_BYTES)", `/api/v1/plugins/acme/${long}`, 404],
    ["404, unknown endpoint (a body over MIN_GZIP_BYTES)", `/nowhere/${long}`, 404],
  ] as const;
  for (const [name, path, status] of cases) {
    test(name, async () => {
      const plain = await identity(path);
      expect(plain.status).toBe(status);
      for (const accept of ["gzip", "*", "gzip, deflate, br, zstd"]) {
        const res = await raw(path, { "Accept-Encoding": accept });
        expect(res.status).toBe(status);
        expect(res.headers.get("content-encoding")).toBeNull();
        expect(res.headers.get("vary")).toBeNull();
        expect(sameBytes(res.body, plain.body)).toBe(true);
        expect(JSON.parse(new TextDecoder().decode(res.body)).code).toBe(status);
      }
    });
  }

  test("the long 404 bodies are large enough that only their status keeps them plain", async () => {
    expect((await identity(`/api/v1/plugins/acme/${long}`)).body.byteLength).toBeGreaterThanOrEqual(MIN_GZIP_BYTES);
    expect((await identity(`/nowhere/${long}`)).body.byteLength).toBeGreaterThanOrEqual(MIN_GZIP_BYTES);
  });
});

describe("the gzip body in the response cache", () => {
  test("a body asked for again goes out with the same bytes, plain and gzip, on GET and HEAD", async () => {
    const path = "/market/v1/plugins?page=2&pageSize=30";
    const firstPlain = await identity(path);
    const firstGzip = await gzip(path);
    for (let i = 0; i < 3; i++) {
      const plain = await identity(path);
      const zipped = await gzip(path);
      expect(sameBytes(plain.body, firstPlain.body)).toBe(true);
      expect(sameBytes(zipped.body, firstGzip.body)).toBe(true);
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(zipped.headers.get("etag")).toBe(firstGzip.headers.get("etag"));
    }
    const head = await raw(path, { "Accept-Encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers.get("content-length")).toBe(String(firstGzip.body.byteLength));
  });

  test("the request log sees the gzip body made once, on the first gzip request, after the plain one was cached", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = createApp({
      store: server.store,
      config: testConfig(),
      log: (event, fields) => lines.push({ event, ...fields }),
    }).listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${app.server!.port}/api/v1/plugins?sort=updated&pageSize=33`;
      const get = (accept: string) => fetch(url, { headers: { "Accept-Encoding": accept }, decompress: false });
      const encodings: Array<string | null> = [];
      for (const accept of ["identity", "identity", "gzip", "gzip", "identity", "gzip"]) {
        const res = await get(accept);
        await res.arrayBuffer();
        encodings.push(res.headers.get("content-encoding"));
      }
      expect(encodings).toEqual([null, null, "gzip", "gzip", null, "gzip"]);
      expect(lines.filter((l) => l.event === "request").map((l) => l.cache)).toEqual([
        "miss",
        "hit",
        "miss",
        "hit",
        "hit",
        "hit",
      ]);
    } finally {
      await app.stop(true);
    }
  });
});
