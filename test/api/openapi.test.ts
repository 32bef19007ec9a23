import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { noDetails } from "../../src/catalog/model/details";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { MAX_REQUEST_LINE_BYTES } from "../../src/http/guard";
import { startServer, type TestServer } from "../helpers";
import { Conformance, dereferenced, type OpenApiDocument } from "../openapi-conformance";

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema: Schema; example?: unknown }> }>;
}

let server: TestServer;
let doc: {
  openapi: string;
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, object> };
};

/** The catalog served: the default one, with one installable MCP server for the registry API's paths. */
function served() {
  const input = defaultSnapshotInput();
  const servers = input.plugins.find((p) => p.id === "modelcontextprotocol/servers")!;
  const install = {
    harness: "mcp" as const,
    kind: "npm" as const,
    config: { mcpServers: { servers: { command: "npx", args: ["-y", "@modelcontextprotocol/servers@1.0.0"] } } },
    env: [],
    from: "server.json",
  };
  const identity = { name: "io.github.modelcontextprotocol/servers", version: "1.0.0" };
  servers.details = { ...noDetails(), works_with: ["mcp"], install: [install], mcp_registry: identity };
  return input;
}

beforeAll(async () => {
  server = startServer(served(), { baseUrl: "https://plugins.example.org" });
  doc = await server.json("/openapi.json");
});
afterAll(() => server.stop());

/** The real path of a template: path parameters filled with a plugin id that exists, required ones given. */
/** A template's path with real values in its segments. */
function pathOf(template: string): string {
  return template
    .replace("{owner}", "modelcontextprotocol")
    .replace("{repo}", "servers")
    .replace("{id}", "mcp")
    .replace("{serverName}", "io.github.modelcontextprotocol%2Fservers")
    .replace("{version}", "latest")
    .replace(/^\/assets\/\{file\}$/, "/assets/site.css");
}

function concrete(template: string): string {
  const params = doc.paths[template]!.get.parameters ?? [];
  // A path parameter with examples takes its first one (a badge's `servers.svg`).
  const example = (name: string) =>
    (params.find((p) => p.in === "path" && p.name === name)?.schema.examples as string[] | undefined)?.[0];
  const path = pathOf(template);
  const required = params.filter((p) => p.in === "query" && p.required);
  const query = required.map((p) => `${p.name}=${(p.schema.examples as string[])[0]}`).join("&");
  return path.replace("{file}", example("file") ?? "docs-setup.js") + (query ? `?${query}` : "");
}

