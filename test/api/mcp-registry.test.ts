/**
 * The MCP registry API (/v0.1) over real HTTP: every served body validates against the registry's
 * schema constraints (written down in test/fixtures/mcp-registry/, checked with ajv), paging with
 * `cursor` and with `updated_since` loses and repeats nothing, `version=latest` is one entry per
 * server, `search` is a substring of the name and `q` the catalog's search, a cursor carries its
 * list's filters, names are kept or made in the operator's namespace, errors take the API's shape.
 * test/api/vscode-gallery.test.ts replays VS Code's gallery over the same API.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Install, PluginDetails } from "../../src/catalog/model/details";
import { noDetails } from "../../src/catalog/model/details";
import type { PluginRecord, SnapshotInput } from "../../src/catalog/model/types";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { PAGING_RULE } from "../../src/market/mcp-api/mcp-api-routes";
import { eventually, plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/mcp-registry", name), "utf8")) as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(fixture("server.schema.json"));
const validList = ajv.compile(fixture("server-list.schema.json"));
const validResponse = ajv.compile({ $ref: "server-list.schema.json#/$defs/ServerResponse" });
const validError = ajv.compile({
  type: "object",
  required: ["error"],
  properties: { error: { type: "string" } },
});

function expectValid(check: typeof validList, body: unknown) {
  const ok = check(body);
  if (!ok) throw new Error(`${ajv.errorsText(check.errors)}\n${JSON.stringify(body).slice(0, 400)}`);
}

/** A served entry, as far as the tests read it. */
interface Served {
  server: {
    name: string;
    version: string;
    packages?: Array<Record<string, unknown>>;
    remotes?: Array<Record<string, unknown>>;
  };
  _meta: Record<string, Record<string, unknown>>;
}

let server: TestServer;
afterEach(() => server?.stop());

const npm = (name: string, version: string, env: Install["env"] = []): Install => ({
  harness: "mcp",
  kind: "npm",
  config: { mcpServers: { [name]: { command: "npx", args: ["-y", `@acme/${name}@${version}`] } } },
  env,
  from: "server.json",
});
const pypi = (name: string, version: string): Install => ({
  harness: "mcp",
  kind: "pypi",
  config: { mcpServers: { [name]: { command: "uvx", args: [`${name}==${version}`] } } },
  env: [],
  from: "server.json",
});
const oci = (name: string): Install => ({
  harness: "mcp",
  kind: "oci",
  config: { mcpServers: { [name]: { command: "docker", args: ["run", "-i", "--rm", `ghcr.io/acme/${name}:2.0.1`] } } },
  env: [],
  from: "server.json",
});
const remote = (name: string): Install => ({
  harness: "mcp",
  kind: "remote",
  config: { mcpServers: { [name]: { type: "http", url: `https://mcp.example.com/${name}` } } },
  env: [],
  from: "server.json",
});

function withDetails(details: Partial<PluginDetails>): PluginDetails {
  return { ...noDetails(), works_with: ["mcp"], ...details };
}

const COUNT = 230;
const times = ["2026-08-01T00:00:00.000Z", "2026-08-10T00:00:00.000Z", "2026-08-20T00:00:00.000Z"];

