/**
 * GET /badge/:owner/:repo.svg and .json: strict XML whatever the snapshot holds, nothing that
 * reaches another host, the shields.io endpoint schema, caching, and no rate limit.
 */
import { afterEach, describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { SaxesParser } from "saxes";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import shieldsSchema from "../fixtures/shields-endpoint.schema.json";
import { CATEGORY_IDS, plugin, SNAPSHOT_AT, startServer, type TestServer } from "../helpers";

let server: TestServer;
afterEach(() => server.stop());

const HOSTILE = `<script>alert("x")</script> & ]]> <a href="https://evil.example/">é\u0001\uD800'`;
/** What XML can carry of it: the control character dropped, the lone surrogate as U+FFFD. */
const HOSTILE_AS_XML = `<script>alert("x")</script> & ]]> <a href="https://evil.example/">é\uFFFD'`;

function serve(rateLimitWindowMs = 0) {
  const categories = CATEGORY_IDS.map((id) => ({
    id,
    name: id === "mcp" ? HOSTILE : id,
    name_zh: id,
    description: "",
  }));
  const plugins = [
    plugin("acme/widget", { category: "mcp", categories: ["mcp"], stars: 12_345 }),
    plugin("a-b/c.d_e-f", { stars: 7 }),
  ];
  server = startServer(
    { snapshotAt: SNAPSHOT_AT, plugins, categoryIds: CATEGORY_IDS, categories },
    { rateLimitWindowMs },
  );
  return server;
}

interface Parsed {
  elements: string[];
  attributes: Array<[string, string]>;
  texts: string[];
}

/** The document as a strict XML parser reads it; throws on anything XML 1.0 does not allow. */
function parseSvg(xml: string): Parsed {
  const parsed: Parsed = { elements: [], attributes: [], texts: [] };
  const parser = new SaxesParser({ xmlns: true });
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    parsed.elements.push(tag.local);
    for (const attribute of Object.values(tag.attributes)) parsed.attributes.push([attribute.name, attribute.value]);
  });
  parser.on("text", (text) => parsed.texts.push(text));
  parser.write(xml).close();
  return parsed;
}

const SVG_ELEMENTS = ["svg", "title", "linearGradient", "stop", "clipPath", "rect", "g", "text"];

function checkSelfContained(svg: Parsed): void {
  expect(svg.elements[0]).toBe("svg");
  for (const element of svg.elements) expect(SVG_ELEMENTS).toContain(element);
  for (const [name, value] of svg.attributes) {
    expect(name).not.toMatch(/href|^on/i);
    // The only URL is the SVG namespace; `url(#…)` points inside the document; the label is text.
    if (name !== "xmlns" && name !== "aria-label") expect(value).not.toMatch(/:\/\/|url\((?!#)/);
  }
}

describe("GET /badge/:owner/:repo.svg", () => {
  test("parses as strict XML, with hostile data as text and nothing that reaches another host", async () => {
    serve();
    for (const query of ["", "?show=category", "?show=stars"]) {
      const response = await server.get(`/badge/acme/widget.svg${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      const svg = parseSvg(await response.text());
      checkSelfContained(svg);
      const message = { "": "listed", "?show=category": HOSTILE_AS_XML, "?show=stars": "listed · ★ 12k" }[query]!;
      expect(svg.texts).toContain(`plugin catalog: ${message}`);
      expect(svg.attributes).toContainEqual(["aria-label", `plugin catalog: ${message}`]);
      expect(svg.texts.filter((t) => t === message)).toHaveLength(2);
    }
  });

  test("a repository that is not listed gets the grey badge; names the platform cannot have are a 400", async () => {
    serve();
    const response = await server.get("/badge/nobody/nothing.svg");
    const text = await response.text();
    checkSelfContained(parseSvg(text));
    expect(text).toContain("<title>plugin catalog: not listed</title>");
    expect(text).toContain('fill="#9f9f9f"');
    expect(parseSvg(await (await server.get("/badge/a-b/c.d_e-f.svg")).text()).texts).toContain("listed");
    for (const path of ["/badge/%3Cscript%3E/x.svg", "/badge/acme/..svg", "/badge/acme/a%22b.json"]) {
      const refused = await server.get(path);
      expect([path, refused.status]).toEqual([path, 400]);
      expect(((await refused.json()) as { message: string }).message).toStartWith("Invalid repository");
    }
    expect((await server.get("/badge/acme/widget.png")).status).toBe(404);
    expect((await server.get("/badge/acme/widget.svg?show=forks")).status).toBe(400);
  });

  test("is cached briefly, with an ETag that answers 304", async () => {
    serve();
    const response = await server.get("/badge/acme/widget.svg");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    const etag = response.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    const again = await server.get("/badge/acme/widget.svg", { "If-None-Match": etag });
    expect(again.status).toBe(304);
  });
});

describe("a new snapshot", () => {
  test("changes the badge of a repository listed since", async () => {
    serve();
    const message = async (id = "acme/newcomer") =>
      ((await (await server.get(`/badge/${id}.json`)).json()) as { message: string }).message;
    expect(await message()).toBe("not listed");
    const plugins = [plugin("acme/widget"), plugin("acme/newcomer")];
    publishSnapshot(server.path, { snapshotAt: "2026-08-23T00:00:00.000Z", plugins, categoryIds: CATEGORY_IDS });
    server.store.reloadIfChanged();
    expect(await message()).toBe("listed");
    expect(await message("nobody/else")).toBe("not listed");
  });
});

describe("GET /badge/:owner/:repo.json", () => {
  test("answers the shields.io endpoint schema, listed or not", async () => {
    serve();
    const check = new Ajv2020({ strict: true }).compile(shieldsSchema);
    const answers = {
      "/badge/acme/widget.json": { message: "listed", color: "brightgreen" },
      "/badge/acme/widget.json?show=stars": { message: "listed · ★ 12k", color: "brightgreen" },
      "/badge/acme/widget.json?show=category": { message: HOSTILE, color: "brightgreen" },
      "/badge/nobody/nothing.json": { message: "not listed", color: "lightgrey" },
    };
    for (const [path, expected] of Object.entries(answers)) {
      const response = await server.get(path);
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
      const body = await response.json();
      expect([path, check(body), JSON.stringify(check.errors)]).toEqual([path, true, "null"]);
      expect(body).toEqual({ schemaVersion: 1, label: "plugin catalog", ...expected });
    }
  });
});

describe("the badges' rate-limit group", () => {
  test("is not refused at the API's rate, where the API is", async () => {
    serve(2000);
    for (let i = 0; i < 20; i++) {
      const path = i % 2 ? "/badge/acme/widget.svg" : "/badge/nobody/nothing.json";
      expect([i, (await server.get(path)).status]).toEqual([i, 200]);
    }
    expect((await server.get("/api/v1/listing/acme/widget")).status).toBe(200);
    expect((await server.get("/api/v1/listing/acme/widget")).status).toBe(429);
  });
});
