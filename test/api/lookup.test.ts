/**
 * GET and POST /api/v1/lookup over real HTTP: 100 ids in one request (listed, renamed, removed,
 * unknown), what changed since a snapshot, and a 400 in the contract's shape for every malformed
 * input, never a 5xx.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { noDetails } from "../../src/catalog/model/details";
import type { PluginRecord, SnapshotInput } from "../../src/catalog/model/types";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;
afterEach(() => server?.stop());

const EARLIER = "2026-08-10T00:00:00.000Z";
const EARLIEST = "2026-08-01T00:00:00.000Z";

interface Item {
  id: string;
  status: string;
  current_id: string | null;
  renamed: boolean;
  pushed_at: string | null;
  latest_release: { tag: string } | null;
  deprecated: boolean | null;
  archived: boolean | null;
  removed_at: string | null;
  changed: boolean | null;
}

/** 50 listed plugins, 10 of them renamed, 10 removed ones; even ones changed after EARLIER. */
function catalog(): SnapshotInput {
  const plugins: PluginRecord[] = [];
  const changedAt = new Map<string, string>();
  for (let i = 0; i < 50; i++) {
    const id = `acme/tool-${i}`;
    const details = {
      ...noDetails(),
      deprecated: i === 3,
      latest_release: i === 4 ? { tag: "v2.0.0", date: EARLIER } : null,
    };
    plugins.push(
      plugin(id, { stars: 100 - i, archived: i === 5, previous_ids: i < 10 ? [`old/tool-${i}`] : [], details }),
    );
    changedAt.set(id, i % 2 === 0 ? SNAPSHOT_AT : EARLIEST);
  }
  const events = Array.from({ length: 10 }, (_, i) => ({
    at: i < 5 ? "2026-08-15T00:00:00.000Z" : "2026-08-05T00:00:00.000Z",
    kind: "removed" as const,
    id: `gone/tool-${i}`,
    to: null,
  }));
  return { ...snapshotInput(plugins), history: { changedAt, events, snapshots: [EARLIEST, EARLIER, SNAPSHOT_AT] } };
}