/** COUNT servers of every kind (and plugins that are no entry), with three update times. */
function catalog(): SnapshotInput {
  const plugins: PluginRecord[] = [];
  const changedAt = new Map<string, string>();
  for (let i = 0; i < COUNT; i++) {
    const id = `owner${i % 7}/server-${i}`;
    const kinds = [npm(`s${i}`, `1.${i}.0`), pypi(`s${i}`, "0.3.1"), oci(`s${i}`), remote(`s${i}`)];
    const install = [kinds[i % 4]!];
    // A remote's version is server.json's: every remote here states one.
    const identity =
      i % 3 === 0 || i % 4 === 3
        ? { mcp_registry: { name: `io.github.owner${i % 7}/server-${i}`, version: `2.${i}.0` } }
        : {};
    const description = i % 5 === 0 ? `A very long description ${"x".repeat(150)}` : i % 11 === 0 ? "" : `Server ${i}`;
    plugins.push(plugin(id, { stars: 1000 - i, description, details: withDetails({ install, ...identity }) }));
    changedAt.set(id.toLowerCase(), times[i % 3]!);
  }
  // No entries: an MCP server without an installable package, and a plugin of another kind.
  plugins.push(plugin("other/no-install", { details: withDetails({}) }));
  plugins.push(plugin("other/skill", { details: null }));
  // A claimed GitHub namespace of another owner, and a name another server holds already.
  const claimed = (name: string) =>
    withDetails({ install: [npm("x", "1.0.0")], mcp_registry: { name, version: "1.0.0" } });
  plugins.push(plugin("mallory/spoof", { stars: 5000, details: claimed("io.github.owner0/server-0") }));
  plugins.push(plugin("copier/dup", { stars: 1, details: claimed("io.github.owner0/server-0") }));
  plugins.push(plugin("corp/own", { stars: 2, details: claimed("com.corp/own") }));
  // A package the registries tie to another repository, beside the server's own remote.
  const stranger = { ...npm("taken", "6.6.6"), package_verified: false, package_note: "npm: names another repository" };
  const victim = withDetails({
    install: [stranger, remote("victim")],
    mcp_registry: { name: "io.github.victim/taken", version: "1.0.0" },
  });
  plugins.push(plugin("victim/taken", { stars: 3, details: victim }));
  return { ...snapshotInput(plugins), history: { changedAt, events: [], snapshots: [SNAPSHOT_AT] } };
}

