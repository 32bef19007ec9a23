/**
 * The official MCP registry as a discovery source, against a fake registry on 127.0.0.1: servers
 * on no list and matched by no search are found; only a server whose publisher the registry proved
 * owns the repository is evidence; later runs ask only for what changed; every hostile answer
 * leaves discovery as it is without the registry.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Log } from "../../src/base/log";
import type { DiscoveryState } from "../../src/refresh/discover/discover";
import { ruleKey } from "../../src/refresh/discover/discovery-rules";
import type { McpRegistryOptions } from "../../src/refresh/discover/mcp-registry-source";
import { FakeMcpRegistry, type RegistryMode } from "../fakes/mcp-registry";
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

/** Servers nothing else finds: no topic, on no list, not matching the search; each ships its server.json. */
const HIDDEN = ["solo/weather-mcp", "Team-X/db-bridge", "one/two"];
/** A server.json of the registry's schema: the evidence a server's own repository gives. */
const SERVER_JSON = {
  "server.json": '{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"}',
};

function world(): { env: Env; registry: FakeMcpRegistry } {
  env = new Env({ searches: [{ query: "topic:mcp-server" }] });
  registry = new FakeMcpRegistry();
  env.github.add({ full_name: "known/searched", topics: ["mcp-server"] });
  for (const id of HIDDEN) env.github.add({ full_name: id, description: "tools", files: SERVER_JSON });
  // Published in its owner's own namespace, proven, but nothing in the repository says MCP: a lead, not evidence.
  env.github.add({ full_name: "spam/lookalike-mcp", description: "tools" });
  // Pointed at by a name whose owner is someone else: the registry proved nothing about it.
  env.github.add({ full_name: "victim/repo", description: "not an MCP server" });
  // A reverse-DNS name: a candidate whose own server.json is its evidence.
  env.github.add({
    full_name: "corp/gateway",
    files: SERVER_JSON,
  });
  env.github.add({ full_name: "gone/deleted-one", description: "deleted from the registry" });
  const at = "2026-11-01T10:00:00.000Z";
  registry.add(
    ...HIDDEN.map((id) => ({
      name: `io.github.${id.toLowerCase()}`,
      repository: `https://github.com/${id}`,
      updatedAt: at,
    })),
    { name: "io.github.mallory/claims", repository: "https://github.com/victim/repo", updatedAt: at },
    { name: "io.github.spam/lookalike-mcp", repository: "https://github.com/spam/lookalike-mcp", updatedAt: at },
    { name: "com.corp/gateway", repository: "https://github.com/corp/gateway.git", updatedAt: at },
    {
      name: "io.github.gone/deleted-one",
      repository: "https://github.com/gone/deleted-one",
      updatedAt: at,
      status: "deleted",
    },
    {
      name: "io.github.lab/elsewhere",
      repository: "https://gitlab.com/lab/elsewhere",
      source: "gitlab",
      updatedAt: at,
    },
    { name: "io.github.bad/entry", repository: "https://github.com/bad/en try", updatedAt: at },
    { name: "no-slash-name", repository: "https://github.com/x/y", updatedAt: at },
  );
  return { env, registry };
}

function source(r: FakeMcpRegistry, limits: Partial<McpRegistryOptions["limits"]> = {}): McpRegistryOptions {
  return { url: r.url, limits: { maxRequests: 50, timeoutMs: 1000, budgetMs: 5000, ...limits } };
}

function savedState(e: Env): DiscoveryState {
  return JSON.parse(readFileSync(`${e.databasePath}-discovery.json`, "utf8")) as DiscoveryState;
}

function writeState(e: Env, state: DiscoveryState): void {
  writeFileSync(`${e.databasePath}-discovery.json`, JSON.stringify(state));
}

function recorder(): { log: Log; events: string[] } {
  const events: string[] = [];
  return { events, log: (event) => events.push(event) };
}

