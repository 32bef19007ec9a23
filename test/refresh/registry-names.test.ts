/**
 * Names in /v0.1/servers: a domain namespace (`com.stripe/mcp`) is kept only for the repository
 * the official MCP registry (a fake on 127.0.0.1) lists under that name with its URL, since the
 * registry verified the domain for its publisher; a stranger's server.json claiming the same name
 * is served under the operator's own namespace. A later run, which reads only what changed, keeps the mark.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { McpRegistryOptions } from "../../src/refresh/discover/mcp-registry-source";
import { FakeMcpRegistry } from "../fakes/mcp-registry";
import { Env, published } from "./support";

let env: Env | undefined;
let registry: FakeMcpRegistry | undefined;
afterEach(async () => {
  registry?.stop();
  await env?.stop();
  env = registry = undefined;
});

const NOW = new Date("2026-11-22T12:00:00.000Z");
const LATER = new Date("2026-11-23T12:00:00.000Z");

/** A server.json of `name` with one https remote: an installable MCP server. */
const serverJson = (name: string, id: string) =>
  JSON.stringify({
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name,
    description: "Payments tools",
    version: "1.0.0",
    repository: { url: `https://github.com/${id}`, source: "github" },
    remotes: [{ type: "streamable-http", url: `https://mcp.example.com/${id.replace("/", "-")}` }],
  });

function source(r: FakeMcpRegistry): McpRegistryOptions {
  return { url: r.url, limits: { maxRequests: 50, timeoutMs: 1000, budgetMs: 5000 } };
}

async function names(url: string): Promise<Record<string, string>> {
  const body = (await (await fetch(`${url}/v0.1/servers?limit=100`)).json()) as {
    servers: Array<{ server: { name: string; repository?: { url: string } } }>;
  };
  return Object.fromEntries(body.servers.map((s) => [s.server.repository?.url ?? "?", s.server.name]));
}

describe("a domain namespace in /v0.1/servers", () => {
  test("kept for the repository the registry lists under it; a stranger claiming it is named in the operator's", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    registry = new FakeMcpRegistry();
    for (const id of ["stripe/agent-toolkit", "stranger/fake-stripe"])
      env.github.add({
        full_name: id,
        topics: ["mcp-server"],
        files: { "server.json": serverJson("com.stripe/mcp", id) },
      });
    env.github.add({
      full_name: "acme/own",
      topics: ["mcp-server"],
      files: { "server.json": serverJson("io.github.acme/own", "acme/own") },
    });
    registry.add({
      name: "com.stripe/mcp",
      repository: "https://github.com/stripe/agent-toolkit",
      updatedAt: "2026-11-01T10:00:00.000Z",
    });
    published(await env.refresh({ mcpRegistry: source(registry), now: () => NOW }));
    const expected = {
      "https://github.com/stripe/agent-toolkit": "com.stripe/mcp",
      "https://github.com/stranger/fake-stripe": "test.catalog/stranger-fake-stripe",
      "https://github.com/acme/own": "io.github.acme/own",
    };
    expect(await names(env.serve().url)).toEqual(expected);

    // The next run reads only what changed since (nothing): the mark the registry gave stays.
    // The repository changed, so it is read again: its mark comes from the previous snapshot.
    env.github.repos.update("stripe/agent-toolkit", {
      pushed_at: "2026-11-23T00:00:00Z",
      files: { "server.json": serverJson("com.stripe/mcp", "stripe/agent-toolkit").replace("Payments", "Billing") },
    });
    published(await env.refresh({ mcpRegistry: source(registry), now: () => LATER }));
    expect(registry.asked.at(-1)?.get("updated_since")).not.toBeNull();
    expect(await names(env.serve().url)).toEqual(expected);
  });
});