describe("GET /openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toStartWith("3.1.");
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  test("describes every GET route the app serves, and only those", async () => {
    const expected = [
      "/api/v1/plugins",
      "/api/v1/plugins/{owner}/{repo}",
      "/plugins/feed.xml",
      "/market/manifest.json",
      "/market/v1/plugins",
      "/market/v1/catalog.json",
      "/market/v1/changes",
      "/api/v1/categories",
      "/healthz",
      "/readyz",
      "/",
      "/openapi.json",
      "/docs",
      "/docs/assets/{file}",
      "/plugins/feed.atom",
      "/plugins/feed.json",
      "/api/v1/suggest",
      "/browse",
      "/categories/{id}",
      "/plugin/{owner}/{repo}",
      "/assets/{file}",
      "/docs/api.md",
      "/metrics",
      "/api/v1/listing/{owner}/{repo}",
      "/badge/{owner}/{file}",
      "/api/v1/lookup",
      "/market/claude/marketplace.json",
      "/market/claude/categories/{id}/marketplace.json",
      "/market/claude/picks/marketplace.json",
      "/market/claude/managed-settings.json",
      "/market/vscode/settings.json",
      "/review",
      "/v0.1/servers",
      "/v0.1/servers/{serverName}/versions",
      "/v0.1/servers/{serverName}/versions/{version}",
    ];
    expect(Object.keys(doc.paths).sort()).toEqual(expected.sort());
    for (const template of Object.keys(doc.paths)) {
      const response = await server.get(concrete(template));
      expect([template, response.status]).toEqual([template, 200]);
    }
  });

  test("every example is a real answer that matches its schema", () => {
    const ajv = addFormats(new Ajv2020({ strict: false }));
    let examples = 0;
    for (const [template, { get }] of Object.entries(doc.paths)) {
      for (const [status, response] of Object.entries(get.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          if (media.example === undefined) continue;
          examples++;
          const check = ajv.compile(dereferenced(media.schema, doc.components.schemas) as Schema);
          const where = `${template} ${status}`;
          expect([where, check(media.example), ajv.errorsText(check.errors)]).toEqual([where, true, "No errors"]);
        }
      }
    }
    expect(examples).toBeGreaterThan(40);
    const list = doc.paths["/api/v1/plugins"]!.get.responses["200"]!.content!["application/json"]!.example as {
      data: { total: number };
    };
    expect(list.data.total).toBe(defaultSnapshotInput().plugins.length);
  });

  test("rate-limited endpoints document 429 with Retry-After and RateLimit-*; the docs and health do not", () => {
    const limited = ["/api/v1/plugins", "/api/v1/plugins/{owner}/{repo}", "/plugins/feed.xml", "/market/manifest.json"];
    const added = [
      "/market/v1/catalog.json",
      "/market/v1/changes",
      "/api/v1/categories",
      "/api/v1/listing/{owner}/{repo}",
    ];
    for (const template of [...limited, "/market/v1/plugins", ...added]) {
      const tooMany = doc.paths[template]!.get.responses["429"] as { headers: Record<string, unknown> };
      expect(Object.keys(tooMany.headers).sort()).toEqual(
        ["Cache-Control", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"].sort(),
      );
      expect(Object.keys(doc.paths[template]!.get.responses)).toContain("304");
    }
    for (const template of [
      "/",
      "/docs",
      "/openapi.json",
      "/docs/assets/{file}",
      "/assets/{file}",
      "/healthz",
      "/readyz",
      "/badge/{owner}/{file}",
    ]) {
      expect(doc.paths[template]!.get.responses["429"]).toBeUndefined();
    }
  });
});

describe("the document and the server agree", () => {
  test("the server is relative, so requests go to whichever host the document was read from", () => {
    expect((doc as unknown as { servers: Array<{ url: string }> }).servers.map((s) => s.url)).toEqual(["/"]);
  });

  test("each component is referenced, and no copy of one is left inline", () => {
    const paths = JSON.stringify(doc.paths);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect([name, paths.includes(`"$ref":"#/components/schemas/${name}"`)]).toEqual([name, true]);
      expect([name, paths.includes(JSON.stringify(schema))]).toEqual([name, false]);
    }
  });

  test("the link to the prose rules resolves to docs/api.md", async () => {
    const info = (doc as unknown as { info: { description: string } }).info;
    const link = /\]\((\/[^)]+)\)/.exec(info.description)?.[1];
    expect(link).toBe("/docs/api.md");
    const response = await server.get(link!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await response.text()).toBe(await Bun.file(join(import.meta.dir, "../../docs/api.md")).text());
  });

  test("HEAD, OPTIONS, 304 and 414 answers of every path are the documented ones, dated", async () => {
    const conformance = new Conformance(doc as unknown as OpenApiDocument);
    const check = async (method: string, path: string, response: Response) =>
      expect([method, path, await conformance.problems(path, response, method)]).toEqual([method, path, []]);
    let notModified = 0;
    for (const template of Object.keys(doc.paths)) {
      const path = concrete(template);
      // Every path answers GET, HEAD and OPTIONS; the batch lookup also takes a POST.
      const methods = template === "/api/v1/lookup" ? ["get", "head", "options", "post"] : ["get", "head", "options"];
      expect([template, Object.keys(doc.paths[template]!).sort()]).toEqual([template, methods]);
      await check("HEAD", path, await fetch(server.url + path, { method: "HEAD" }));
      const preflight = { Origin: "https://app.example", "Access-Control-Request-Method": "GET" };
      await check("OPTIONS", path, await fetch(server.url + path, { method: "OPTIONS", headers: preflight }));
      const etag = (await fetch(server.url + path)).headers.get("etag");
      if (etag !== null) {
        const again = await fetch(server.url + path, { headers: { "If-None-Match": etag } });
        expect([path, again.status]).toEqual([path, 304]);
        await check("GET", path, again);
        await check(
          "HEAD",
          path,
          await fetch(server.url + path, { method: "HEAD", headers: { "If-None-Match": etag } }),
        );
        notModified++;
      }
      const long = `${path}${path.includes("?") ? "&" : "?"}x=${"y".repeat(MAX_REQUEST_LINE_BYTES)}`;
      const tooLong = await fetch(server.url + long);
      expect([path, tooLong.status]).toEqual([path, 414]);
      await check("GET", long, tooLong);
    }
    expect(notModified).toBeGreaterThanOrEqual(10);
  });
});