describe("the MCP registry as a discovery source", () => {
  test("recall rises: servers on no list and matched by no search are found on their own evidence, never on the listing alone", async () => {
    const w = world();
    const without = published(await w.env.refresh({ now: () => NOW }));
    expect(without.summary!.added).toEqual(["known/searched"]);
    // A fresh database, the same world, the registry on.
    const databasePath = join(w.env.dir, "with-registry.sqlite");
    const report = published(await w.env.refresh({ databasePath, mcpRegistry: source(w.registry), now: () => NOW }));
    expect([...report.summary!.added].sort()).toEqual(["corp/gateway", "known/searched", ...HIDDEN].sort());
    const key = ruleKey.registry(w.registry.url);
    const rule = report.discovery!.rules.find((r) => r.rule === key)!;
    // The hidden three, the proven look-alike, the two reverse-DNS or foreign names; deleted, non-GitHub and malformed entries are no candidates.
    expect(rule.found).toBe(6);
    expect(report.discovery!.reasons["victim/repo"]).toBe("no_evidence");
    // A registry listing is a lead: proven or not, a repository with no evidence of its own is left out.
    expect(report.discovery!.reasons["spam/lookalike-mcp"]).toBe("no_evidence");
    expect(w.registry.asked[0]!.get("version")).toBe("latest");
    expect(w.registry.asked[0]!.has("updated_since")).toBe(false);
  });

  test("pages by cursor, then a later run asks only for what changed since the newest updatedAt it read", async () => {
    const w = world();
    for (let i = 0; i < 130; i++) {
      w.env.github.add({ full_name: `bulk/s${i}`, files: SERVER_JSON });
      w.registry.add({
        name: `io.github.bulk/s${i}`,
        repository: `https://github.com/bulk/s${i}`,
        updatedAt: `2026-11-0${1 + (i % 5)}T00:00:00.000Z`,
      });
    }
    const first = published(await w.env.refresh({ mcpRegistry: source(w.registry), now: () => NOW }));
    expect(first.summary!.added.filter((id) => id.startsWith("bulk/"))).toHaveLength(130);
    expect(w.registry.asked).toHaveLength(2);
    expect(w.registry.asked[1]!.get("cursor")).toBeTruthy();
    const key = ruleKey.registry(w.registry.url);
    expect(savedState(w.env).rules[key]!.since).toBe("2026-11-05T00:00:00.000Z");

    w.env.github.add({ full_name: "fresh/server", files: SERVER_JSON });
    w.registry.add({
      name: "io.github.fresh/server",
      repository: "https://github.com/fresh/server",
      updatedAt: "2026-11-23T08:00:00.000Z",
    });
    const second = published(await w.env.refresh({ mcpRegistry: source(w.registry), now: () => LATER }));
    expect(second.summary!.added).toEqual(["fresh/server"]);
    expect(w.registry.asked).toHaveLength(3);
    expect(w.registry.asked[2]!.get("updated_since")).toBe("2026-11-05T00:00:00.000Z");
    expect(savedState(w.env).rules[key]!.since).toBe("2026-11-23T08:00:00.000Z");
  });

  test("an entry dated ahead of the run is read as now: the next run still sees what changed after it", async () => {
    const w = world();
    w.env.github.add({ full_name: "ahead/server", files: SERVER_JSON });
    w.registry.add({
      name: "io.github.ahead/server",
      repository: "https://github.com/ahead/server",
      updatedAt: "2099-01-01T00:00:00.000Z",
    });
    await w.env.refresh({ mcpRegistry: source(w.registry), now: () => NOW });
    const key = ruleKey.registry(w.registry.url);
    expect(savedState(w.env).rules[key]!.since).toBe(NOW.toISOString());

    w.env.github.add({ full_name: "fresh/server", files: SERVER_JSON });
    w.registry.add({
      name: "io.github.fresh/server",
      repository: "https://github.com/fresh/server",
      updatedAt: "2026-11-23T08:00:00.000Z",
    });
    const second = published(await w.env.refresh({ mcpRegistry: source(w.registry), now: () => LATER }));
    expect(w.registry.asked.at(-1)!.get("updated_since")).toBe(NOW.toISOString());
    expect(second.summary!.added).toEqual(["fresh/server"]);
  });

  test("a saved mark ahead of the run is not used: the registry is read whole", async () => {
    const w = world();
    w.env.github.add({ full_name: "one/server", files: SERVER_JSON });
    w.registry.add({
      name: "io.github.one/server",
      repository: "https://github.com/one/server",
      updatedAt: "2026-11-01T00:00:00.000Z",
    });
    await w.env.refresh({ mcpRegistry: source(w.registry), now: () => NOW });
    const key = ruleKey.registry(w.registry.url);
    const state = savedState(w.env);
    state.rules[key]!.since = "2099-01-01T00:00:00.000Z";
    writeState(w.env, state);
    await w.env.refresh({ mcpRegistry: source(w.registry), now: () => LATER });
    expect(w.registry.asked.at(-1)!.has("updated_since")).toBe(false);
  });

  test("a read the page budget cuts keeps what it read, is reported, and keeps the old mark", async () => {
    const w = world();
    for (let i = 0; i < 120; i++) {
      w.env.github.add({ full_name: `bulk/s${i}`, files: SERVER_JSON });
      w.registry.add({
        name: `io.github.bulk/s${i}`,
        repository: `https://github.com/bulk/s${i}`,
        updatedAt: "2026-11-02T00:00:00.000Z",
      });
    }
    const report = published(
      await w.env.refresh({ mcpRegistry: source(w.registry, { maxRequests: 1 }), now: () => NOW }),
    );
    // The first page's 100 entries in name order: two others, then 98 of the 120.
    expect(report.summary!.added.filter((id) => id.startsWith("bulk/")).length).toBe(98);
    const key = ruleKey.registry(w.registry.url);
    expect(report.discovery!.truncated).toContainEqual({ rule: key, cap: "calls", size: 2, kept: 1 });
    expect(savedState(w.env).rules[key]).toBeUndefined();
  });

  test("a mark in the state file that is no UTC timestamp is not sent: the run reads everything", async () => {
    const w = world();
    published(await w.env.refresh({ mcpRegistry: source(w.registry), now: () => NOW }));
    const key = ruleKey.registry(w.registry.url);
    const state = savedState(w.env);
    state.rules[key]!.since = "2026-11-01&cursor=x";
    writeFileSync(`${w.env.databasePath}-discovery.json`, JSON.stringify(state));
    published(await w.env.refresh({ mcpRegistry: source(w.registry), now: () => LATER }));
    expect(w.registry.asked).toHaveLength(2);
    expect(w.registry.asked[1]!.has("updated_since")).toBe(false);
    expect(savedState(w.env).rules[key]!.since).toBe("2026-11-01T10:00:00.000Z");
  });

  test("without a token the registry is not asked, like the lists: each newcomer would cost a call of its own", async () => {
    const w = world();
    const { log, events } = recorder();
    published(await w.env.refresh({ token: undefined, mcpRegistry: source(w.registry), now: () => NOW, log }));
    expect(w.registry.asked).toHaveLength(0);
    expect(events).toContain("refresh.registry_skipped");
  });

  const hostile: RegistryMode[] = ["down", "hang", "malformed", "huge", "loop", "wrong-shape"];
  test.each(hostile)("a registry answering %s leaves discovery as it is without it", async (mode) => {
    const w = world();
    w.registry.mode = mode;
    const { log, events } = recorder();
    const report = published(
      await w.env.refresh({ mcpRegistry: source(w.registry, { timeoutMs: 300 }), now: () => NOW, log }),
    );
    expect(report.summary!.added).toEqual(["known/searched"]);
    expect(events).toContain("refresh.registry_unavailable");
    expect(savedState(w.env).rules[ruleKey.registry(w.registry.url)]).toBeUndefined();
  });
});