/** 100 ids: 40 listed, 10 former ids, 10 removed, 40 unknown. */
const HUNDRED = [
  ...Array.from({ length: 40 }, (_, i) => `acme/tool-${i + 10}`),
  ...Array.from({ length: 10 }, (_, i) => `OLD/tool-${i}`),
  ...Array.from({ length: 10 }, (_, i) => `gone/tool-${i}`),
  ...Array.from({ length: 40 }, (_, i) => `nobody/thing-${i}`),
];

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v1/lookup`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", ...headers },
  });

describe("/api/v1/lookup", () => {
  test("100 ids in one GET: listed, renamed, removed and unknown, in the order asked; POST answers the same", async () => {
    server = startServer(catalog());
    const body = await server.json(`/api/v1/lookup?ids=${HUNDRED.join(",")}&since=${EARLIER}`);
    const items = body.data.items as Item[];
    expect(items.map((i) => i.id)).toEqual(HUNDRED);
    const statuses = (from: number, to: number) => new Set(items.slice(from, to).map((i) => i.status));
    expect([statuses(0, 50), statuses(50, 60), statuses(60, 100)]).toEqual([
      new Set(["listed"]),
      new Set(["removed"]),
      new Set(["unknown"]),
    ]);
    expect(items[40]).toMatchObject({ id: "OLD/tool-0", current_id: "acme/tool-0", renamed: true, status: "listed" });
    expect(items[0]).toMatchObject({ current_id: "acme/tool-10", renamed: false, pushed_at: "2026-08-01T00:00:00Z" });
    expect(items.slice(0, 50).map((i) => i.changed)).toEqual(
      items.slice(0, 50).map((i) => Number(i.current_id!.split("-")[1]) % 2 === 0),
    );
    expect(items[43]).toMatchObject({ deprecated: true, archived: false });
    expect(items[44]!.latest_release).toMatchObject({ tag: "v2.0.0" });
    expect(items[45]).toMatchObject({ archived: true });
    expect(items[50]).toMatchObject({ status: "removed", removed_at: "2026-08-15T00:00:00.000Z", changed: true });
    expect(items[55]).toMatchObject({ status: "removed", changed: false });
    expect(items[60]).toMatchObject({ status: "unknown", current_id: null, changed: null });
    expect(body.data.unknown).toEqual(HUNDRED.slice(60));
    const posted = await post(JSON.stringify({ ids: HUNDRED, since: EARLIER }));
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual(body);
  });

  test("without since nothing is said of changes; before the history's start it is unknown", async () => {
    server = startServer(catalog());
    const plain = await server.json("/api/v1/lookup?ids=acme/tool-0,gone/tool-0");
    expect(plain.data.items.map((i: Item) => i.changed)).toEqual([null, null]);
    const old = await server.json("/api/v1/lookup?ids=acme/tool-1&since=2025-01-01T00:00:00.000Z");
    expect(old.data.items[0].changed).toBeNull();
  });

  test("a GET is cached per snapshot: ETag and 304", async () => {
    server = startServer(catalog());
    const first = await server.get("/api/v1/lookup?ids=acme/tool-1");
    const etag = first.headers.get("etag")!;
    expect((await server.get("/api/v1/lookup?ids=acme/tool-1", { "If-None-Match": etag })).status).toBe(304);
  });

  test("malformed input is a 400 in the contract's shape, never a 5xx", async () => {
    server = startServer(catalog());
    const bad = [
      "/api/v1/lookup",
      "/api/v1/lookup?ids=",
      `/api/v1/lookup?ids=${[...HUNDRED, "acme/one-more"].join(",")}`,
      "/api/v1/lookup?ids=acme/tool-1,not-an-id",
      "/api/v1/lookup?ids=acme/tool-1,-bad/x",
      "/api/v1/lookup?ids=a/b&ids=c/d",
      "/api/v1/lookup?ids=acme/tool-1&since=yesterday",
    ];
    for (const path of bad) {
      const response = await server.get(path);
      expect([path, response.status]).toEqual([path, 400]);
      const body = (await response.json()) as { code: number; data: unknown };
      expect(body).toMatchObject({ code: 400, data: null });
    }
    const bodies = [
      "not json",
      "[]",
      '{"ids": "acme/tool-1"}',
      '{"ids": [1, 2]}',
      `{"ids": ${JSON.stringify([...HUNDRED, "x/y"])}}`,
      '{"ids": ["acme/tool-1"], "since": 5}',
      '{"ids": ["acme/tool-1"], "since": "later"}',
      '{"ids": []}',
    ];
    for (const body of bodies) {
      const response = await post(body);
      expect([body, response.status]).toEqual([body, 400]);
      expect(await response.json()).toMatchObject({ code: 400, data: null });
    }
    const huge = await post(JSON.stringify({ ids: ["acme/tool-1"], pad: "x".repeat(40_000) }));
    expect(huge.status).toBe(413);
  });
});

describe("POST /api/v1/lookup in the OpenAPI document and in Allow", () => {
  test("/openapi.json documents the POST with its JSON body; OPTIONS and a 405 name POST among the methods", async () => {
    server = startServer(catalog());
    const doc = await server.json("/openapi.json");
    const path = doc.paths["/api/v1/lookup"];
    expect(Object.keys(path).sort()).toEqual(["get", "head", "options", "post"]);
    expect(path.post.operationId).toBe("postApiV1Lookup");
    const body = path.post.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["ids"]);
    expect(body.properties.ids.maxItems).toBe(100);
    expect(Object.keys(path.post.responses)).toEqual(expect.arrayContaining(["200", "400", "413", "503"]));
    expect(path.post.responses["200"].headers.ETag).toBeUndefined();
    expect(path.options.responses["204"].headers.Allow.schema.enum).toEqual(["GET, HEAD, POST, OPTIONS"]);
    // A path without a POST keeps its methods.
    expect(doc.paths["/api/v1/plugins"].post).toBeUndefined();
    expect(doc.paths["/api/v1/plugins"].options.responses["204"].headers.Allow.schema.enum).toEqual([
      "GET, HEAD, OPTIONS",
    ]);

    const options = await fetch(`${server.url}/api/v1/lookup`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expect(options.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, OPTIONS");
    const put = await fetch(`${server.url}/api/v1/lookup`, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expect((await put.json()).code).toBe(405);
    const elsewhere = await fetch(`${server.url}/api/v1/plugins`, { method: "POST", body: "{}" });
    expect(elsewhere.status).toBe(405);
    expect(elsewhere.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  test("a POST answers the documented envelope, uncached", async () => {
    server = startServer(catalog());
    const doc = await server.json("/openapi.json");
    const response = await fetch(`${server.url}/api/v1/lookup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ids: ["acme/tool-1", "nobody/none"] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const schema = doc.paths["/api/v1/lookup"].post.responses["200"].content["application/json"].schema;
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(["code", "data"]));
    const answer = await response.json();
    expect(answer.data.items.map((item: Item) => [item.id, item.status])).toEqual([
      ["acme/tool-1", "listed"],
      ["nobody/none", "unknown"],
    ]);
    expect(answer.data.unknown).toEqual(["nobody/none"]);
  });
});