async function pageThrough(query: string, limit: number): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const sep = query ? "&" : "";
    const at = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const response = await server.get(`/v0.1/servers?${query}${sep}limit=${limit}${at}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      servers: Array<{ server: { name: string } }>;
      metadata: { nextCursor?: string; count: number };
    };
    expectValid(validList, body);
    expect(body.metadata.count).toBe(body.servers.length);
    names.push(...body.servers.map((s) => s.server.name));
    cursor = body.metadata.nextCursor;
    if (!cursor) return names;
  }
  throw new Error("paging did not end");
}

describe("GET /v0.1/servers", () => {
  test("paging with cursor reaches every server once, each body valid; version=latest is one entry per server", async () => {
    server = startServer(catalog(), { baseUrl: "https://plugins.example.org" });
    const all = await pageThrough("", 7);
    expect(all.length).toBe(COUNT + 4);
    expect(new Set(all.map((n) => n.toLowerCase())).size).toBe(all.length);
    expect(await pageThrough("version=latest", 100)).toEqual(all);
    expect(await pageThrough("", 100)).toEqual(all);
    // Name order, case aside.
    expect([...all].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))).toEqual(all);
  });

  test("paging with updated_since gives exactly the servers updated after it, oldest update first", async () => {
    server = startServer(catalog());
    const since = await pageThrough("updated_since=2026-08-05T00:00:00Z", 9);
    const expected = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(since.length).toBeGreaterThan(100);
    // The four plugins without a history changed at this snapshot.
    expect(since.length).toBe(expected.length + 4);
    expect(new Set(since).size).toBe(since.length);
    const body = await server.json("/v0.1/servers?updated_since=2026-08-15T00:00:00.000Z&limit=100");
    const dates = body.servers.map((s: Served) => s._meta["io.modelcontextprotocol.registry/official"]?.updatedAt);
    expect(new Set(dates)).toEqual(new Set([times[2], SNAPSHOT_AT]));
    expect([...dates].sort()).toEqual(dates);
    expect((await pageThrough("updated_since=2026-09-01T00:00:00Z", 10)).length).toBe(0);
    // An offset is the same instant.
    expect(await pageThrough("updated_since=2026-08-05T02:00:00%2B02:00", 50)).toEqual(since);
  });

  test("names: server.json's kept in the repository's own namespace; a domain, foreign or taken one replaced in the operator's", async () => {
    server = startServer(catalog(), { baseUrl: "https://plugins.example.org" });
    const all = await pageThrough("", 100);
    expect(all).toContain("io.github.owner0/server-0");
    // A domain namespace is anyone's to write in a server.json: nothing proves corp/own holds corp.com.
    expect(all).not.toContain("com.corp/own");
    expect(all).toContain("org.example.plugins/corp-own");
    // A package the refresh marked as not the repository's is never served as its line.
    const victim = await server.json("/v0.1/servers/io.github.victim%2Ftaken/versions/latest");
    expect(victim.server.packages).toBeUndefined();
    expect(victim.server.remotes).toEqual([{ type: "streamable-http", url: "https://mcp.example.com/victim" }]);
    expect(all).toContain("org.example.plugins/mallory-spoof");
    expect(all).toContain("org.example.plugins/copier-dup");
    expect(all).toContain("org.example.plugins/owner1-server-1");
    expect(all).toContain("io.github.owner3/server-3");
    const one = await server.json("/v0.1/servers/io.github.owner0%2Fserver-0/versions/latest");
    expectValid(validResponse, one);
    expect(one.server.version).toBe("2.0.0");
    expect(one.server.packages[0]).toMatchObject({ registryType: "npm", identifier: "@acme/s0", version: "1.0.0" });
    const meta = one._meta["org.example.plugins/catalog"];
    expect(meta).toMatchObject({
      id: "owner0/server-0",
      page: "https://plugins.example.org/plugin/owner0/server-0",
      stars: 1000,
      listing: "listed",
    });
    const long = await server.json("/v0.1/servers/org.example.plugins%2Fowner5-server-5/versions/0.3.1");
    expect(Array.from(long.server.description as string).length).toBe(100);
    expect(long.server.description).toEndWith("…");
    const empty = await server.json("/v0.1/servers/org.example.plugins%2Fowner1-server-22/versions/latest");
    expect(empty.server.description).toBe("MCP server from owner1/server-22");
    const kinds = await server.json("/v0.1/servers?limit=100");
    const remoteEntry = kinds.servers.find((s: Served) => s.server.remotes);
    expect(remoteEntry.server.remotes[0]).toEqual({
      type: "streamable-http",
      url: expect.stringMatching(/^https:\/\/mcp\.example\.com\//),
    });
    const ociEntry = kinds.servers.find((s: Served) => s.server.packages?.[0]?.registryType === "oci");
    expect(ociEntry.server.packages[0]).toEqual({
      registryType: "oci",
      identifier: expect.stringMatching(/^ghcr\.io\/acme\/s\d+:2\.0\.1$/),
      transport: { type: "stdio" },
    });
  });

  test("search is the registry's substring of the name, q the catalog's search; an exact version filters", async () => {
    server = startServer(catalog());
    const found = await server.json("/v0.1/servers?search=SERVER-17&limit=100");
    expectValid(validList, found);
    expect(found.servers.map((s: Served) => s.server.name).sort()).toEqual(
      (await pageThrough("", 100)).filter((n) => n.toLowerCase().includes("server-17")).sort(),
    );
    expect(found.servers.map((s: Served) => s._meta["test.catalog/catalog"]?.id)).toContain("owner3/server-17");
    // A word the names do not hold finds nothing by name; the catalog's search finds it in the description.
    expect((await server.json("/v0.1/servers?search=very%20long")).servers).toEqual([]);
    const words = await server.json("/v0.1/servers?q=very%20long&limit=100");
    expect(words.servers.length).toBeGreaterThan(10);
    for (const s of words.servers as Served[])
      expect(String(s._meta["test.catalog/catalog"]?.id)).toMatch(/server-\d*[05]$/);
    // Page 2 on with the cursor alone stays in the list, whichever filters it has.
    for (const query of [
      "search=owner1",
      "q=very%20long",
      "version=0.3.1",
      "search=server-1&updated_since=2026-08-05T00:00:00Z",
    ]) {
      const whole = await pageThrough(query, 100);
      const first = await server.json(`/v0.1/servers?${query}&limit=3`);
      const names = first.servers.map((s: Served) => s.server.name);
      let cursor: string | undefined = first.metadata.nextCursor;
      while (cursor) {
        const page = await server.json(`/v0.1/servers?limit=3&cursor=${cursor}`);
        names.push(...page.servers.map((s: Served) => s.server.name));
        cursor = page.metadata.nextCursor;
      }
      expect([query, names]).toEqual([query, whole]);
    }
    const version = await server.json("/v0.1/servers?version=0.3.1&limit=100");
    expect(version.servers.length).toBeGreaterThan(0);
    for (const s of version.servers) expect(s.server.version).toBe("0.3.1");
    const none = await server.json("/v0.1/servers?version=9.9.9");
    expect(none).toEqual({ servers: [], metadata: { count: 0 } });
  });

  test("bad parameters and unknown servers answer the API's error shape; never a 5xx", async () => {
    server = startServer(catalog());
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=x",
      "updated_since=yesterday",
      "cursor=%21%21",
      "cursor=bm9wZQ",
      `cursor=${"A".repeat(4097)}`,
      "include_deleted=maybe",
      "updated_since=2026-08-01T00:00:00Z&include_deleted=false",
      `search=${"a".repeat(201)}`,
      `q=${"a".repeat(201)}`,
    ]) {
      const response = await server.get(`/v0.1/servers?${query}`);
      expect([query, response.status]).toEqual([query, 400]);
      expectValid(validError, await response.json());
    }
    for (const path of [
      "/v0.1/servers/nobody%2Fnothing/versions",
      "/v0.1/servers/nobody%2Fnothing/versions/latest",
      "/v0.1/servers/io.github.owner0%2Fserver-0/versions/0.0.1",
    ]) {
      const response = await server.get(path);
      expect([path, response.status]).toEqual([path, 404]);
      const body = await response.json();
      expectValid(validError, body);
    }
    expect(await (await server.get("/v0.1/servers/nobody%2Fnothing/versions")).json()).toEqual({
      error: "Server not found",
    });
    const versions = await server.json("/v0.1/servers/io.github.owner0%2Fserver-0/versions");
    expectValid(validList, versions);
    expect(versions.servers.length).toBe(1);
  });

  test("a cursor of an earlier snapshot is a 400 telling to start again", async () => {
    server = startServer(catalog());
    const first = await server.json("/v0.1/servers?limit=5");
    const cursor = first.metadata.nextCursor as string;
    publishSnapshot(server.path, { ...catalog(), snapshotAt: "2026-08-23T00:00:00.000Z" });
    await eventually(
      () => server.store.newest()?.snapshotAt === "2026-08-23T00:00:00.000Z",
      5000,
      "the store sees the new snapshot",
    );
    await server.store.prepared();
    const response = await server.get(`/v0.1/servers?limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain("earlier snapshot");
    expect((await server.get("/v0.1/servers?limit=5")).status).toBe(200);
  });

  test("answers are cached per snapshot with ETag, 304 and gzip", async () => {
    server = startServer(catalog());
    const response = await server.get("/v0.1/servers?limit=100", { "Accept-Encoding": "gzip" });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const etag = response.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await server.get("/v0.1/servers?limit=100", { "If-None-Match": etag });
    expect(again.status).toBe(304);
  });
});

describe("the paging rate-limit group", () => {
  test("admits a burst sized for paging through everything, then a 429 in the registry API's error shape", async () => {
    server = startServer(catalog(), { rateLimitWindowMs: 60_000 });
    // Requests refill the burst as they are sent: the first refusal comes after at least a burst.
    let admitted = 0;
    let refused: Response | null = null;
    while (refused === null && admitted < PAGING_RULE.burst * 4) {
      const response = await server.get("/v0.1/servers?limit=1");
      if (response.status === 429) refused = response;
      else admitted++;
    }
    expect(admitted).toBeGreaterThanOrEqual(PAGING_RULE.burst);
    if (refused === null) throw new Error("no request was refused");
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expectValid(validError, await refused.json());
  });
});