describe("the documented parameters are the served ones", () => {
  const body = async (path: string) => {
    const response = await server.get(path);
    return { status: response.status, text: await response.text() };
  };

  test("every allowed value is accepted, a value outside them is a 400 naming the parameter", async () => {
    let checked = 0;
    for (const [template, { get }] of Object.entries(doc.paths)) {
      for (const p of get.parameters ?? []) {
        if (p.in !== "query" || !Array.isArray(p.schema.enum)) continue;
        for (const value of p.schema.enum as string[]) {
          const path = concrete(template);
          const asked = `${path}${path.includes("?") ? "&" : "?"}${p.name}=${value}`;
          expect([p.name, value, (await body(asked)).status]).toEqual([p.name, value, 200]);
          checked++;
        }
        const refused = await body(`${concrete(template)}?${p.name}=not-a-listed-value`);
        expect(refused.status).toBe(400);
        // A page tells it as HTML, the API in its error shape.
        const message = refused.text.startsWith("<!doctype html>")
          ? refused.text.replaceAll("&quot;", '"')
          : JSON.parse(refused.text).message;
        expect(message).toContain(`"${p.name}"`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  test("defaults are what an absent parameter means, minimums refuse below, caps cap", async () => {
    let checked = 0;
    for (const [template, { get }] of Object.entries(doc.paths)) {
      for (const p of get.parameters ?? []) {
        if (p.in !== "query") continue;
        const {
          default: fallback,
          minimum,
          maximum,
          "x-cap": cap,
        } = p.schema as { default?: unknown; minimum?: number; maximum?: number; "x-cap"?: number };
        if (maximum !== undefined) {
          expect([p.name, (await body(`${pathOf(template)}?${p.name}=${maximum}`)).status]).toEqual([p.name, 200]);
          const over = await body(`${pathOf(template)}?${p.name}=${BigInt(maximum) + 1n}`);
          expect([p.name, over.status]).toEqual([p.name, 400]);
          checked++;
        }
        if (fallback !== undefined) {
          expect((await body(`${pathOf(template)}?${p.name}=${fallback}`)).text).toBe(
            (await body(pathOf(template))).text,
          );
          checked++;
        }
        if (minimum !== undefined)
          expect((await body(`${pathOf(template)}?${p.name}=${minimum - 1}`)).status).toBe(400);
        if (cap !== undefined) {
          const capped = JSON.parse((await body(`${pathOf(template)}?${p.name}=${cap + 1}`)).text);
          expect((capped.data ?? capped)[p.name]).toBe(cap);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  test("q's maxLength is the served limit", async () => {
    const q = doc.paths["/api/v1/plugins"]!.get.parameters!.find((p) => p.name === "q")!;
    const max = q.schema.maxLength as number;
    expect((await body(`/api/v1/plugins?q=${"a".repeat(max)}`)).status).toBe(200);
    expect((await body(`/api/v1/plugins?q=${"a".repeat(max + 1)}`)).status).toBe(400);
  });
});
