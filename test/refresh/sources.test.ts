import { afterEach, describe, expect, test } from "bun:test";
import type { Log } from "../../src/base/log";
import { FOLLOWED_MAX_CANDIDATES, REJECTION, VOUCH_CAP } from "../../src/refresh/discover/source-caps";
import { formatResult } from "../../src/refresh/report";
import { marketplaceManifest } from "../fakes/github-repos";
import { Env, published, record } from "./support";

let env: Env | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

const NOW = new Date("2026-11-22T12:00:00.000Z");
const MARKETPLACE = ".claude-plugin/marketplace.json";
const CODE_RULE = "filename:marketplace.json path:.claude-plugin";

/** A log that keeps its events, to read what a run said. */
function recorder(): { log: Log; events: Array<{ event: string } & Record<string, unknown>> } {
  const events: Array<{ event: string } & Record<string, unknown>> = [];
  return { events, log: (event, fields = {}) => events.push({ event, ...fields }) };
}

/** `count` repositories named `<owner>/<prefix><i>` without topics, plugin files or anything else that is evidence. */
function bare(e: Env, owner: string, count: number, prefix = "r"): string[] {
  const ids = Array.from({ length: count }, (_, i) => `${owner}/${prefix}${i}`);
  for (const id of ids) e.github.add({ full_name: id, description: "Buy cheap followers" });
  return ids;
}

/** A published catalog of `count` refreshed plugins (they carry repository ids). */
function established(e: Env, count: number): void {
  for (let i = 0; i < count; i++) e.github.add({ full_name: `known/p${i}`, topics: ["mcp-server"] });
  e.publishFake();
}

describe("what a source may vouch for", () => {
  test("a same-owner marketplace found by search vouches for at most 20 evidence-less repositories; the rest are left out as over_vouch_cap", async () => {
    env = new Env({ code: [{ query: CODE_RULE }] });
    established(env, 50);
    const ids = bare(env, "spam", 300);
    env.github.add({
      full_name: "spam/market",
      topics: ["claude-code-plugin"],
      files: {
        [MARKETPLACE]: marketplaceManifest(
          "spam",
          ids.map((repo) => ({ source: "github", repo })),
        ),
      },
    });
    const report = published(await env.refresh({ now: () => NOW }));
    const added = report.summary!.added;
    expect(added).toContain("spam/market");
    expect(added.filter((id) => id.startsWith("spam/r"))).toHaveLength(VOUCH_CAP);
    expect(report.total).toBe(50 + 1 + VOUCH_CAP);
    const reasons = Object.values(report.discovery!.reasons);
    expect(reasons.filter((r) => r === REJECTION.overVouchCap)).toHaveLength(300 - VOUCH_CAP);
    expect(formatResult({ status: "published", report }).join("\n")).toContain(
      `left out over_vouch_cap ${300 - VOUCH_CAP}`,
    );
  });

  test("the editors may let a source they named vouch for more (vouches in discovery.json)", async () => {
    env = new Env({ marketplaces: [{ repository: "team/market", vouches: 40 }] });
    const ids = bare(env, "team", 30);
    env.github.add({
      full_name: "team/market",
      files: {
        [MARKETPLACE]: marketplaceManifest(
          "team",
          ids.map((repo) => ({ source: "github", repo })),
        ),
      },
    });
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.summary!.added).toHaveLength(31);
  });

  test("a run that would more than double the catalog publishes the known plugins and holds its newcomers for review", async () => {
    env = new Env({ lists: [{ repository: "big/list", path: "README.md", vouches: 1000 }] });
    established(env, 10);
    const ids = bare(env, "many", 25);
    env.github.add({
      full_name: "big/list",
      files: { "README.md": ids.map((id) => `- https://github.com/${id}`).join("\n") },
    });
    env.github.repos.update("known/p0", { stars: 999 });
    const { log, events } = recorder();
    const report = published(await env.refresh({ now: () => NOW, log }));
    expect(report.total).toBe(10);
    expect(report.held).toHaveLength(25);
    expect(report.summary!.added).toEqual([]);
    expect(report.summary!.changed).toBe(1);
    expect(Object.values(report.discovery!.reasons)).toEqual(Array(25).fill(REJECTION.heldForReview));
    expect(events.find((e) => e.event === "refresh.growth_held")).toMatchObject({
      previous: 10,
      newcomers: 25,
      maxGrowth: 1,
    });
    expect(formatResult({ status: "published", report }).join("\n")).toContain("held for review 25 newcomers");
    // Raised for one run, the same newcomers are published: the held run left discovery to find them again.
    const accepted = published(await env.refresh({ now: () => NOW, maxGrowth: 3 }));
    expect(accepted.summary!.added).toHaveLength(25);
  });

  test("the first refresh of a catalog never refreshed (the embedded default) may grow it freely", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    env.github.add({ full_name: "default/one", topics: ["mcp-server"] });
    // The embedded default's records carry no repository id.
    env.publish([record("default/one")]);
    for (let i = 0; i < 30; i++) env.github.add({ full_name: `new/p${i}`, topics: ["mcp-server"] });
    const report = published(await env.refresh({ now: () => NOW }));
    expect(report.held).toEqual([]);
    expect(report.total).toBe(31);
  });
});

