/**
 * The owner file and the verified owner, end to end: the fake platform serves owner files and
 * organizations, a real refresh reads them in its GraphQL batch, and the real server answers the
 * API, the plugin page, the MCP registry view, the listing decision and `changes` from the
 * published snapshot. Hostile owner files change nothing but what an owner may change.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { HOSTILE_OWNERS, LOOKALIKE, OWNER_FILE, OWNERS } from "../fakes/owner-repos";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const TOPIC = "claude-code-plugin";
const FLAGS = "include=flags";
const ALL = { ...OWNERS, ...LOOKALIKE, ...HOSTILE_OWNERS };

async function get(url: string): Promise<{ status: number; text: string; body: any }> {
  const response = await fetch(url);
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
  };
}

/** Every repository published once without owner files read, then refreshed with them. */
async function refreshed(extra: Partial<Parameters<Env["refresh"]>[0]> = {}) {
  env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
  for (const seed of Object.values(ALL)) env.github.add({ ...seed, topics: [TOPIC] });
  env.publishFake();
  const report = published(await env.refresh({ maxDrop: 0.5, ...extra }));
  return { report, server: env.serve() };
}

const plugin = async (url: string, id: string) => (await get(`${url}/api/v1/plugins/${id}?${FLAGS}`)).body.data?.plugin;
const ids = async (url: string, query: string) =>
  ((await get(`${url}/api/v1/plugins?${query}&pageSize=100`)).body.data.items as Array<{ id: string }>).map(
    (p) => p.id,
  );
const leftOut = (report: { gate: { leftOut: Map<string, number> } }, reason: string) =>
  report.gate.leftOut.get(`manifest ${OWNER_FILE}: ${reason}`) ?? 0;

describe("an owner file, visible at the next refresh", () => {
  test("exclude: the plugin leaves the catalog, its listing says its owner excluded it, changes report the removal", async () => {
    const { report, server } = await refreshed();
    expect(report.summary!.removed).toContainEqual({ id: "acme/gone", reason: "excluded by its owner" });
    expect((await get(`${server.url}/api/v1/plugins/acme/gone`)).status).toBe(404);
    const listing = (await get(`${server.url}/api/v1/listing/acme/gone`)).body.data;
    expect(listing.status).toBe("rejected");
    expect(listing.reason).toBe("excluded_by_owner");
    expect(listing.advice).toContain("Excluded by its owner");
    const changes = await get(`${server.url}/market/v1/changes?since=2026-08-22T00:00:00.000Z`);
    expect(changes.text).toMatch(/"removed":\[[^\]]*"acme\/gone"/);
  });

  test("deprecated with a replacement: in the API record, on the page and in the MCP registry view", async () => {
    const { server } = await refreshed();
    const old = await plugin(server.url, "acme/old-server");
    expect(old.deprecated).toBe(true);
    expect(old.deprecation).toEqual({ message: "Moved into acme/original.", replacement: "acme/original" });
    const page = (await get(`${server.url}/plugin/acme/old-server`)).text;
    expect(page).toContain("Deprecated by its owner");
    expect(page).toContain('<a href="/plugin/acme/original">acme/original</a>');
    const entry = await get(`${server.url}/v0.1/servers/io.github.acme%2Fold-server/versions/latest`);
    expect(entry.status).toBe(200);
    const official = entry.body._meta["io.modelcontextprotocol.registry/official"];
    expect(official.status).toBe("deprecated");
    expect(official.statusMessage).toBe("Moved into acme/original. Use acme/original instead.");
    const catalogKey = Object.keys(entry.body._meta).find((k) => k.endsWith("/catalog"))!;
    expect(entry.body._meta[catalogKey].deprecation).toEqual(old.deprecation);
  });

  test("canonical: the copy ranks just below the one it names, is flagged, and original=true leaves it out", async () => {
    const { server } = await refreshed();
    const copy = await plugin(server.url, "mirror/original-copy");
    expect(copy.canonical).toBe("acme/original");
    expect(copy.stars).toBe(5000);
    const order = await ids(server.url, "sort=default");
    expect(order.indexOf("mirror/original-copy")).toBe(order.indexOf("acme/original") + 1);
    expect(await ids(server.url, "original=true")).not.toContain("mirror/original-copy");
    expect((await get(`${server.url}/plugin/mirror/original-copy`)).text).toContain("is a copy of");
  });

  test("a file at the name REFRESH_OWNER_FILE sets is read, the default one is not", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    const files = { ".claude-plugin/plugin.json": "{}" };
    env.github.add(
      { full_name: "acme/a", topics: [TOPIC], files: { ...files, ".github/catalog.yml": "exclude: true\n" } },
      { full_name: "acme/b", topics: [TOPIC], files: { ...files, [OWNER_FILE]: "exclude: true\n" } },
      ...Array.from({ length: 8 }, (_, i) => ({ full_name: `acme/k${i}`, topics: [TOPIC], files })),
    );
    env.publishFake();
    const report = published(await env.refresh({ maxDrop: 0.5, ownerFile: ".github/catalog.yml" }));
    expect(report.summary!.removed).toEqual([{ id: "acme/a", reason: "excluded by its owner" }]);
  });
});

