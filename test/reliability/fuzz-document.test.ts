/**
 * A fuzzer built from /openapi.json alone: for every path it draws path and query values from the
 * documented schemas (enums, bounds, patterns, formats), sends them over real HTTP, and holds the
 * document to what the server does: a value the document allows never gets a 400, and every
 * status the server answers is one the document lists for that path.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { startServer, type TestServer } from "../helpers";

type Schema = {
  type?: string;
  enum?: string[];
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  examples?: string[];
};
interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: Schema;
}
type Operation = { parameters?: Parameter[]; responses: Record<string, unknown> };

const RUNS_PER_PATH = 60;
const ajv = addFormats(new Ajv2020({ strict: false }));

let server: TestServer;
let paths: Record<string, { get: Operation }>;

beforeAll(async () => {
  server = startServer(defaultSnapshotInput(), { baseUrl: "https://plugins.example.org" });
  paths = ((await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: typeof paths }).paths;
});
afterAll(() => server.stop());

/** `pattern` without its negative lookaheads, which the generator cannot take; the schema check puts them back. */
function generable(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.startsWith("(?!", i)) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === "\\") i++;
        else if (pattern[i] === "(") depth++;
        else if (pattern[i] === ")" && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i]!;
    if (pattern[i] === "\\") out += pattern[++i]!;
  }
  return new RegExp(out);
}

/** Values a schema allows, as they go in a URL: drawn from it, then checked against it in full. */
function valuesOf(schema: Schema): fc.Arbitrary<string> {
  const valid = ajv.compile(schema);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === "integer") {
    const min = BigInt(schema.minimum ?? 0);
    const max = BigInt(schema.maximum ?? Number.MAX_SAFE_INTEGER);
    const small = fc.bigInt({ min, max: min + 200n < max ? min + 200n : max });
    return fc.oneof(small, fc.bigInt({ min, max }), fc.constant(max)).map(String);
  }
  // A boolean query value is written `true` or `false`.
  if (schema.type === "boolean") return fc.constantFrom("true", "false");
  // A date-time named only by its format: drawn as one, since random text almost never is.
  if (!schema.pattern && (schema as { format?: string }).format === "date-time") {
    const instant = fc.date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2099-12-31T23:59:59Z"),
      noInvalidDate: true,
    });
    return instant.map((d) => d.toISOString()).filter((value) => valid(value));
  }
  const drawn = schema.pattern
    ? fc.stringMatching(generable(schema.pattern))
    : fc.oneof(fc.constantFrom(...(schema.examples ?? ["x"])), fc.string({ unit: "grapheme", maxLength: 250 }));
  return drawn.filter((value) => valid(value));
}

/** A request of `template`: every path parameter, each query parameter or none, values the document allows. */
function requestsOf(template: string, parameters: Parameter[]): fc.Arbitrary<string> {
  const pathParams = parameters.filter((p) => p.in === "path");
  // An opaque value (a cursor the server handed out) is not drawn: only the server can make one.
  const queryParams = parameters.filter((p) => p.in === "query" && !(p.schema as { "x-opaque"?: boolean })["x-opaque"]);
  // "." and ".." are not values a client can send as a segment: its URL parser resolves them.
  const segment = (p: Parameter) => valuesOf(p.schema).filter((v) => v !== "." && v !== "..");
  const query = queryParams.map((p) =>
    p.required
      ? valuesOf(p.schema).map((v) => [p.name, v] as const)
      : fc.option(valuesOf(p.schema).map((v) => [p.name, v] as const)),
  );
  return fc.tuple(fc.tuple(...pathParams.map(segment)), fc.tuple(...query)).map(([segments, pairs]) => {
    let path = template;
    pathParams.forEach((p, i) => {
      path = path.replace(`{${p.name}}`, encodeURIComponent(segments[i]!));
    });
    const search = new URLSearchParams(pairs.filter((pair) => pair !== null) as Array<[string, string]>).toString();
    return search ? `${path}?${search}` : path;
  });
}

describe("every value /openapi.json allows", () => {
  test("gets no 400, and every status answered is one the document lists for the path", async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const [template, { get }] of Object.entries(paths)) {
      const documented = new Set(Object.keys(get.responses));
      await fc.assert(
        fc.asyncProperty(requestsOf(template, get.parameters ?? []), async (target) => {
          const response = await fetch(`${server.url}${target}`, { redirect: "manual" });
          await response.arrayBuffer();
          sent++;
          const status = String(response.status);
          // The one rule across parameters a schema cannot say, as the official MCP registry has it.
          const deletedSince = /[?&]updated_since=/.test(target) && /[?&]include_deleted=false(&|$)/.test(target);
          if (deletedSince && status === "400") return;
          if (status === "400" || !documented.has(status)) problems.push(`${target} -> ${status}`);
        }),
        { numRuns: RUNS_PER_PATH },
      );
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
  }, 120_000);

  test("a request whose headers pass the runtime's limit gets a status the document lists: 431", async () => {
    for (const [template] of Object.entries(paths)) {
      if (template.includes("{")) continue;
      const response = await fetch(`${server.url}${template}`, { headers: { "X-Padding": "x".repeat(20_000) } });
      await response.arrayBuffer();
      expect([template, response.status]).toEqual([template, 431]);
      expect(Object.keys(paths[template]!.get.responses)).toContain("431");
    }
  });
});
