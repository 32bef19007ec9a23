import { afterEach, describe, expect, test } from "bun:test";
import { formatResult } from "../../src/refresh/report";
import { marketplaceManifest } from "../fakes/github-repos";
import { Env, published, record } from "./support";

let env: Env;
afterEach(() => env.stop());

const DAY = 86_400_000;
const NOW = new Date("2026-11-22T12:00:00.000Z");

/** `count` repositories with `topic`, created one every few hours back from mid-2026. */
function seed(count: number, topic: string, prefix: string): void {
  const start = Date.parse("2026-06-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const created = new Date(start - i * 7 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    env.github.add({
      full_name: `${prefix}/r${i}`,
      topics: [topic],
      created_at: created,
      pushed_at: "2026-09-01T00:00:00Z",
      stars: i % 50,
    });
  }
}

describe("discovery", () => {
  test("finds every match of a search that exceeds the 1,000-result cap by splitting it into created: windows", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    seed(2500, "mcp-server", "many");
    // More searches than a minute's budget allows; waiting for it is another test's subject.
    env.github.setRemaining("search", 1000);
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.total).toBe(2500);
    expect(report.summary!.added).toHaveLength(2500);
    const windows = env.github.queries.filter((q) => q.includes("created:"));
    expect(windows.length).toBeGreaterThan(3);
    expect(env.github.queries.every((q) => q.startsWith("topic:mcp-server created:"))).toBe(true);
    // Every candidate is fetched once, in GraphQL batches of 100 that also look for its evidence.
    expect(env.github.count("graphql")).toBe(25);
    expect(env.github.count("search 422")).toBe(0);
  });

  test("a later run asks only for repositories pushed since the last one, and finds the new one", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    seed(30, "mcp-server", "base");
    published(await env.refresh({ now: () => NOW }));
    env.github.queries.length = 0;
    env.github.add({
      full_name: "fresh/plugin",
      topics: ["mcp-server"],
      created_at: "2026-11-22T20:00:00Z",
      pushed_at: "2026-11-23T01:00:00Z",
    });
    const later = new Date(NOW.getTime() + DAY);
    const report = published(await env.refresh({ now: () => later }));
    expect(env.github.queries).toEqual([
      "topic:mcp-server pushed:>=2026-11-21T12:00:00Z created:2007-10-01T00:00:00Z..2026-11-23T12:00:00Z",
    ]);
    expect(report.summary!.added).toEqual(["fresh/plugin"]);
    expect(report.total).toBe(31);
  });

  test("runs in full again once fullEveryDays have passed", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }], fullEveryDays: 7 });
    seed(5, "mcp-server", "base");
    published(await env.refresh({ now: () => NOW }));
    env.github.queries.length = 0;
    published(await env.refresh({ now: () => new Date(NOW.getTime() + 8 * DAY) }));
    expect(env.github.queries).toHaveLength(1);
    expect(env.github.queries[0]).not.toContain("pushed:");
  });

  test("adds code-search hits and the explicit repositories; code search is skipped without a token", async () => {
    env = new Env({
      code: [{ query: "filename:marketplace.json path:.claude-plugin" }],
      repositories: ["listed/always"],
    });
    env.github.add(
      { full_name: "ships/marketplace", marketplace: true },
      { full_name: "listed/always" },
      { full_name: "not/found-anywhere" },
    );
    const anonymous = published(await env.refresh({ token: undefined, now: () => NOW }));
    expect(anonymous.summary!.added).toEqual(["listed/always"]);
    expect(env.github.count("code")).toBe(0);
    const withToken = published(await env.refresh({ now: () => new Date(NOW.getTime() + 1000) }));
    expect(withToken.summary!.added).toEqual(["ships/marketplace"]);
    expect(env.github.count("code")).toBe(1);
  });
});

const MARKETPLACE = ".claude-plugin/marketplace.json";
const CODE_RULE = "filename:marketplace.json path:.claude-plugin";

/** A marketplace manifest `padding` bytes longer than the bare one, so sizes spread as real ones do. */
function manifest(name: string, padding: number): string {
  return marketplaceManifest(name, ["./"]) + " ".repeat(padding);
}

