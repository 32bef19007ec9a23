/** The client-sync endpoints over HTTP: catalog.json, changes, categories, redirects, pinned paging, newest, archived. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { WHOLE_BYTES } from "../../src/market/file-body";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;
let small: TestServer;

beforeAll(() => {
  server = startServer(defaultSnapshotInput());
  small = startServer(
    snapshotInput([
      plugin("acme/live-mcp", {
        categories: ["mcp"],
        stars: 50,
        description: "postgres tools",
        first_seen_at: "2026-08-01T00:00:00.000Z",
      }),
      plugin("acme/old-mcp", { categories: ["mcp"], stars: 40, archived: true, description: "postgres relic" }),
      plugin("acme/skill", {
        categories: ["skills", "mcp"],
        stars: 30,
        curated: true,
        created_at: "2026-01-01T00:00:00Z",
      }),
      plugin("acme/hook", {
        categories: ["hooks"],
        stars: 20,
        first_seen_at: "2026-08-01T00:00:00.000Z",
        created_at: "2026-02-01T00:00:00Z",
      }),
    ]),
  );
});
afterAll(async () => {
  await server.stop();
  await small.stop();
});

const ids = (items: Array<{ id: string }>) => items.map((p) => p.id);

describe("GET /market/v1/catalog.json", () => {
  test("holds every plugin in catalog form, the categories with counts, and the snapshot time", async () => {
    const catalog = await server.json("/market/v1/catalog.json");
    const manifest = await server.json("/market/manifest.json");
    expect(catalog.snapshotAt).toBe(manifest.snapshotAt);
    expect(catalog.total).toBe(manifest.stats.total);
    expect(catalog.items).toHaveLength(catalog.total);
    // The catalog form carries every part `include=` can ask for.
    const full = await server.json(
      "/api/v1/plugins/modelcontextprotocol/servers?include=contents,install,flags,works_with,context",
    );
    const item = catalog.items.find((p: { id: string }) => p.id === "modelcontextprotocol/servers");
    expect(item).toEqual({
      ...full.data.plugin,
      curated: expect.any(Boolean),
      first_seen_at: catalog.snapshotAt,
      repo_id: null,
      previous_ids: [],
      last_update: null,
    });
    for (const category of catalog.categories) {
      expect(Object.keys(category)).toEqual(["id", "name", "name_zh", "description", "count"]);
      const list = await server.json(`/api/v1/plugins?category=${category.id}&pageSize=1`);
      expect(category.count).toBe(list.data.total);
    }
  });

  test("is validated by its ETag and sent gzip-compressed to clients that take it", async () => {
    const first = await server.get("/market/v1/catalog.json", { "accept-encoding": "gzip" });
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    await first.arrayBuffer();
    const again = await server.get("/market/v1/catalog.json", { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  test("a client that takes no gzip gets the same document, plain, under the plain ETag", async () => {
    const raw = await fetch(`${server.url}/market/v1/catalog.json`, {
      headers: { "accept-encoding": "gzip" },
      decompress: false,
    });
    const plain = await fetch(`${server.url}/market/v1/catalog.json`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("etag")).toBe(raw.headers.get("etag")!.replace('.gzip"', '"'));
    const text = await plain.text();
    expect(text).toBe(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await raw.arrayBuffer()))));
    // Sent from its file, whatever its size: with its length, not chunked (the default is past WHOLE_BYTES).
    expect(Buffer.byteLength(text)).toBeGreaterThan(WHOLE_BYTES);
    expect(plain.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(plain.headers.get("transfer-encoding")).toBeNull();
  });
});

describe("GET /market/v1/changes", () => {
  test("since the current snapshot is nothing", async () => {
    const changes = await small.json(`/market/v1/changes?since=${SNAPSHOT_AT}`);
    expect(changes).toEqual({
      snapshotAt: SNAPSHOT_AT,
      since: SNAPSHOT_AT,
      added: [],
      updated: [],
      removed: [],
      renamed: [],
    });
  });

  test("a snapshot the history does not reach is 410, pointing at catalog.json", async () => {
    const res = await small.get("/market/v1/changes?since=2026-01-01T00:00:00.000Z");
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ code: 410, message: expect.stringContaining("/market/v1/catalog.json") });
  });

  test.each([
    "",
    "?since=",
    "?since=yesterday",
    "?since=2026-08-22T00:00:00Z",
    "?since=2026-13-45T00:00:00.000Z",
    `?since=${SNAPSHOT_AT}&since=${SNAPSHOT_AT}`,
  ])("a missing or malformed since (%p) is 400", async (query) => {
    const res = await small.get(`/market/v1/changes${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('"since"');
  });
});

describe("pinned paging", () => {
  test("a page of the snapshot served is answered; of another, 409 in the endpoint's error shape", async () => {
    expect((await small.get(`/market/v1/plugins?snapshot=${SNAPSHOT_AT}`)).status).toBe(200);
    expect((await small.get(`/api/v1/plugins?page=2&snapshot=${SNAPSHOT_AT}`)).status).toBe(200);
    const market = await small.get("/market/v1/plugins?page=2&snapshot=2026-08-21T00:00:00.000Z");
    expect(market.status).toBe(409);
    expect(await market.json()).toEqual({ code: 409, message: expect.stringContaining("restart") });
    const api = await small.get("/api/v1/plugins?snapshot=2026-08-21T00:00:00.000Z");
    expect(api.status).toBe(409);
    expect(await api.json()).toEqual({ code: 409, message: expect.stringContaining("changed"), data: null });
    expect((await small.get("/api/v1/plugins?snapshot=now")).status).toBe(400);
  });
});

describe("calendar times", () => {
  const impossible = [
    "2026-02-31T00:00:00.000Z",
    "2026-04-31T00:00:00.000Z",
    "2026-08-22T24:00:00.000Z",
    "2026-08-22T23:59:60.000Z",
    "2026-08-22T23:60:00.000Z",
  ];
  test.each(impossible)("since=%s, a time the calendar lacks, is 400 and not 410", async (value) => {
    const res = await small.get(`/market/v1/changes?since=${value}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('"since"');
  });

  test.each(impossible)("snapshot=%s is 400 on both paged lists, not 409", async (value) => {
    const market = await small.get(`/market/v1/plugins?page=2&snapshot=${value}`);
    expect(market.status).toBe(400);
    const api = await small.get(`/api/v1/plugins?snapshot=${value}`);
    expect(api.status).toBe(400);
    expect(((await api.json()) as { message: string }).message).toContain('"snapshot"');
  });

  test("the document says an impossible time is a 400", async () => {
    const doc = await small.json("/openapi.json");
    const since = doc.paths["/market/v1/changes"].get.parameters.find((p: { name: string }) => p.name === "since");
    expect(since.schema.format).toBe("date-time");
    expect(since.description).toContain("February 31");
  });
});

describe("GET /api/v1/categories", () => {
  test("lists every category of the set with its plugins counted as the category filter counts them", async () => {
    const body = await small.json("/api/v1/categories");
    expect(body.code).toBe(0);
    expect(body.data.generatedAt).toBe(SNAPSHOT_AT);
    const counts = Object.fromEntries(body.data.items.map((c: { id: string; count: number }) => [c.id, c.count]));
    expect(counts).toMatchObject({ mcp: 3, skills: 1, hooks: 1, cli: 0 });
    expect(body.data.items[0]).toEqual({ id: "mcp", name: "mcp", name_zh: "mcp", description: "", count: 3 });
  });

  test("counts within a search, the curated or the unarchived plugins", async () => {
    const count = async (query: string) => {
      const body = await small.json(`/api/v1/categories?${query}`);
      return Object.fromEntries(body.data.items.map((c: { id: string; count: number }) => [c.id, c.count]));
    };
    expect(await count("q=postgres")).toMatchObject({ mcp: 2, skills: 0, hooks: 0 });
    expect(await count("q=postgres&archived=false")).toMatchObject({ mcp: 1 });
    expect(await count("curated=1")).toMatchObject({ mcp: 1, skills: 1, hooks: 0 });
    expect(await count("archived=true")).toMatchObject({ mcp: 1, skills: 0 });
    expect((await small.get("/api/v1/categories?archived=maybe")).status).toBe(400);
  });

  test("names each category in English and Chinese from the editors' set", async () => {
    const body = await server.json("/api/v1/categories");
    expect(body.data.items.find((c: { id: string }) => c.id === "mcp")).toMatchObject({
      name: expect.any(String),
      name_zh: expect.stringMatching(/\p{Script=Han}/u),
    });
  });
});

describe("GET /api/v1/plugins, additions", () => {
  test("sort=newest: first seen, then created, descending, id last", async () => {
    const body = await small.json("/api/v1/plugins?sort=newest");
    expect(ids(body.data.items)).toEqual(["acme/skill", "acme/old-mcp", "acme/hook", "acme/live-mcp"]);
  });

  test("archived=false leaves archived plugins out, with or without a search; archived=true keeps only them", async () => {
    expect(ids((await small.json("/api/v1/plugins?archived=false&sort=stars")).data.items)).toEqual([
      "acme/live-mcp",
      "acme/skill",
      "acme/hook",
    ]);
    const search = await small.json("/api/v1/plugins?q=postgres&archived=false&sort=name");
    expect([ids(search.data.items), search.data.total]).toEqual([["acme/live-mcp"], 1]);
    expect(ids((await small.json("/api/v1/plugins?archived=true")).data.items)).toEqual(["acme/old-mcp"]);
  });

  test("a former id redirects (301) to the plugin's current address", async () => {
    const res = await fetch(`${server.url}/api/v1/plugins/apify/actors-mcp-server`, { redirect: "manual" });
    expect(res.status).toBe(301);
    const target = res.headers.get("location")!;
    const current = await server.json(target);
    expect(current.data.plugin.id).not.toBe("apify/actors-mcp-server");
    const catalog = await server.json("/market/v1/catalog.json");
    const item = catalog.items.find((p: { id: string }) => p.id === current.data.plugin.id);
    expect(item.previous_ids).toContain("apify/actors-mcp-server");
  });
});
