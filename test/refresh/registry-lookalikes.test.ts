/**
 * The official MCP registry's spam, held: entries in their publishers' own `io.github.<owner>`
 * namespaces naming look-alike repositories (MCP words in the name, description, README and
 * topics, a game server's server.json, the SDK as a devDependency) publish none of them, more of
 * them than a listing may vouch for or not; a repository the registry names is published on the
 * evidence in it (a server.json of the registry's schema, an SDK dependency). The eval's world
 * (`bun run discovery:eval`) measures the same at the plugin space's scale.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { ruleKey } from "../../src/refresh/discover/discovery-rules";
import { VOUCH_CAP } from "../../src/refresh/discover/source-caps";
import { FakeMcpRegistry } from "../fakes/mcp-registry";
import { ownEntry, registryWorld } from "../fakes/registry-spam";
import { Env, published } from "./support";

let env: Env | undefined;
let registry: FakeMcpRegistry | undefined;
afterEach(async () => {
  registry?.stop();
  await env?.stop();
  env = registry = undefined;
});

const NOW = new Date("2026-11-22T12:00:00.000Z");
/** More look-alikes than a listing may vouch for: a listing taken as evidence would publish some. */
const SPAM = VOUCH_CAP + 5;
const SERVERS = ["solo/weather-mcp", "Team-X/db-bridge"];
const SERVER_JSON = JSON.stringify({
  $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  name: "io.github.solo/weather-mcp",
  packages: [{ registryType: "npm", identifier: "@solo/weather-mcp" }],
});

describe("look-alikes the MCP registry names", () => {
  test("a registry listing alone publishes no look-alike; a listed repository with its own server.json or SDK dependency is published", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    registry = new FakeMcpRegistry();
    for (const id of SERVERS)
      env.github.add({ full_name: id, description: "tools", files: { "server.json": SERVER_JSON } });
    // On no list, matched by no search, no server.json: its SDK dependency is its evidence.
    env.github.add({
      full_name: "quiet/sdk-server",
      description: "tools",
      files: {
        "package.json": JSON.stringify({ name: "s", dependencies: { "@modelcontextprotocol/sdk": "^1.12.0" } }),
      },
    });
    const world = registryWorld(env.github, SERVERS, SPAM);
    registry.add(...world.entries, ownEntry("quiet/sdk-server"));
    expect(world.listedReal.size).toBe(SERVERS.length);

    const report = published(
      await env.refresh({
        mcpRegistry: { url: registry.url, limits: { maxRequests: 20, timeoutMs: 2000, budgetMs: 10_000 } },
        now: () => NOW,
      }),
    );
    const added = new Set(report.summary!.added.map((id) => id.toLowerCase()));
    expect([...world.spam].filter((id) => added.has(id))).toEqual([]);
    for (const id of world.spam) expect(report.discovery!.reasons[id]).toBe("no_evidence");
    expect([...added].sort()).toEqual(["quiet/sdk-server", ...SERVERS.map((id) => id.toLowerCase())].sort());
    const rule = report.discovery!.rules.find((r) => r.rule === ruleKey.registry(registry!.url))!;
    expect(rule).toMatchObject({ found: SPAM + SERVERS.length + 1, rejected: SPAM });
  });
});

describe("an evidence topic on a repository only the registry names", () => {
  test("is no evidence: the entry and the topic are both a stranger's word; the same topic on a searched repository stays evidence", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-tools" }] });
    registry = new FakeMcpRegistry();
    env.github.add({
      full_name: "spammer/github-mcp-server",
      description: "GitHub MCP server",
      topics: ["mcp-server"],
    });
    env.github.add({ full_name: "found/kit", description: "tools", topics: ["mcp-server", "mcp-tools"] });
    registry.add(ownEntry("spammer/github-mcp-server"));

    const report = published(
      await env.refresh({
        mcpRegistry: { url: registry.url, limits: { maxRequests: 20, timeoutMs: 2000, budgetMs: 10_000 } },
        now: () => NOW,
      }),
    );
    const added = report.summary!.added.map((id) => id.toLowerCase());
    expect(added).toEqual(["found/kit"]);
    expect(report.discovery!.reasons["spammer/github-mcp-server"]).toBe("no_evidence");
  });
});
