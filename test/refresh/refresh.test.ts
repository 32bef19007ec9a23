import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { spawnRefresh, within } from "./cli";
import { Env, OLD_SNAPSHOT_AT, published, record } from "./support";

let env: Env;
afterEach(() => env.stop());

async function getJson(url: string): Promise<{ body: any; etag: string | null }> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { body: await res.json(), etag: res.headers.get("etag") };
}

describe("a full refresh", () => {
  test("publishes fresh data that the running server serves at once, with new snapshotAt, feed and ETags", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    env.github.add(
      { full_name: "acme/alpha", stars: 10, topics: ["mcp-server"] },
      { full_name: "acme/beta", stars: 20 },
    );
    env.publish([record("acme/alpha", { stars: 1 }), record("acme/beta", { stars: 2 })]);
    const { url } = env.serve();
    const before = await getJson(`${url}/api/v1/plugins`);
    const feedBefore = await (await fetch(`${url}/plugins/feed.xml`)).text();
    const manifestBefore = await getJson(`${url}/market/manifest.json`);
    expect(before.body.data.generatedAt).toBe(OLD_SNAPSHOT_AT);

    env.github.add({ full_name: "new/gamma", stars: 5, topics: ["mcp-server"], created_at: "2026-11-01T00:00:00Z" });
    env.github.repos.update("acme/beta", { stars: 25, description: "Beta, now better" });
    const now = new Date("2026-11-22T12:00:00.000Z");
    const report = published(await env.refresh({ now: () => now }));

    expect(report.snapshotAt).toBe("2026-11-22T12:00:00.000Z");
    expect(report.summary).toMatchObject({ added: ["new/gamma"], removed: [], renamed: [], changed: 2, unchanged: 0 });
    const after = await getJson(`${url}/api/v1/plugins?sort=stars`);
    expect(after.body.data.generatedAt).toBe("2026-11-22T12:00:00.000Z");
    expect(after.body.data.items.map((p: any) => [p.id, p.stars])).toEqual([
      ["acme/beta", 25],
      ["acme/alpha", 10],
      ["new/gamma", 5],
    ]);
    expect(after.body.data.items[0].description).toBe("Beta, now better");
    expect(after.etag).not.toBe(before.etag);
    const manifest = await getJson(`${url}/market/manifest.json`);
    expect(manifest.body.snapshotAt).toBe("2026-11-22T12:00:00.000Z");
    expect(manifest.etag).not.toBe(manifestBefore.etag);
    const feed = await (await fetch(`${url}/plugins/feed.xml`)).text();
    expect(feed).not.toBe(feedBefore);
    // The feed's newest is what is new to the catalog: first seen now, the others keep their first-seen time.
    expect(feed.indexOf("new/gamma")).toBeLessThan(feed.indexOf("acme/alpha"));
  });

  test("keeps first_seen_at from snapshot to snapshot and gives new plugins the new snapshot's time", async () => {
    env = new Env({ repositories: ["new/one"] });
    env.github.add({ full_name: "acme/old" }, { full_name: "new/one" });
    env.publish([record("acme/old", { first_seen_at: "2025-01-01T00:00:00.000Z" })]);
    published(await env.refresh({ now: () => new Date("2026-11-01T00:00:00.000Z") }));
    published(await env.refresh({ now: () => new Date("2026-11-02T00:00:00.000Z") }));
    const { url } = env.serve();
    const feed = await (await fetch(`${url}/plugins/feed.xml`)).text();
    expect(feed).toMatch(
      /<title><!\[CDATA\[new\/one\]\]><\/title>[\s\S]*?<pubDate>Sun, 01 Nov 2026 00:00:00 GMT<\/pubDate>/,
    );
    expect(feed).toMatch(
      /<title><!\[CDATA\[acme\/old\]\]><\/title>[\s\S]*?<pubDate>Wed, 01 Jan 2025 00:00:00 GMT<\/pubDate>/,
    );
  });

  test("with a token fetches in GraphQL batches of 100 and counts the points", async () => {
    env = new Env();
    for (let i = 0; i < 250; i++) env.github.add({ full_name: `org/repo-${i}`, stars: i });
    env.publishFake();
    const report = published(await env.refresh());
    expect(report.total).toBe(250);
    expect(env.github.count("graphql")).toBe(3);
    expect(env.github.graphqlPoints).toBe(3);
    expect(report.usage.calls.graphql).toBe(3);
    expect(report.usage.graphqlPoints).toBe(3);
    expect(env.github.count("repos")).toBe(0);
  });

  test("without a token fetches by REST, keeps the ETags, and a second run costs nothing but 304s", async () => {
    env = new Env();
    for (let i = 0; i < 12; i++) env.github.add({ full_name: `org/repo-${i}`, stars: i });
    env.publishFake();
    published(await env.refresh({ token: undefined }));
    expect(env.github.count("repos 200")).toBe(12);
    env.github.repos.update("org/repo-3", { stars: 300 });
    const second = published(await env.refresh({ token: undefined }));
    expect(env.github.count("repos 304")).toBe(11);
    expect(env.github.count("repos 200")).toBe(13);
    expect(second.summary).toMatchObject({ changed: 1, unchanged: 11 });
    expect(second.usage.calls).toMatchObject({ rest: 1, conditional: 11, graphql: 0 });
  });
});

describe("a refresh by hand", () => {
  test("reads the editors' data from REFRESH_DATA_DIR as the scheduled refresh does, and from --data over it", async () => {
    env = new Env();
    env.github.add({ full_name: "acme/one", stars: 3 });
    env.publishFake();
    const other = join(env.dir, "other-data");
    env.writeData({ overrides: { "acme/one": { category: "skills" } } }, other);
    const { url } = env.serve();
    const category = async () => (await getJson(`${url}/api/v1/plugins/acme/one`)).body.data.plugin.category;
    expect(await category()).toBe("other");

    const fromEnv = await within(spawnRefresh(env, { REFRESH_DATA_DIR: other }, []).done(), 30_000, "the refresh");
    expect(fromEnv.code).toBe(0);
    expect(await category()).toBe("skills");

    const fromFlag = spawnRefresh(env, { REFRESH_DATA_DIR: other }, ["--data", env.dataDir]);
    expect((await within(fromFlag.done(), 30_000, "the refresh with --data")).code).toBe(0);
    expect(await category()).toBe("other");
  });
});