describe("budgets per source", () => {
  test("a manifest listing 30,000 foreign repositories adds at most its cap, spends at most its calls, and the rest of the catalog publishes", async () => {
    env = new Env({ code: [{ query: CODE_RULE }], searches: [{ query: "topic:mcp-server" }] });
    established(env, 20);
    const huge = Array.from({ length: 30_000 }, (_, i) => ({ source: "github", repo: `stranger${i % 97}/tool-${i}` }));
    env.github.add({
      full_name: "greedy/market",
      topics: ["mcp-server"],
      files: { [MARKETPLACE]: marketplaceManifest("greedy", huge) },
    });
    env.github.add({ full_name: "fresh/plugin", topics: ["mcp-server"] });
    const { log, events } = recorder();
    const report = published(await env.refresh({ now: () => NOW, log }));
    // One query for the 22 known and found repositories, then the manifest's capped share: 100 per query.
    expect(env.github.count("graphql")).toBe(1 + FOLLOWED_MAX_CANDIDATES / 100);
    expect(report.summary!.added.sort()).toEqual(["fresh/plugin", "greedy/market"]);
    expect(report.discovery!.truncated).toContainEqual({
      rule: "followed greedy/market",
      cap: "candidates",
      size: 30_000,
      kept: FOLLOWED_MAX_CANDIDATES,
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        event: "refresh.source_truncated",
        rule: "followed greedy/market",
        candidates: 30_000,
      }),
    );
    const over = Object.values(report.discovery!.reasons).filter((r) => r === REJECTION.overSourceCap);
    expect(over).toHaveLength(30_000 - FOLLOWED_MAX_CANDIDATES);
  });

  test("a named list adds at most its candidate cap per run; the rest are over_source_cap and the truncation is in the summary", async () => {
    env = new Env({ lists: [{ repository: "some/list", path: "README.md", vouches: 100 }] });
    const ids = bare(env, "listed", 30);
    env.github.add({
      full_name: "some/list",
      files: { "README.md": ids.map((id) => `- https://github.com/${id}`).join("\n") },
    });
    const report = published(await env.refresh({ now: () => NOW, sourceLimits: { maxCandidates: 12 } }));
    expect(report.total).toBe(12);
    expect(report.discovery!.truncated).toEqual([
      { rule: "list some/list/README.md", cap: "candidates", size: 30, kept: 12 },
    ]);
    expect(Object.values(report.discovery!.reasons)).toEqual(Array(18).fill(REJECTION.overSourceCap));
    expect(formatResult({ status: "published", report }).join("\n")).toContain(
      "truncated at its candidates cap: list some/list/README.md: kept 12 of 30 candidates",
    );
  });

  test("a search rule spends at most its call cap; the cut is logged and counted", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }, { query: "topic:agent-skills" }] });
    for (let i = 0; i < 250; i++) env.github.add({ full_name: `wide/m${i}`, topics: ["mcp-server"] });
    env.github.add({ full_name: "skills/one", topics: ["agent-skills"] });
    const { log, events } = recorder();
    const report = published(await env.refresh({ now: () => NOW, log, sourceLimits: { maxCalls: 2 } }));
    expect(report.discovery!.truncated).toContainEqual({
      rule: "search topic:mcp-server",
      cap: "calls",
      size: 3,
      kept: 2,
    });
    expect(events).toContainEqual(
      expect.objectContaining({ event: "refresh.source_truncated", cap: "calls", calls: 2 }),
    );
    expect(report.total).toBe(201);
    expect(report.summary!.added).toContain("skills/one");
  });

  test("a list past the contents API's 1 MB is read as the raw media type; past the byte cap it is cut, logged with its name and size", async () => {
    env = new Env({ lists: [{ repository: "huge/list", path: "README.md" }] });
    const filler = `${"x".repeat(99)}\n`.repeat(12_000);
    const readme = `- https://github.com/first/plugin\n${filler}- https://github.com/last/plugin\n`;
    env.github.add(
      { full_name: "huge/list", files: { "README.md": readme } },
      { full_name: "first/plugin" },
      { full_name: "last/plugin" },
    );
    const size = Buffer.byteLength(readme);
    expect(size).toBeGreaterThan(1024 * 1024);
    const whole = published(await env.refresh({ now: () => NOW }));
    expect(whole.summary!.added.sort()).toEqual(["first/plugin", "last/plugin"]);

    await env.stop();
    env = new Env({ lists: [{ repository: "huge/list", path: "README.md" }] });
    env.github.add(
      { full_name: "huge/list", files: { "README.md": readme } },
      { full_name: "first/plugin" },
      { full_name: "last/plugin" },
    );
    const { log, events } = recorder();
    const cut = published(await env.refresh({ now: () => NOW, log, sourceLimits: { listMaxBytes: 1024 * 1024 } }));
    expect(cut.summary!.added).toEqual(["first/plugin"]);
    expect(events).toContainEqual({
      event: "refresh.listing_truncated",
      rule: "list huge/list/README.md",
      bytes: size,
      readBytes: 1024 * 1024,
    });
    expect(cut.discovery!.truncated).toEqual([
      { rule: "list huge/list/README.md", cap: "bytes", size, kept: 1024 * 1024 },
    ]);
  });
});
