/**
 * The feed's output encoding against hostile text: every description, title and category reaches
 * readers as text, the document stays strictly valid XML, and no description can add an item.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import fc from "fast-check";
import Parser from "rss-parser";
import { Snapshot } from "../../src/catalog/snapshot";
import { publishSnapshot } from "../../src/catalog/publish";
import { createApp } from "../../src/app";
import { CatalogStore } from "../../src/catalog/store";
import { feedPlainText, renderFeed } from "../../src/routes/feed";
import { HOSTILE as UPSTREAM_HOSTILE } from "../fakes/hostile-repos";
import { plugin, snapshotInput, startServer, tempDir, type TestServer } from "../helpers";
import { join } from "node:path";

/** Each a description an attacker could set on a repository, as the platform would serve it. */
const HOSTILE: Record<string, string> = {
  // The fake platform's hostile repositories, as a snapshot built before the upstream gate holds them.
  ...Object.fromEntries(
    Object.entries(UPSTREAM_HOSTILE)
      .filter(([, seed]) => typeof seed.description === "string")
      .map(([name, seed]) => [`upstream-${name}`, seed.description as string]),
  ),
  "cdata-end-twice":
    "ok ]]><item><title>FORGED</title></item><![CDATA[ mid ]]><item><title>FORGED</title></item><![CDATA[ end",
  "control-characters": "nul\u0000 bell\u0007 vtab\u000b esc\u001b[31m red",
  "script-markup": '<script>alert("x")</script><img src=x onerror=alert(1)> & &amp; &lt;',
  "bidi-overrides": "safe\u202Eexe.txt\u202C \u2066isolated\u2069",
  "lone-surrogates": "half \uD800 and \uDC00 and \uFFFE\uFFFF",
  "carriage-returns": "line one\r\nline two\rline three",
};

/** A string as SQLite stores it: UTF-8, so a lone surrogate comes back as U+FFFD. */
function stored<T>(value: T): T {
  if (typeof value === "string") return new TextDecoder().decode(new TextEncoder().encode(value)) as T;
  return Array.isArray(value) ? (value.map(stored) as T) : value;
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#13": "\r" };
/** What a reader shows of an item's HTML description: its entities decoded. */
function htmlText(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39|#13);/g, (_m, name: string) => entities[name]!);
}

/** A strict, independent XML reading of the feed: text kept exactly, entities left to the HTML layer. */
const xmlParser = new XMLParser({
  ignoreAttributes: false,
  trimValues: false,
  parseTagValue: false,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => name === "item" || name === "category",
});

interface XmlItem {
  title: string;
  description?: string;
  link: string;
  category?: Array<string>;
}

function xmlItems(xml: string): XmlItem[] {
  const valid = XMLValidator.validate(xml);
  expect(valid).toBe(true);
  return (xmlParser.parse(xml).rss.channel.item ?? []) as XmlItem[];
}

describe("the feed with hostile descriptions in a real snapshot file", () => {
  let server: TestServer;
  const names = Object.keys(HOSTILE);
  beforeAll(() => {
    const plugins = names.map((name, i) =>
      plugin(`attacker/${name}`, {
        description: HOSTILE[name]!,
        first_seen_at: new Date(Date.parse("2026-08-01T00:00:00Z") + i * 1000).toISOString(),
      }),
    );
    server = startServer(snapshotInput(plugins));
  });
  afterAll(() => server.stop());

  test("no forged item, strictly valid XML, each description text through two RSS parsers", async () => {
    const xml = await (await server.get("/plugins/feed.xml")).text();
    const items = xmlItems(xml);
    expect(items.map((i) => i.title).sort()).toEqual(names.map((n) => `attacker/${n}`).sort());
    const feed = await new Parser().parseString(xml);
    expect(feed.items.map((i) => i.title).sort()).toEqual(names.map((n) => `attacker/${n}`).sort());
    expect(xml).not.toContain("<script");
    for (const name of names) {
      const expected = feedPlainText(stored(HOSTILE[name]!));
      const item = items.find((i) => i.title === `attacker/${name}`)!;
      expect(htmlText(item.description!)).toBe(expected);
      const parsed = feed.items.find((i) => i.title === `attacker/${name}`)!;
      expect(htmlText(parsed.content!)).toBe(expected);
      // Markup in a description is text to an HTML reader: no tag survives the XML layer.
      expect(parsed.content!).not.toMatch(/<[a-z]/i);
    }
  });

  test("control characters and bidi overrides never reach the document", async () => {
    const xml = await (await server.get("/plugins/feed.xml")).text();
    // A string, not a literal: the pattern names control characters on purpose.
    const controls = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f";
    const forbidden = new RegExp(`[${controls}\\u202a-\\u202e\\u2066-\\u2069\\ufffe\\uffff]`);
    expect(xml).not.toMatch(forbidden);
  });
});

/** Text fields drawn from every kind of string, hostile ones among them. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.constantFrom(...Object.values(HOSTILE)),
  fc
    .array(fc.constantFrom("]]>", "<![CDATA[", "<", ">", "&", "&amp;", "\r", "\u0000", "\u202e", "\ud800", "x"), {
      maxLength: 20,
    })
    .map((parts) => parts.join("")),
);

describe("any text in every field", () => {
  test("gives a feed that parses strictly and JSON that round-trips", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              name: text,
              description: text,
              description_zh: fc.option(text, { nil: null }),
              homepage: fc.option(text, { nil: null }),
              url: text,
              language: text,
              license: text,
              topics: fc.array(text, { maxLength: 3 }),
            }),
            { minLength: 1, maxLength: 4 },
          ),
          async (fields) => {
            const path = join(dir, "catalog.sqlite");
            const plugins = fields.map((f, i) => ({ ...plugin(`owner${i}/${i}`), ...f, full_name: `${f.name}/${i}` }));
            publishSnapshot(path, snapshotInput(plugins));
            const snapshot = Snapshot.open(path);
            try {
              const xml = new TextDecoder().decode(renderFeed(snapshot, "http://catalog.test").body);
              const items = xmlItems(xml);
              expect(items).toHaveLength(plugins.length);
              const feed = await new Parser().parseString(xml);
              expect(feed.items).toHaveLength(plugins.length);
              for (const p of plugins) {
                const item = items.find((i) => htmlText(i.title) === p.id);
                expect(item).toBeDefined();
                expect(htmlText(item!.description ?? "")).toBe(feedPlainText(stored(p.description)));
              }
            } finally {
              snapshot.close();
            }
            const store = new CatalogStore(path, { checkIntervalMs: 0 });
            const config = { baseUrl: "http://catalog.test", rateLimitWindowMs: 0, trustProxy: false };
            const app = createApp({ store, config });
            try {
              for (const [i, p] of plugins.entries()) {
                const res = await app.handle(new Request(`http://catalog.test/api/v1/plugins/owner${i}/${i}`));
                expect(res.status).toBe(200);
                const body = (await res.json()) as { data: { plugin: Record<string, unknown> } };
                const got = body.data.plugin;
                const keys = ["full_name", "description", "description_zh", "homepage", "url", "language", "license"];
                keys.push("topics");
                for (const key of keys) {
                  expect(got[key]).toEqual(p[key as keyof typeof p]);
                }
              }
            } finally {
              store.close();
            }
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      cleanup();
    }
  });
});
