import { afterEach, describe, expect, test } from "bun:test";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const DAY = 86_400_000;
const NOW = new Date("2026-11-22T12:00:00.000Z");

/** `count` repositories with `topic`, created one every few hours back from mid-2026. */
function seed(count: number, topic: string, prefix: string): void {
  const start = Date.parse("2026-06-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const created = new Date(start - i * 7 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    env.github.add({ full_name: `${prefix}/r${i}`, topics: [topic], created_at: created, pushed_at: "2026-09-01T00:00:00Z", stars: i % 50 });
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
    env.github.add({ full_name: "fresh/plugin", topics: ["mcp-server"], created_at: "2026-11-22T20:00:00Z", pushed_at: "2026-11-23T01:00:00Z" });
    const later = new Date(NOW.getTime() + DAY);
    const report = published(await env.refresh({ now: () => later }));
    expect(env.github.queries).toEqual(["topic:mcp-server pushed:>=2026-11-21T12:00:00Z created:2007-10-01T00:00:00Z..2026-11-23T12:00:00Z"]);
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
    env = new Env({ code: [{ query: "filename:marketplace.json path:.claude-plugin" }], repositories: ["listed/always"] });
    env.github.add({ full_name: "ships/marketplace", marketplace: true }, { full_name: "listed/always" }, { full_name: "not/found-anywhere" });
    const anonymous = published(await env.refresh({ token: undefined, now: () => NOW }));
    expect(anonymous.summary!.added).toEqual(["listed/always"]);
    expect(env.github.count("code")).toBe(0);
    const withToken = published(await env.refresh({ now: () => new Date(NOW.getTime() + 1000) }));
    expect(withToken.summary!.added).toEqual(["ships/marketplace"]);
    expect(env.github.count("code")).toBe(1);
  });
});
