/**
 * A plugin's context cost where people choose, over real HTTP against a real snapshot file:
 * `include=context`, the `context` sort (lightest first, unmeasured last), the `context_max`
 * filter with and without a search, catalog.json, the MCP registry's `_meta`, the Claude Code
 * marketplace's tags (which the real CLI validates without an error) and the plugin page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTEXT_METHOD, type PluginContext } from "../../src/catalog/model/context-cost";
import { type Contents, type Install, noDetails, type PluginDetails } from "../../src/catalog/model/details";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const context = (always_on: number, complete = true, mcp_tools: PluginContext["mcp_tools"] = 0): PluginContext => ({
  components: [{ kind: "skill", name: "x:main", always_on, on_invoke: 40 }],
  always_on,
  mcp_tools,
  complete,
  method: CONTEXT_METHOD,
});

const contents = (name: string): Contents => ({
  skills: [{ name: "main", description: "The main skill." }],
  commands: [],
  agents: [],
  hooks: [],
  mcp_servers: [],
  plugins: [{ name, source: "./", description: `${name} helps` }],
  counts: { skills: 1, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, plugins: 1 },
});

const npm: Install = {
  harness: "mcp",
  kind: "npm",
  config: { mcpServers: { heavy: { command: "npx", args: ["-y", "@acme/heavy@1.0.0"] } } },
  env: [],
  from: "server.json",
};

function claudePlugin(id: string, stars: number, measured: PluginContext | null, extra: Partial<PluginDetails> = {}) {
  const details: PluginDetails = {
    ...noDetails(),
    works_with: ["claude-code"],
    contents: contents(id.split("/")[1]!),
    ...(measured ? { context: measured } : {}),
    ...extra,
  };
  return plugin(id, { stars, description: "a review helper", details });
}

let server: TestServer;
beforeAll(() => {
  server = startServer(
    snapshotInput([
      claudePlugin("acme/heavy", 500, context(4200, true, "not measured"), {
        install: [npm],
        works_with: ["claude-code", "mcp"],
        mcp_registry: { name: "io.github.acme/heavy", version: "1.0.0" },
      }),
      claudePlugin("acme/light", 10, context(60)),
      claudePlugin("acme/middle", 300, context(450)),
      claudePlugin("acme/partial", 900, context(5, false)),
      plugin("acme/plain", { stars: 1000, description: "a review helper" }),
    ]),
  );
});
afterAll(() => server.stop());

const ids = (body: { data: { items: Array<{ id: string }> } }) => body.data.items.map((p) => p.id);

describe("context cost in the API", () => {
  test("include=context adds each plugin's context, null when not measured", async () => {
    const one = await server.json("/api/v1/plugins/acme/middle?include=context");
    expect(one.data.plugin.context).toEqual(context(450));
    const list = await server.json("/api/v1/plugins?include=context&sort=stars");
    const plain = list.data.items.find((p: { id: string }) => p.id === "acme/plain");
    expect(plain.context).toBeNull();
    const without = await server.json("/api/v1/plugins/acme/middle");
    expect("context" in without.data.plugin).toBe(false);
  });

  test("sort=context is lightest first, then the unmeasured (files unread, MCP tools unseen) by stars", async () => {
    const body = await server.json("/api/v1/plugins?sort=context");
    expect(ids(body)).toEqual(["acme/light", "acme/middle", "acme/plain", "acme/partial", "acme/heavy"]);
    const searched = await server.json("/api/v1/plugins?sort=context&q=review");
    expect(ids(searched)).toEqual(ids(body));
  });

  test("context_max keeps the measured plugins at or under it, with or without a search", async () => {
    expect(ids(await server.json("/api/v1/plugins?context_max=500&sort=stars"))).toEqual(["acme/middle", "acme/light"]);
    expect(ids(await server.json("/api/v1/plugins?context_max=100&q=review"))).toEqual(["acme/light"]);
    // acme/heavy's skills fit, but its MCP tools are not measured: it is never under a maximum.
    expect(ids(await server.json("/api/v1/plugins?context_max=50000&sort=context"))).toEqual([
      "acme/light",
      "acme/middle",
    ]);
  });

  test("a context_max that is no allowed value is a 400 in the contract's shape", async () => {
    for (const bad of ["123", "-1", "lots", "100.0"]) {
      const response = await server.get(`/api/v1/plugins?context_max=${bad}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: number; message: string; data: null };
      expect(body.code).toBe(400);
      expect(body.message).toContain("context_max");
      expect(body.data).toBeNull();
    }
  });

  test("catalog.json carries every plugin's context", async () => {
    const body = await server.json("/market/v1/catalog.json");
    const byId = new Map(body.items.map((p: { id: string; context: unknown }) => [p.id, p.context]));
    expect(byId.get("acme/light")).toEqual(context(60));
    expect(byId.get("acme/plain")).toBeNull();
  });

  test("the MCP registry's catalog _meta carries the context", async () => {
    const body = await server.json("/v0.1/servers?limit=10");
    const entry = body.servers.find((s: { _meta: Record<string, { id?: string }> }) =>
      Object.values(s._meta).some((m) => m.id === "acme/heavy"),
    );
    const meta = Object.values(entry._meta as Record<string, { id?: string; context?: unknown }>).find(
      (m) => m.id === "acme/heavy",
    );
    expect(meta?.context).toEqual(context(4200, true, "not measured"));
  });

  test("the plugin page shows the always-on cost beside the install lines", async () => {
    const page = await (await server.get("/plugin/acme/middle")).text();
    expect(page).toContain("~450 tokens");
    const unmeasured = await (await server.get("/plugin/acme/partial")).text();
    expect(unmeasured).toContain("not measured");
  });
});

describe("context cost in the served Claude Code marketplace", () => {
  test("measured root plugins carry a context tag, and the real CLI validates it without an error", async () => {
    const text = await (await server.get("/market/claude/marketplace.json")).text();
    const doc = JSON.parse(text) as { plugins: Array<{ name: string; tags?: string[] }> };
    const tags = new Map(doc.plugins.map((p) => [p.name, p.tags]));
    expect(tags.get("light")).toEqual(["context-60-tokens"]);
    expect(tags.get("partial")).toBeUndefined();
    const modules = join(import.meta.dir, "../../node_modules/@anthropic-ai");
    const platform = join(modules, `claude-code-${process.platform}-${process.arch}`, "claude");
    const claude = existsSync(platform) ? platform : join(modules, "claude-code/bin/claude.exe");
    const root = mkdtempSync(join(tmpdir(), "context-market-"));
    try {
      mkdirSync(join(root, "m/.claude-plugin"), { recursive: true });
      writeFileSync(join(root, "m/.claude-plugin/marketplace.json"), text);
      const proc = Bun.spawn([claude, "plugin", "validate", "--strict", join(root, "m")], {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: root,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_TELEMETRY: "1",
          HTTPS_PROXY: "http://127.0.0.1:9",
          NO_COLOR: "1",
        },
        stdout: "pipe",
        stderr: "pipe",
      });
      const out = await new Response(proc.stdout).text();
      expect({ code: await proc.exited, out }).toMatchObject({ code: 0 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
