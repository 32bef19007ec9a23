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

const DATE = { Date: "Wed, 26 Aug 2026 00:00:00 GMT" };
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...DATE, ...headers },
  });

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
    expect(problems).toEqual(["GET /healthz 418: the status is not documented"]);
  });

  test("refuses a 429 without Retry-After and a body of another media type", async () => {
    const tooMany = json({ code: 429, message: "Too many requests." }, 429);
    expect(await conformance.problems("/market/v1/plugins", tooMany)).toEqual([
      "GET /market/v1/plugins 429: no retry-after",
    ]);
    const html = new Response("<p>hi</p>", { headers: { "Content-Type": "text/html", ...DATE } });
    expect((await conformance.problems("/market/manifest.json", html)).join()).toContain("text/html is not documented");
  });

  test("refuses a header the document does not declare for the status, and an answer without Date", async () => {
    const page = await server.json("/market/v1/plugins");
    expect(
      await conformance.problems("/market/v1/plugins", json(page, 200, { ETag: '"x"', "X-Powered-By": "x" })),
    ).toEqual(["GET /market/v1/plugins 200: x-powered-by is sent but not declared"]);
    const undated = new Response(JSON.stringify({ status: "ok" }), { headers: { "Content-Type": "application/json" } });
    expect(await conformance.problems("/healthz", undated)).toEqual(["GET /healthz 200: no Date"]);
  });

  test("refuses a 304 with a Content-Type, a HEAD answer with a body and an undocumented method", async () => {
    const etag = (await server.get("/market/v1/plugins")).headers.get("etag")!;
    const notModified = new Response(null, { status: 304, headers: { ETag: etag, "Content-Type": "x/y", ...DATE } });
    expect(await conformance.problems("/market/v1/plugins", notModified)).toEqual([
      "GET /market/v1/plugins 304: a Content-Type",
    ]);
    expect(await conformance.problems("/healthz", json({ status: "ok" }), "HEAD")).toEqual([
      "HEAD /healthz 200: a body",
    ]);
    expect(await conformance.problems("/healthz", json({ status: "ok" }), "PATCH")).toEqual([
      "PATCH /healthz: the method is not documented",
    ]);
  });
});
