import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

function seedKnown(count: number): void {
  for (let i = 0; i < count; i++) env.github.add({ full_name: `org/repo-${i}`, stars: 100 + i });
  env.publishFake();
}

describe("running out of API budget", () => {
  test("ends the run unpublished with its progress kept, and the next run finishes the rest", async () => {
    env = new Env();
    seedKnown(12);
    env.github.setRemaining("core", 5, 3600);
    const before = env.bytes();

    const first = await env.refresh({ token: undefined });

    expect(first.status).toBe("incomplete");
    expect(env.bytes().equals(before)).toBe(true);
    expect(existsSync(`${env.databasePath}-refresh.json`)).toBe(true);
    expect(env.github.count("repos 200")).toBe(5);

    env.github.resetBudgets();
    const second = published(await env.refresh({ token: undefined }));
    expect(second.resumed).toBe(true);
    expect(second.total).toBe(12);
    // Only what the first run had not fetched was asked for again.
    expect(env.github.count("repos 200")).toBe(12);
    expect(existsSync(`${env.databasePath}-refresh.json`)).toBe(false);
  });

  test("in the middle of discovery ends unpublished too, and the next run resumes", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }, { query: "topic:agent-skills" }] });
    env.github.add({ full_name: "a/one", topics: ["mcp-server"] }, { full_name: "b/two", topics: ["agent-skills"] });
    env.github.setRemaining("search", 1, 60);
    const first = await env.refresh();
    expect(first.status).toBe("incomplete");
    expect(existsSync(env.databasePath)).toBe(false);
    env.github.resetBudgets();
    const second = published(await env.refresh());
    expect(second.summary!.added.sort()).toEqual(["a/one", "b/two"]);
  });

  test("waits out a short x-ratelimit-reset and carries on", async () => {
    env = new Env();
    seedKnown(3);
    env.github.setRemaining("core", 0, 1);
    const report = published(
      await env.refresh({ token: undefined, maxWaitSeconds: 60, pacing: { retryAfterBaseMs: 1000 } }),
    );
    expect(report.usage.waits.map((w) => w.reason)).toContain("rate-limit");
    expect(env.github.count("repos 200")).toBe(3);
  });
});

describe("secondary rate limits and server errors", () => {
  test("a 429 or 403 with Retry-After is retried after the time it names", async () => {
    env = new Env();
    seedKnown(3);
    env.github.fail({ route: "graphql", status: 403, times: 1, retryAfter: 7 });
    const report = published(await env.refresh({ maxWaitSeconds: 60 }));
    expect(report.usage.waits).toEqual([{ reason: "secondary-limit", seconds: 7, url: "/graphql" }]);
    expect(env.github.count("graphql 403")).toBe(1);
    expect(env.github.count("graphql 200")).toBe(1);
  });

  test("a Retry-After longer than the run may wait ends it unpublished", async () => {
    env = new Env();
    seedKnown(3);
    env.github.fail({ route: "repos", status: 429, times: 100, retryAfter: 600 });
    const before = env.bytes();
    const result = await env.refresh({ token: undefined, maxWaitSeconds: 60 });
    expect(result.status).toBe("incomplete");
    expect(env.bytes().equals(before)).toBe(true);
  });

  test("a 5xx is retried", async () => {
    env = new Env();
    seedKnown(3);
    env.github.fail({ route: "graphql", status: 502, times: 2 });
    published(await env.refresh());
    expect(env.github.count("graphql 502")).toBe(2);
    expect(env.github.count("graphql 200")).toBe(1);
  });

  test("a 5xx that persists fails the run and leaves the snapshot as it was", async () => {
    env = new Env();
    seedKnown(3);
    env.github.fail({ route: "graphql", status: 503, times: 100 });
    const before = env.bytes();
    await expect(env.refresh()).rejects.toMatchObject({ status: 503 });
    expect(env.bytes().equals(before)).toBe(true);
  });
});
