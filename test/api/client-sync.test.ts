/**
 * A real client (examples/mirror.ts) follows a real server across refreshes against the fake
 * platform: after every step its copy equals the server's catalog.json exactly.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type CatalogItem, Mirror } from "../../examples/mirror";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";
import { Env, published } from "../refresh/support";

const HOUR = 3_600_000;
const START = Date.parse("2026-11-20T00:00:00.000Z");
const at = (hours: number) => new Date(START + hours * HOUR);

let env: Env | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await env?.stop();
  await server?.stop();
  env = undefined;
  server = undefined;
});

function byId(items: CatalogItem[]): CatalogItem[] {
  return [...items].sort((a, b) => (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1));
}

async function catalog(url: string): Promise<{ snapshotAt: string; items: CatalogItem[] }> {
  return (await (await fetch(`${url}/market/v1/catalog.json`)).json()) as { snapshotAt: string; items: CatalogItem[] };
}

async function expectMirrored(mirror: Mirror, url: string): Promise<void> {
  const current = await catalog(url);
  expect(mirror.state.snapshotAt).toBe(current.snapshotAt);
  expect(byId(Object.values(mirror.state.items))).toEqual(byId(current.items));
}

/** An MCP server repository the topic search finds, pushed shortly before `hours`. */
function mcpServer(name: string, hours: number, stars = 10) {
  return {
    full_name: name,
    topics: ["mcp-server"],
    stars,
    pushed_at: at(hours - 1)
      .toISOString()
      .replace(/\.\d+Z$/, "Z"),
  };
}

describe("a mirror following the catalog", () => {
  test("stays equal to catalog.json across additions, removals, a rename, updates and a refresh mid-paging", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    for (let i = 0; i < 20; i++) env.github.add(mcpServer(`acme/server-${i}`, 0, 100 + i));
    published(await env.refresh({ now: () => at(0) }));
    const { url } = env.serve();
    const mirror = new Mirror(url);

    expect(await mirror.sync()).toBe("downloaded");
    await expectMirrored(mirror, url);
    const first = mirror.state.snapshotAt!;

    // Two additions, a removal, a rename and three star changes.
    env.github.add(mcpServer("newco/alpha", 6, 5));
    env.github.add(mcpServer("newco/beta", 6, 7));
    env.github.repos.remove("acme/server-3");
    env.github.repos.rename("acme/server-5", "acme/renamed-five");
    for (const i of [1, 2, 4]) env.github.repos.update(`acme/server-${i}`, { stars: 1000 + i });
    published(await env.refresh({ now: () => at(6) }));

    const changes = (await (await fetch(`${url}/market/v1/changes?since=${first}`)).json()) as any;
    expect(changes.added.map((p: CatalogItem) => p.id).sort()).toEqual(["newco/alpha", "newco/beta"]);
    expect(changes.removed).toEqual(["acme/server-3"]);
    expect(changes.renamed).toEqual([{ from: "acme/server-5", to: "acme/renamed-five" }]);
    expect(changes.updated.map((p: CatalogItem) => p.id)).toEqual(
      expect.arrayContaining(["acme/server-1", "acme/server-2", "acme/server-4", "acme/renamed-five"]),
    );
    expect(await mirror.sync()).toBe("changed");
    expect(mirror.calls).toMatchObject({ catalog: 1, changes: 1 });
    await expectMirrored(mirror, url);
    expect(mirror.state.items["acme/renamed-five"]).toMatchObject({ previous_ids: ["acme/server-5"] });
    const moved = await fetch(`${url}/api/v1/plugins/acme/server-5`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/api/v1/plugins/acme/renamed-five");

    // A refresh lands while a client pages the list pinned to a snapshot: it is told, and starts again.
    env.github.add(mcpServer("newco/gamma", 12, 3));
    env.github.repos.remove("newco/beta");
    let refreshed = false;
    const paged = await mirror.pagedList(5, async (page) => {
      if (page !== 2 || refreshed) return;
      refreshed = true;
      published(await env!.refresh({ now: () => at(12) }));
    });
    expect(mirror.calls.restarted409).toBe(1);
    const current = await catalog(url);
    // The full form: the catalog form without what a mirror keeps, the `include=` parts and the last update.
    const fullForm = ({
      curated,
      first_seen_at,
      repo_id,
      previous_ids,
      contents,
      install,
      fork_of,
      deprecated,
      lookalike_of,
      latest_release,
      works_with,
      context,
      last_update,
      ...full
    }: CatalogItem) => full;
    expect(paged).toEqual(current.items.map(fullForm));
    expect(new Set(paged.map((p) => p.id)).size).toBe(paged.length);

    expect(await mirror.sync()).toBe("changed");
    await expectMirrored(mirror, url);
    expect(mirror.state.items["newco/gamma"]).toBeDefined();
    expect(mirror.state.items["newco/beta"]).toBeUndefined();

    // Changes from the first snapshot compose every step since: what a client that slept would get.
    const composed = (await (await fetch(`${url}/market/v1/changes?since=${first}`)).json()) as any;
    expect(composed.removed.sort()).toEqual(["acme/server-3", "newco/beta"]);
    expect(composed.added.map((p: CatalogItem) => p.id).sort()).toEqual(["newco/alpha", "newco/gamma"]);

    // Past the history kept (30 days), changes since the first snapshot are gone: 410, download again.
    published(await env.refresh({ now: () => at(24 * 31) }));
    const gone = await fetch(`${url}/market/v1/changes?since=${first}`);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as any).message).toContain("/market/v1/catalog.json");
    const stale = new Mirror(url);
    stale.state = { snapshotAt: first, items: {} };
    expect(await stale.sync()).toBe("downloaded");
    expect(stale.calls.gone410).toBe(1);
    await expectMirrored(stale, url);
  });

  test("waits out a 429 with its Retry-After and then gets the catalog", async () => {
    server = startServer(snapshotInput([plugin("acme/one"), plugin("acme/two")]), { rateLimitWindowMs: 1000 });
    const mirror = new Mirror(server.url);
    await mirror.download();
    await mirror.download();
    expect(mirror.calls.waited429).toBe(1);
    expect(mirror.state.snapshotAt).toBe(SNAPSHOT_AT);
    expect(Object.keys(mirror.state.items).sort()).toEqual(["acme/one", "acme/two"]);
  });
});
