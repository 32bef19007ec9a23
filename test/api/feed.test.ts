import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Parser from "rss-parser";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const DAY = 86_400_000;
let server: TestServer;

/** 60 plugins: first seen on different days (some on the same day, told apart by created_at). */
const plugins = Array.from({ length: 60 }, (_, i) =>
  plugin(`owner/p${String(i).padStart(2, "0")}`, {
    description: `Plugin number ${i} <with> & markup`,
    first_seen_at: new Date(Date.parse("2026-06-01T00:00:00Z") + Math.floor(i / 2) * DAY).toISOString(),
    created_at: new Date(Date.parse("2025-01-01T00:00:00Z") + (i % 2) * DAY).toISOString().replace(/\.\d+Z$/, "Z"),
    categories: i % 3 === 0 ? ["mcp", "cli"] : ["skills"],
    category: i % 3 === 0 ? "mcp" : "skills",
  }),
);

beforeAll(() => {
  server = startServer(snapshotInput(plugins), { baseUrl: "https://plugins.example.org" });
});
afterAll(() => server.stop());

describe("GET /plugins/feed.xml", () => {
  test("is RSS 2.0 that an independent parser reads: 50 newest items, newest first", async () => {
    const res = await server.get("/plugins/feed.xml");
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('<rss version="2.0"');
    const feed = await new Parser().parseString(xml);
    expect(feed.items).toHaveLength(50);
    const expected = plugins
      .slice()
      .sort(
        (a, b) =>
          b.first_seen_at.localeCompare(a.first_seen_at) ||
          b.created_at.localeCompare(a.created_at) ||
          a.id.localeCompare(b.id),
      )
      .slice(0, 50)
      .map((p) => p.full_name);
    expect(feed.items.map((i) => i.title)).toEqual(expected);
  });

  test("channel: title, link = BASE_URL, description, lastBuildDate = snapshotAt, ttl 60", async () => {
    const xml = await (await server.get("/plugins/feed.xml")).text();
    const feed = await new Parser({ customFields: { feed: ["lastBuildDate", "ttl"] } }).parseString(xml);
    expect(feed.title).toBeTruthy();
    expect(feed.description).toBeTruthy();
    // BASE_URL as a URL: an origin is written with its trailing slash.
    expect(new URL(feed.link!).href).toBe(new URL("https://plugins.example.org").href);
    expect(new Date(feed.lastBuildDate as string).toISOString()).toBe("2026-08-22T00:00:00.000Z");
    expect(String(feed.ttl)).toBe("60");
  });

  test("item: title = full_name, link and permalink guid = url, description, pubDate = first seen, a category per id", async () => {
    const xml = await (await server.get("/plugins/feed.xml")).text();
    const feed = await new Parser().parseString(xml);
    const item = feed.items.find((i) => i.title === "owner/p57")!;
    const source = plugins[57]!;
    expect(item.link).toBe(source.url);
    expect(item.guid).toBe(source.url);
    expect(xml).toMatch(new RegExp(`<guid isPermaLink="true">${source.url}</guid>`));
    expect(item.contentSnippet).toContain("Plugin number 57 <with> & markup");
    expect(new Date(item.pubDate!).toISOString()).toBe(new Date(source.first_seen_at).toISOString());
    expect(item.categories).toEqual(["mcp", "cli"]);
  });

  test("is the same bytes on every request of one snapshot", async () => {
    const a = await (await server.get("/plugins/feed.xml")).text();
    const b = await (await server.get("/plugins/feed.xml")).text();
    expect(a).toBe(b);
  });
});
