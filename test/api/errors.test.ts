import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;
beforeAll(() => {
  server = startServer(snapshotInput([plugin("acme/one", { stars: 1 }), plugin("acme/two", { stars: 2 })]));
});
afterAll(() => server.stop());

async function expectError(path: string, status: number, mentions: string, envelope: boolean) {
  const res = await server.get(path);
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as any;
  expect(body.code).toBe(status);
  expect(typeof body.message).toBe("string");
  expect(body.message).toContain(mentions);
  if (envelope) expect(body).toEqual({ code: status, message: body.message, data: null });
  else expect(body).toEqual({ code: status, message: body.message });
}

describe("400 for malformed parameters, naming the parameter", () => {
  const cases: Array<[string, string]> = [
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=abc", "page"],
    ["page=1e3", "page"],
    ["page=99999999999999999999", "page"],
    ["pageSize=0", "pageSize"],
    ["pageSize=-5", "pageSize"],
    ["pageSize=ten", "pageSize"],
    ["sort=popular", "sort"],
    ["sort=STARS", "sort"],
    ["category=nope", "category"],
    ["curated=0", "curated"],
    ["curated=yes", "curated"],
    ["page=1&page=2", "page"],
    [`q=${"x".repeat(201)}`, "q"],
  ];
  for (const [query, param] of cases) {
    test(`/api/v1/plugins?${query.slice(0, 40)}`, () => expectError(`/api/v1/plugins?${query}`, 400, param, true));
  }

  test("the message says what is allowed", async () => {
    const body = (await (await server.get("/api/v1/plugins?sort=x")).json()) as any;
    expect(body.message).toContain("default, name, stars, forks, updated, heat");
    const cat = (await (await server.get("/api/v1/plugins?category=x")).json()) as any;
    expect(cat.message).toContain("mcp");
  });

  for (const query of ["page=0", "pageSize=x", "page=2&page=3"]) {
    test(`/market/v1/plugins?${query} is a 400 without data`, () =>
      expectError(`/market/v1/plugins?${query}`, 400, query.split("=")[0]!, false));
  }
});

describe("404s", () => {
  test("a plugin not in the catalog", () => expectError("/api/v1/plugins/acme/three", 404, "acme/three", true));
  test("an unknown route under /api", () => expectError("/api/v1/nothing", 404, "/api/v1/nothing", true));
  test("an unknown route elsewhere", () => expectError("/market/v2/plugins", 404, "/market/v2/plugins", false));
  test("a plugin path with too many segments", () => expectError("/api/v1/plugins/acme/one/extra", 404, "extra", true));
});

describe("plugin lookup", () => {
  test("ids compare case-insensitively, as on the hosting platform", async () => {
    const body = await server.json("/api/v1/plugins/ACME/One");
    expect(body.data.plugin.id).toBe("acme/one");
  });
});