describe("code search past the cap", () => {
  test("is split by size: ranges until every slice fits, and finds every match", async () => {
    env = new Env({ code: [{ query: CODE_RULE }] });
    for (let i = 0; i < 2300; i++)
      env.github.add({ full_name: `mk/m${i}`, files: { [MARKETPLACE]: manifest(`m${i}`, i % 3000) } });
    env.github.setRemaining("code_search", 1000);
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.total).toBe(2300);
    const sized = env.github.queries.filter((q) => /size:\d+\.\.\d+/.test(q));
    expect(sized.length).toBeGreaterThan(2);
    expect(env.github.count("code 422")).toBe(0);
    expect(report.discovery!.capped).toEqual([]);
    expect(report.discovery!.rules).toEqual([{ rule: `code ${CODE_RULE}`, found: 2300, new: 2300, rejected: 0 }]);
  });

  test("a slice that cannot be split further is logged with its count and shown in the summary", async () => {
    env = new Env({ code: [{ query: CODE_RULE }] });
    // Every manifest the same length: no size range separates them.
    for (let i = 0; i < 1200; i++)
      env.github.add({
        full_name: `same/m${String(i).padStart(4, "0")}`,
        files: { [MARKETPLACE]: manifest("same", 0) },
      });
    env.github.setRemaining("code_search", 1000);
    const events: Array<[string, Record<string, unknown>]> = [];
    const report = published(await env.refresh({ now: () => NOW, log: (e, f) => events.push([e, f]) }));
    const size = Buffer.byteLength(manifest("same", 0));
    const slice = { rule: `code ${CODE_RULE}`, query: `${CODE_RULE} size:${size}..${size}`, count: 1200 };
    expect(report.discovery!.capped).toEqual([slice]);
    expect(events).toContainEqual(["refresh.search_capped", slice]);
    expect(report.total).toBe(1000);
    expect(formatResult({ status: "published", report })).toContain(
      `  capped at 1,000 of 1200 (cannot split further): ${slice.query}`,
    );
  });
});

describe("listings", () => {
  test("marketplace manifests are followed to the repositories they list, named or found by code search", async () => {
    env = new Env({ code: [{ query: CODE_RULE }], marketplaces: [{ repository: "official/market" }] });
    env.github.add(
      {
        full_name: "official/market",
        files: {
          [MARKETPLACE]: marketplaceManifest("official", [
            "./local",
            { source: "github", repo: "alice/linter" },
            { source: "url", url: "https://github.com/bob/formatter.git" },
          ]),
        },
      },
      {
        full_name: "found/market",
        files: {
          [MARKETPLACE]: marketplaceManifest("found", [
            { source: "github", repo: "found/own-plugin" },
            { source: "github", repo: "carol/reviewer" },
            { source: "github", repo: "mallory/popular-library" },
            { source: "github", repo: "evil/../../etc" },
          ]),
        },
      },
      {
        full_name: "carol/reviewer",
        files: { [MARKETPLACE]: marketplaceManifest("carol", [{ source: "github", repo: "carol/deep" }]) },
      },
      { full_name: "alice/linter" },
      { full_name: "bob/formatter" },
      { full_name: "found/own-plugin" },
      { full_name: "carol/deep" },
      { full_name: "mallory/popular-library" },
    );
    const report = published(await env.refresh({ now: () => NOW }));
    // A marketplace the editors name vouches for all it lists; one found by search only for its own
    // owner's repositories, so a manifest listing others' projects cannot make them plugins.
    expect(report.summary!.added.sort()).toEqual([
      "alice/linter",
      "bob/formatter",
      "carol/deep",
      "carol/reviewer",
      "found/market",
      "found/own-plugin",
      "official/market",
    ]);
    expect(report.discovery!.rejected).toEqual(["mallory/popular-library"]);
    expect(report.discovery!.rules).toContainEqual({
      rule: "marketplace official/market",
      found: 3,
      new: 3,
      rejected: 0,
    });
    expect(report.discovery!.rules).toContainEqual({
      rule: "followed marketplace manifests",
      found: 4,
      new: 4,
      rejected: 1,
    });
    expect(report.gate.leftOut.get("manifest of found/market: not a repository name")).toBe(1);
  });

  test("a curated list's links are read through the contents API and count as evidence", async () => {
    env = new Env({ lists: [{ repository: "someone/awesome-plugins", path: "README.md" }] });
    const readme =
      "# Awesome\n- [Linter](https://github.com/alice/linter) - lints\n- [Sponsor](https://github.com/sponsors/alice)\n" +
      "- [Docs](https://github.com/bob/formatter/blob/main/README.md)\n- [Self](https://github.com/someone/awesome-plugins)\n";
    env.github.add(
      { full_name: "someone/awesome-plugins", files: { "README.md": readme } },
      { full_name: "alice/linter" },
      { full_name: "bob/formatter" },
    );
    // Without a token each listed newcomer would cost a call of its own at 60 an hour: lists wait for one.
    const anonymous = published(await env.refresh({ token: undefined, now: () => NOW }));
    expect(anonymous.summary!.added).toEqual([]);
    expect(env.github.count("contents")).toBe(0);
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.summary!.added.sort()).toEqual(["alice/linter", "bob/formatter"]);
    expect(env.github.count("contents 200")).toBe(1);
  });
});

