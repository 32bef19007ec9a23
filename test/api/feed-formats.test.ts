/**
 * The Atom 1.0 and JSON Feed 1.1 feeds beside the RSS one: the same 50 newest items, read by two
 * independent parsers (Atom) or checked against the JSON Feed schema; per-category feeds hold only
 * that category's newest; an unknown category is a 404 in the feed's error shape; the hostile
 * descriptions come back as text through all three formats.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { decodeHTML } from "entities";
import { XMLParser } from "fast-xml-parser";
import Parser from "rss-parser";
import { SaxesParser } from "saxes";
import { xmlChars } from "../../src/http/xml-text";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";
import { FIXTURES } from "./hostile-text";

const BASE = "https://plugins.example.org";
const DAY = 86_400_000;

const plugins = Array.from({ length: 60 }, (_, i) =>
  plugin(`owner/p${String(i).padStart(2, "0")}`, {
    description: `Plugin number ${i} <with> & markup`,
    first_seen_at: new Date(Date.parse("2026-06-01T00:00:00Z") + i * DAY).toISOString(),
    categories: i % 3 === 0 ? ["mcp", "cli"] : ["skills"],
    category: i % 3 === 0 ? "mcp" : "skills",
  }),
);
const newestFirst = plugins.slice().reverse();
const hostile = Object.entries(FIXTURES).map(([name, description], i) =>
  plugin(`hostile/${name.toLowerCase()}`, {
    description,
    first_seen_at: new Date(Date.parse("2026-06-01T00:00:00Z") + i * DAY).toISOString(),
  }),
);

const schema = JSON.parse(readFileSync(join(import.meta.dir, "..", "fixtures", "jsonfeed-1.1.schema.json"), "utf8"));
const validateJsonFeed = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);

function strictXml(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  parser.on("error", (error) => {
    throw error;
  });
  parser.write(xml).close();
}

interface Entry {
  title: string;
  link: string;
  summary: string;
  categories: string[];
}

/** An Atom document's entries as rss-parser and fast-xml-parser read them; html text decoded. */
async function atomEntries(xml: string): Promise<{ rss: Entry[]; fxp: Entry[]; feed: Record<string, unknown> }> {
  const parsed = await new Parser({ customFields: { item: ["summary"] } }).parseString(xml);
  const rss = parsed.items.map((item) => ({
    title: decodeHTML(item.title ?? ""),
    link: item.link ?? "",
    summary: decodeHTML(String((item as { summary?: unknown }).summary ?? "")),
    categories: (item.categories ?? []).map(String),
  }));
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    processEntities: true,
    htmlEntities: false,
    parseTagValue: false,
    trimValues: false,
    isArray: (name) => name === "entry" || name === "category" || name === "link",
  }).parse(xml) as { feed: Record<string, unknown> & { entry?: Array<Record<string, unknown>> } };
  const text = (value: unknown) =>
    typeof value === "object" && value !== null
      ? String((value as { "#text"?: unknown })["#text"] ?? "")
      : String(value ?? "");
  const fxp = (doc.feed.entry ?? []).map((entry) => ({
    title: decodeHTML(text(entry.title)),
    link: String((entry.link as Array<Record<string, string>>)[0]!["@href"]),
    summary: decodeHTML(text(entry.summary)),
    categories: ((entry.category as Array<Record<string, string>> | undefined) ?? []).map((c) => c["@term"]!),
  }));
  return { rss, fxp, feed: doc.feed };
}

interface JsonFeed {
  version: string;
  home_page_url: string;
  feed_url: string;
  items: Array<{ id: string; url: string; title: string; content_html: string; tags?: string[] }>;
}

let server: TestServer;
let hostileServer: TestServer;
beforeAll(() => {
  server = startServer(snapshotInput(plugins), { baseUrl: BASE });
  hostileServer = startServer(snapshotInput(hostile), { baseUrl: BASE });
});
afterAll(async () => {
  await server.stop();
  await hostileServer.stop();
});

