import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";
import { Conformance, type OpenApiDocument } from "../openapi-conformance";

let server: TestServer;
let conformance: Conformance;

beforeAll(async () => {
  server = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]));
  conformance = new Conformance((await server.json("/openapi.json")) as OpenApiDocument);
});
afterAll(() => server.stop());

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

describe("the check every API test's responses pass", () => {
  test("accepts the service's own answers", async () => {
    const response = await fetch(`${server.url}/market/v1/plugins`);
    expect(await conformance.problems("/market/v1/plugins", response)).toEqual([]);
  });

  test("refuses a field the document does not have", async () => {
    const page = await server.json("/market/v1/plugins");
    const problems = await conformance.problems("/market/v1/plugins", json({ ...page, extra: 1 }));
    expect(problems.join()).toContain("must NOT have additional properties");
  });

  test("refuses a status the document does not list for the path", async () => {
    const problems = await conformance.problems("/healthz", json({ code: 418, message: "teapot" }, 418));
    expect(problems).toEqual(["/healthz: status 418 is not documented"]);
  });

  test("refuses a 429 without Retry-After and a body of another media type", async () => {
    const tooMany = json({ code: 429, message: "Too many requests." }, 429);
    expect(await conformance.problems("/market/v1/plugins", tooMany)).toEqual([
      "/market/v1/plugins 429: no Retry-After",
    ]);
    const html = new Response("<p>hi</p>", { headers: { "Content-Type": "text/html" } });
    expect((await conformance.problems("/market/manifest.json", html)).join()).toContain("text/html is not documented");
  });
});