describe("evidence", () => {
  test("a candidate a keyword search found is published only with evidence; the summary counts the rejected", async () => {
    env = new Env({ searches: [{ query: '"claude code" in:name,description' }] });
    env.github.add(
      { full_name: "a/plugin", description: "A Claude Code plugin", files: { ".claude-plugin/plugin.json": "{}" } },
      { full_name: "b/skill", description: "Claude Code skill", files: { "SKILL.md": "---\nname: b\n---" } },
      { full_name: "c/topic", description: "Claude Code helper", topics: ["claude-code-plugin"] },
      {
        full_name: "d/mcp",
        description: "Claude Code MCP server",
        files: {
          "server.json": '{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json"}',
        },
      },
      { full_name: "x/notes", description: "My notes from a Claude Code workshop" },
      { full_name: "x/game-server", description: "Claude Code the game", files: { "server.json": '{"port": 25565}' } },
      {
        full_name: "x/wrong-path",
        description: "Claude Code, but the manifest is elsewhere",
        files: { "plugin.json": "{}" },
      },
      { full_name: "x/claudecode", description: "claudecode is one word here, no phrase" },
    );
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.summary!.added.sort()).toEqual(["a/plugin", "b/skill", "c/topic", "d/mcp"]);
    expect(report.discovery!.rules).toEqual([
      { rule: 'search "claude code" in:name,description', found: 7, new: 7, rejected: 3 },
    ]);
    expect(report.discovery!.rejected.sort()).toEqual(["x/game-server", "x/notes", "x/wrong-path"]);
    // The evidence was looked up inside the fetch's one GraphQL query, not with calls of its own.
    expect(env.github.count("graphql")).toBe(1);
    expect(env.github.count("contents")).toBe(0);
  });

  test("a published plugin needs no evidence to stay; an editors' override is evidence for a newcomer", async () => {
    env = new Env({
      searches: [{ query: '"claude code" in:name,description' }],
      overrides: { "e/edited": { category: "other" } },
    });
    env.github.add(
      { full_name: "k/known", description: "Claude Code thing" },
      { full_name: "e/edited", description: "Claude Code thing" },
    );
    env.publish([record("k/known")]);
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.summary!.added).toEqual(["e/edited"]);
    expect(report.summary!.removed).toEqual([]);
  });
});

describe("pacing", () => {
  test("never exceeds a resource's budget: it waits for the reset the platform reports, and only then", async () => {
    env = new Env({ code: [{ query: CODE_RULE }] }, { limits: { code_search: 4 }, windows: { code_search: 1 } });
    for (let i = 0; i < 1100; i++)
      env.github.add({ full_name: `mk/m${i}`, files: { [MARKETPLACE]: manifest(`m${i}`, i) } });
    const report = published(await env.refresh({ now: () => NOW, maxWaitSeconds: 10 }));
    expect(report.total).toBe(1100);
    expect(env.github.count("code")).toBeGreaterThan(8);
    expect(env.github.count("code 403")).toBe(0);
    expect(env.github.count("code 200")).toBe(env.github.count("code"));
    expect(report.usage.waits.length).toBeGreaterThan(0);
    expect(report.usage.waits.every((w) => w.reason === "rate-limit" && w.url === "code_search")).toBe(true);
    // The other budgets were not waited for: 11 batches of 100, and no follow-up: each marketplace's
    // one plugin is the repository's root, whose files the batch itself read.
    expect(env.github.count("graphql 200")).toBe(11);
  }, 30_000);
});

describe("pacing requests in flight together", () => {
  test("eight REST fetches at once never take more of the core budget than is left", async () => {
    env = new Env({}, { limits: { core: 5 }, windows: { core: 1 } });
    for (let i = 0; i < 23; i++) env.github.add({ full_name: `org/repo-${i}` });
    env.publishFake();
    const report = published(await env.refresh({ token: undefined, maxWaitSeconds: 10 }));
    expect(report.total).toBe(23);
    expect(env.github.count("repos 403")).toBe(0);
    expect(env.github.count("repos 200")).toBe(23);
    expect(report.usage.waits.length).toBeGreaterThan(2);
  }, 30_000);
});