describe("the verified owner", () => {
  test("owner_verified for a verified organization only: flag, badge on the page, verified=true", async () => {
    const { server } = await refreshed();
    expect((await plugin(server.url, "bigorg/tool")).owner_verified).toBe(true);
    expect((await plugin(server.url, "smallorg/tool")).owner_verified).toBeUndefined();
    expect((await plugin(server.url, "acme/original")).owner_verified).toBeUndefined();
    expect(await ids(server.url, "verified=true")).toEqual(["bigorg/tool"]);
    const page = (await get(`${server.url}/plugin/bigorg/tool`)).text;
    expect(page).toContain("verified owner");
    expect(page.toLowerCase()).not.toContain("official");
    expect((await get(`${server.url}/plugin/smallorg/tool`)).text).not.toContain("verified owner");
    const bad = await get(`${server.url}/api/v1/plugins?verified=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.data).toBeNull();
  });
});

describe("hostile owner files change nothing but what they may", () => {
  test("oversize, wrong types, deep nesting, anchors and aliases are refused whole and counted", async () => {
    const { report, server } = await refreshed();
    for (const id of ["hostile/oversize", "hostile/wrong-types", "hostile/deep", "hostile/aliases", "hostile/anchor"]) {
      const p = await plugin(server.url, id);
      expect({ id, listed: Boolean(p), deprecated: p?.deprecated }).toEqual({ id, listed: true, deprecated: false });
      expect(p.canonical).toBeUndefined();
    }
    expect(leftOut(report, "too large")).toBe(1);
    expect(leftOut(report, "exclude is not true or false")).toBe(1);
    expect(leftOut(report, "nested too deep")).toBe(1);
    expect(leftOut(report, "anchors and aliases refused")).toBe(2);
    expect(leftOut(report, "invalid YAML")).toBe(0);
  });

  test("an owner file that starts with a byte order mark is read: its exclude is honoured", async () => {
    const { report, server } = await refreshed();
    expect(report.summary!.removed).toContainEqual({ id: "acme/marked", reason: "excluded by its owner" });
    expect((await get(`${server.url}/api/v1/plugins/acme/marked`)).status).toBe(404);
  });

  test("curated, category, stars and description are ignored and counted; the deprecation beside them holds", async () => {
    const { report, server } = await refreshed();
    const p = await plugin(server.url, "hostile/promote");
    expect(p).toMatchObject({ category: "other", stars: 50, description: "promote for coding agents" });
    expect((await get(`${server.url}/api/v1/plugins?curated=true`)).body.data.items).toEqual([]);
    expect(await ids(server.url, "category=skills")).not.toContain("hostile/promote");
    expect(p.deprecation).toEqual({ message: "Old.", replacement: null });
    expect(leftOut(report, "unknown key ignored")).toBe(1);
  });

  test("a replacement or canonical naming a look-alike, a missing repository, itself or a fork of itself is refused", async () => {
    const { report, server } = await refreshed();
    expect((await plugin(server.url, "evil/superpowers")).lookalike_of).toBe("big/superpowers");
    const pointer = await plugin(server.url, "hostile/points-at-lookalike");
    expect(pointer.deprecation).toEqual({ message: null, replacement: null });
    expect(pointer.canonical).toBeUndefined();
    expect((await plugin(server.url, "hostile/points-at-missing")).canonical).toBeUndefined();
    const itself = await plugin(server.url, "hostile/itself");
    expect([itself.canonical, itself.deprecation.replacement]).toEqual([undefined, null]);
    expect((await plugin(server.url, "hostile/forkee")).canonical).toBeUndefined();
    expect(leftOut(report, "replacement refused: names a look-alike")).toBe(1);
    expect(leftOut(report, "canonical refused: names a look-alike")).toBe(1);
    expect(leftOut(report, "canonical refused: not in the catalog")).toBe(1);
    expect(leftOut(report, "canonical refused: names this repository itself")).toBe(1);
    expect(leftOut(report, "replacement refused: names this repository itself")).toBe(1);
    expect(leftOut(report, "canonical refused: names a fork of this one")).toBe(1);
    // Refused pointers leave the ranking alone: the one pointing at a look-alike is an original.
    expect(await ids(server.url, "original=true")).toContain("hostile/points-at-lookalike");
  });
});
