import { afterEach, describe, expect, test } from "bun:test";
import { readPrevious } from "../../src/catalog/snapshot/previous";
import { Env, published, record } from "./support";

let env: Env;
afterEach(() => env.stop());

async function plugin(url: string, id: string): Promise<{ status: number; body: any; location: string | null }> {
  const res = await fetch(`${url}/api/v1/plugins/${id}`, { redirect: "manual" });
  return { status: res.status, body: await res.json(), location: res.headers.get("location") };
}

for (const mode of ["with a token (GraphQL)", "without a token (REST)"] as const) {
  const token = mode.startsWith("with a") ? "test-token" : undefined;

  describe(`renames, deletions and archived repositories, ${mode}`, () => {
    test("a renamed repository keeps its history under the new id; a deleted one is dropped and logged; an archived one stays", async () => {
      env = new Env();
      env.github.add(
        { full_name: "acme/old-name", stars: 7 },
        { full_name: "acme/doomed" },
        { full_name: "acme/retired" },
        ...Array.from({ length: 20 }, (_, i) => ({ full_name: `acme/steady-${i}` })),
      );
      env.publish(
        env.github.repos.all().map((r) =>
          record(`${r.owner}/${r.name}`, {
            first_seen_at: r.name === "old-name" ? "2025-02-02T00:00:00.000Z" : "2026-08-22T00:00:00.000Z",
          }),
        ),
      );
      env.github.repos.rename("acme/old-name", "neworg/new-name");
      env.github.repos.remove("acme/doomed");
      env.github.repos.update("acme/retired", { archived: true });
      const events: Array<[string, Record<string, unknown>]> = [];

      const report = published(await env.refresh({ token, log: (e, f) => events.push([e, f]) }));

      expect(report.summary!.renamed).toEqual([{ from: "acme/old-name", to: "neworg/new-name" }]);
      expect(report.summary!.removed).toEqual([{ id: "acme/doomed", reason: token ? "NOT_FOUND" : "HTTP 404" }]);
      expect(report.summary!.added).toEqual([]);
      expect(events).toContainEqual([
        "refresh.repository_gone",
        { id: "acme/doomed", reason: token ? "NOT_FOUND" : "HTTP 404" },
      ]);
      const { url } = env.serve();
      // The old id redirects to the new one, as the platform does.
      expect(await plugin(url, "acme/old-name")).toMatchObject({
        status: 301,
        location: "/api/v1/plugins/neworg/new-name",
      });
      const renamed = await plugin(url, "neworg/new-name");
      expect(renamed.body.data.plugin).toMatchObject({
        id: "neworg/new-name",
        url: "https://github.com/neworg/new-name",
        stars: 7,
      });
      expect((await plugin(url, "acme/doomed")).status).toBe(404);
      expect((await plugin(url, "acme/retired")).body.data.plugin.archived).toBe(true);
      // first_seen_at carried over under the new id: the rename is not "new" in the feed.
      const feed = await (await fetch(`${url}/plugins/feed.xml`)).text();
      expect(feed).toMatch(/neworg\/new-name[\s\S]*?<pubDate>Sun, 02 Feb 2025 00:00:00 GMT<\/pubDate>/);
      if (!token) expect(env.github.count("repos 301")).toBe(1);
    });
  });
}

describe("the same repository under its old and its new name", () => {
  test("is kept once, under the new name, with the earlier first_seen_at", async () => {
    env = new Env({ repositories: ["acme/new"] });
    env.github.add({ full_name: "acme/old" });
    env.publish([record("acme/old", { first_seen_at: "2025-05-05T00:00:00.000Z" })]);
    env.github.repos.rename("acme/old", "acme/new");
    const report = published(await env.refresh());
    expect(report.total).toBe(1);
    expect(report.summary!.renamed).toEqual([{ from: "acme/old", to: "acme/new" }]);
    expect(report.summary!.added).toEqual([]);
    expect(report.summary!.removed).toEqual([]);
    expect(readPrevious(env.databasePath).plugins.get("acme/new")?.firstSeenAt).toBe("2025-05-05T00:00:00.000Z");
  });
});

describe("editors' exclusions", () => {
  test("drop a repository from the next snapshot", async () => {
    env = new Env({ overrides: { "acme/unwanted": { exclude: true } } });
    env.github.add(
      { full_name: "acme/unwanted" },
      ...Array.from({ length: 10 }, (_, i) => ({ full_name: `acme/k${i}` })),
    );
    env.publish(env.github.repos.all().map((r) => record(`${r.owner}/${r.name}`)));
    const report = published(await env.refresh({ maxDrop: 0.5 }));
    expect(report.summary!.removed).toEqual([{ id: "acme/unwanted", reason: "excluded or invalid" }]);
  });
});