describe("GET /plugins/feed.atom", () => {
  test("is Atom 1.0 that two parsers read alike: the 50 newest entries, newest first, with their categories", async () => {
    const response = await server.get("/plugins/feed.atom");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    const xml = await response.text();
    strictXml(xml);
    const { rss, fxp, feed } = await atomEntries(xml);
    expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    // Atom asks for an id, a title, an updated time and an author of the feed.
    expect(feed.id).toBe(BASE);
    expect(feed.updated).toBe("2026-08-22T00:00:00.000Z");
    expect((feed.author as { name: string }).name).toBeTruthy();
    const links = feed.link as Array<Record<string, string>>;
    expect(links.find((l) => l["@rel"] === "self")?.["@href"]).toBe(`${BASE}/plugins/feed.atom`);
    expect(links.find((l) => l["@rel"] === "alternate")?.["@href"]).toBe(`${BASE}/`);
    for (const entries of [rss, fxp]) {
      expect(entries.map((e) => e.title)).toEqual(newestFirst.slice(0, 50).map((p) => p.full_name));
      const first = entries[0]!;
      expect(first.link).toBe(newestFirst[0]!.url);
      expect(first.summary).toBe("Plugin number 59 <with> & markup");
    }
    expect(fxp.find((e) => e.title === "owner/p57")!.categories).toEqual(["mcp", "cli"]);
  });

  test("holds the same items as the RSS and JSON feeds", async () => {
    const rssTitles = (await new Parser().parseString(await (await server.get("/plugins/feed.xml")).text())).items.map(
      (i) => i.title,
    );
    const atomTitles = (await atomEntries(await (await server.get("/plugins/feed.atom")).text())).fxp.map(
      (e) => e.title,
    );
    const json = (await server.json("/plugins/feed.json")) as { items: Array<{ title: string }> };
    expect(atomTitles).toEqual(rssTitles as string[]);
    expect(json.items.map((i) => i.title)).toEqual(rssTitles as string[]);
  });
});

describe("GET /plugins/feed.json", () => {
  test("is JSON Feed 1.1 valid against its schema: the 50 newest items with id, url, title, content and date", async () => {
    const response = await server.get("/plugins/feed.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/feed+json; charset=utf-8");
    const feed = (await response.json()) as JsonFeed;
    if (!validateJsonFeed(feed)) throw new Error(JSON.stringify(validateJsonFeed.errors));
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.home_page_url).toBe(`${BASE}/`);
    expect(feed.feed_url).toBe(`${BASE}/plugins/feed.json`);
    expect(feed.items).toHaveLength(50);
    const first = feed.items[0]!;
    const source = newestFirst[0]!;
    expect(first).toMatchObject({
      id: source.url,
      url: source.url,
      title: source.full_name,
      date_published: new Date(source.first_seen_at).toISOString(),
    });
    expect(decodeHTML(first.content_html)).toBe(source.description);
    expect(feed.items.find((i) => i.title === "owner/p57")!.tags).toEqual(["mcp", "cli"]);
  });

  test("is cached per snapshot: the same bytes, an ETag, and 304 for a current copy", async () => {
    const a = await server.get("/plugins/feed.json?category=mcp");
    const b = await server.get("/plugins/feed.json?category=mcp");
    expect(await a.text()).toBe(await b.text());
    const etag = a.headers.get("etag")!;
    expect(b.headers.get("etag")).toBe(etag);
    expect((await server.get("/plugins/feed.json?category=mcp", { "If-None-Match": etag })).status).toBe(304);
  });
});

