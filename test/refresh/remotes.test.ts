/**
 * Remote MCP servers answer for themselves, end to end: repositories on the fake platform whose
 * server.json names remotes, the remotes fakes on 127.0.0.1 reached through the guard's test
 * allowance. A real refresh records each as what it is, never reaches the "private" server, keeps
 * within its budget, reuses a recent answer, and the app serves `include=tools`, `has=tools`,
 * tool names in search and on the plugin page.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { RemoteOptions } from "../../src/refresh/checks/remotes/remote-limits";
import { formatResult } from "../../src/refresh/report";
import { type FakeRemotes, HOSTS, remoteUrl, startFakeRemotes } from "../fakes/mcp-remotes";
import { Conformance, type OpenApiDocument } from "../openapi-conformance";
import { Env, published } from "./support";

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json";
const TOPIC = "mcp-server";
const CASES: Array<[string, keyof typeof HOSTS, string]> = [
  ["acme/answering-mcp", "answering", "answering"],
  ["acme/auth-mcp", "auth", "auth_required"],
  ["acme/html-mcp", "html", "not_mcp"],
  ["acme/hang-mcp", "hang", "down"],
  ["acme/redirect-mcp", "redirect", "down"],
  ["acme/private-mcp", "private", "down"],
  ["acme/card-mcp", "card", "answering"],
];

let env: Env;
let fakes: FakeRemotes;
afterEach(async () => {
  await env.stop();
  fakes.stop();
});

function serverJson(id: string, url: string): string {
  return JSON.stringify({
    $schema: SCHEMA,
    name: `io.github.${id}`,
    description: "A remote MCP server",
    version: "1.0.0",
    repository: { url: `https://github.com/${id}`, source: "github" },
    remotes: [{ type: "streamable-http", url }],
  });
}

function setUp(cases = CASES): void {
  env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
  env.github.setRemaining("search", 1000);
  fakes = startFakeRemotes();
  cases.forEach(([id, host], i) => {
    const files = { "server.json": serverJson(id, remoteUrl(HOSTS[host])) };
    env.github.add({ full_name: id, stars: 100 - i, topics: [TOPIC], files });
  });
}

const options = (limits: Partial<RemoteOptions["limits"]> = {}): { remotes: RemoteOptions } => ({
  remotes: {
    limits: { budgetMs: 5000, timeoutMs: 700, concurrency: 4, reuseHours: 20, ...limits },
    allowance: fakes.allowance,
  },
});

interface Served {
  id: string;
  remote?: { status: string; url: string; checked_at: string; reason?: string } | null;
  tools?: Array<{ name: string; description: string | null }>;
}

async function list(url: string, query: string): Promise<Served[]> {
  const response = await fetch(`${url}/api/v1/plugins?pageSize=100&${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { items: Served[] } }).data.items;
}

describe("remote MCP servers answer for themselves", () => {
  test("each is recorded as what it is, no request reaches a private address, within the budget", async () => {
    setUp();
    const started = performance.now();
    const report = published(await env.refresh(options({ budgetMs: 2500 })));
    expect(performance.now() - started).toBeLessThan(2500 + 3000);
    expect(fakes.privateHits()).toBe(0);
    expect(report.remotes).toMatchObject({ asked: 7, answering: 2, auth_required: 1, not_mcp: 1, down: 3 });
    expect(formatResult({ status: "published", report })).toContain(
      "  remote servers asked 7, reused 0, not reached in time 0; answering 2, auth required 1, not MCP 1, down 3",
    );
    const { url } = env.serve();
    const items = await list(url, "include=tools");
    for (const [id, , status] of CASES) expect(items.find((p) => p.id === id)?.remote?.status).toBe(status);
    const answering = items.find((p) => p.id === "acme/answering-mcp")!;
    expect(answering.tools).toHaveLength(100);
    expect(answering.tools![0]).toEqual({ name: "search_docs", description: "Search the documentation by keyword" });
    expect(items.find((p) => p.id === "acme/private-mcp")?.remote?.reason).toBe(
      "name resolves to an address not public",
    );

    const withTools = await list(url, "has=tools");
    expect(withTools.map((p) => p.id).sort()).toEqual(["acme/answering-mcp", "acme/card-mcp"]);
    expect((await list(url, "q=from_card")).map((p) => p.id)).toContain("acme/card-mcp");
    expect((await list(url, "q=search_docs")).map((p) => p.id)).toContain("acme/answering-mcp");
    const bare = await list(url, "");
    expect(bare.every((p) => !("remote" in p) && !("tools" in p))).toBe(true);

    const document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiDocument;
    const conformance = new Conformance(document);
    for (const path of ["/api/v1/plugins?include=tools", "/api/v1/plugins/acme/answering-mcp?include=tools,risk"])
      expect(await conformance.problems(path, await fetch(url + path))).toEqual([]);

    const page = await (await fetch(`${url}/plugin/acme/answering-mcp`)).text();
    expect(page).toContain("search_docs");
    expect(page).toContain("answers as an MCP server");
  });

  test("a recent answer at the same address is reused without a request", async () => {
    setUp(CASES.slice(0, 2));
    published(await env.refresh(options()));
    const before = fakes.hits.get(HOSTS.answering) ?? 0;
    expect(before).toBeGreaterThan(0);
    const report = published(await env.refresh(options()));
    expect(report.remotes).toMatchObject({ asked: 0, reused: 2 });
    expect(fakes.hits.get(HOSTS.answering) ?? 0).toBe(before);
    const { url } = env.serve();
    const items = await list(url, "include=tools&has=tools");
    expect(items.map((p) => p.id)).toEqual(["acme/answering-mcp"]);
  });

  test("hanging servers never hold the refresh past the budget", async () => {
    const many = Array.from({ length: 12 }, (_, i): [string, keyof typeof HOSTS, string] => [
      `slow/hang-${i}`,
      "hang",
      "down",
    ]);
    setUp(many);
    // Twelve hanging servers, two at a time, each allowed 5 s: only the budget ends them.
    const started = performance.now();
    const report = published(await env.refresh(options({ budgetMs: 800, timeoutMs: 5000, concurrency: 2 })));
    const remoteMs = report.phases.find(([name]) => name === "remotes")?.[1] ?? Number.POSITIVE_INFINITY;
    expect(remoteMs).toBeLessThan(800 + 500);
    expect(performance.now() - started).toBeLessThan(8000);
    expect(report.remotes?.asked).toBeLessThanOrEqual(2);
  });

  test("without remote options nothing is asked", async () => {
    setUp(CASES.slice(0, 1));
    const report = published(await env.refresh());
    expect(report.remotes).toBeUndefined();
    expect(fakes.hits.size).toBe(0);
  });
});