describe("?category= on all three feeds", () => {
  const mcp = newestFirst.filter((p) => p.categories.includes("mcp"));

  test("RSS: only the category's newest, the channel linking to the category's page", async () => {
    const xml = await (await server.get("/plugins/feed.xml?category=mcp")).text();
    strictXml(xml);
    const feed = await new Parser().parseString(xml);
    expect(feed.items.map((i) => i.title)).toEqual(mcp.map((p) => p.full_name));
    const doc = new XMLParser({
      processEntities: true,
      parseTagValue: false,
      isArray: (name) => name === "item",
    }).parse(xml) as {
      rss: { channel: { link: string; item: Array<{ title: string; category: string | string[] }> } };
    };
    expect(doc.rss.channel.item.map((i) => i.title)).toEqual(mcp.map((p) => p.full_name));
    for (const item of doc.rss.channel.item) expect([item.category].flat()).toContain("mcp");
    expect(doc.rss.channel.link).toBe(`${BASE}/categories/mcp`);
    expect(feed.link).toBe(`${BASE}/categories/mcp`);
    expect(feed.title).toBe("Plugin Catalog: newest plugins in mcp");
    expect(xml).toContain(`href="${BASE}/plugins/feed.xml?category=mcp" rel="self"`);
  });

  test("Atom: only the category's newest, with a feed id of its own", async () => {
    const xml = await (await server.get("/plugins/feed.atom?category=skills")).text();
    strictXml(xml);
    const { rss, fxp, feed } = await atomEntries(xml);
    const skills = newestFirst.filter((p) => p.categories.includes("skills")).slice(0, 50);
    expect(skills.length).toBe(40);
    for (const entries of [rss, fxp]) expect(entries.map((e) => e.title)).toEqual(skills.map((p) => p.full_name));
    expect(feed.id).toBe(`${BASE}/plugins/feed.atom?category=skills`);
  });

  test("JSON Feed: only the category's newest, valid against the schema", async () => {
    const feed = (await server.json("/plugins/feed.json?category=mcp")) as JsonFeed;
    if (!validateJsonFeed(feed)) throw new Error(JSON.stringify(validateJsonFeed.errors));
    expect(feed.items.map((i) => i.title)).toEqual(mcp.map((p) => p.full_name));
    expect(feed.home_page_url).toBe(`${BASE}/categories/mcp`);
  });

  test("a category with no plugins is an empty feed, not an error", async () => {
    const feed = (await server.json("/plugins/feed.json?category=hooks")) as { items: unknown[] };
    expect(feed.items).toEqual([]);
  });

  test("an unknown category is a 404 in the feed's error shape on every format; twice is a 400", async () => {
    for (const path of ["/plugins/feed.xml", "/plugins/feed.atom", "/plugins/feed.json"]) {
      const response = await server.get(`${path}?category=nope`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 404, message: "Category nope not found." });
      expect((await server.get(`${path}?category=mcp&category=cli`)).status).toBe(400);
    }
  });
});

describe("the hostile descriptions through all three formats", () => {
  test("RSS, Atom and JSON Feed each give back every description as text, no item forged", async () => {
    const expected = (p: (typeof hostile)[number]) => xmlChars(p.description.toWellFormed());
    const names = hostile.map((p) => p.full_name).sort();

    const rssXml = await (await hostileServer.get("/plugins/feed.xml")).text();
    strictXml(rssXml);
    const rss = await new Parser().parseString(rssXml);
    expect(rss.items.map((i) => i.title).sort()).toEqual(names);
    for (const p of hostile)
      expect(decodeHTML(rss.items.find((i) => i.title === p.full_name)!.content!)).toBe(expected(p));

    const atomXml = await (await hostileServer.get("/plugins/feed.atom")).text();
    strictXml(atomXml);
    expect(atomXml).not.toContain("<script");
    const atom = await atomEntries(atomXml);
    for (const entries of [atom.rss, atom.fxp]) {
      expect(entries.map((e) => e.title).sort()).toEqual(names);
      for (const p of hostile) expect(entries.find((e) => e.title === p.full_name)!.summary).toBe(expected(p));
    }

    const response = await hostileServer.get("/plugins/feed.json");
    const text = await response.text();
    expect(text).not.toContain("<script");
    const json = JSON.parse(text) as { items: Array<{ title: string; content_html: string }> };
    if (!validateJsonFeed(json)) throw new Error(JSON.stringify(validateJsonFeed.errors));
    expect(json.items.map((i) => i.title).sort()).toEqual(names);
    for (const p of hostile) {
      const item = json.items.find((i) => i.title === p.full_name)!;
      // content_html is HTML: markup arrives escaped, and decoding it gives the text back.
      expect(item.content_html).not.toMatch(/<[a-z]/i);
      expect(decodeHTML(item.content_html)).toBe(expected(p));
    }
  });
});
