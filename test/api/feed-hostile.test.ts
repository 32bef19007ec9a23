/**
 * A snapshot written before any upstream gate, holding descriptions an attacker chose: the feed
 * stays strictly valid XML, carries exactly its items, and gives back every description as text.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { decodeHTML } from "entities";
import fc from "fast-check";
import { XMLParser } from "fast-xml-parser";
import Parser from "rss-parser";
import { SaxesParser } from "saxes";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { xmlChars } from "../../src/http/xml-text";
import { renderFeed } from "../../src/routes/feed/feed-routes";
import { plugin, snapshotInput, startServer, type TestServer, tempDir } from "../helpers";
import { FIXTURES } from "./hostile-text";

const plugins = Object.entries(FIXTURES).map(([name, description], i) =>
  plugin(`hostile/${name.toLowerCase()}`, {
    description,
    first_seen_at: new Date(Date.parse("2026-06-01T00:00:00Z") + i * 86_400_000).toISOString(),
  }),
);

/** Throws on anything XML 1.0 does not allow: undeclared entities, bad characters, unclosed sections. */
function strictXml(xml: string): void {
  const parser = new SaxesParser({ xmlns: false });
  parser.on("error", (error) => {
    throw error;
  });
  parser.write(xml).close();
}

interface Item {
  title: string;
  description: string;
}

/** Items as two independent parsers read them; the description is HTML, shown as its text. */
async function itemsOf(xml: string): Promise<{ rss: Item[]; fxp: Item[] }> {
  const feed = await new Parser().parseString(xml);
  const rss = feed.items.map((i) => ({ title: decodeHTML(i.title ?? ""), description: decodeHTML(i.content ?? "") }));
  const doc = new XMLParser({
    processEntities: true,
    htmlEntities: false,
    parseTagValue: false,
    trimValues: false,
  }).parse(xml) as { rss: { channel: { item?: Item | Item[] } } };
  const raw = doc.rss.channel.item ?? [];
  const fxp = (Array.isArray(raw) ? raw : [raw]).map((i) => ({
    title: decodeHTML(String(i.title)),
    description: decodeHTML(String(i.description ?? "")),
  }));
  return { rss, fxp };
}

let server: TestServer;
beforeAll(() => {
  server = startServer(snapshotInput(plugins), { baseUrl: "https://plugins.example.org" });
});
afterAll(() => server.stop());

describe("feed of a hostile snapshot", () => {
  test("is strictly valid XML with one item per plugin, none forged, every description given back as text", async () => {
    const res = await server.get("/plugins/feed.xml");
    expect(res.status).toBe(200);
    const xml = await res.text();
    strictXml(xml);
    expect(xml).not.toContain("<script");
    const { rss, fxp } = await itemsOf(xml);
    for (const items of [rss, fxp]) {
      expect(items.map((i) => i.title).sort()).toEqual(plugins.map((p) => p.full_name).sort());
      for (const p of plugins) {
        expect(items.find((i) => i.title === p.full_name)?.description).toBe(xmlChars(p.description!.toWellFormed()));
      }
    }
  });
});

test("line ends are written as readers parse them: CR LF and a lone CR as LF", () => {
  expect(xmlChars("one\r\ntwo\rthree\nfour")).toBe("one\ntwo\nthree\nfour");
});

describe("feed of random text", () => {
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 60 }),
    fc.string({ unit: "grapheme", maxLength: 60 }),
    fc.constantFrom(...Object.values(FIXTURES)),
    fc
      .array(fc.constantFrom("]]>", "<![CDATA[", "<", "&", "&amp;", "\u0000", "\uD800", "x", " ", "\n"), {
        maxLength: 12,
      })
      .map((parts) => parts.join("")),
  );

  test("random strings in every text field yield a feed that parses and JSON that round-trips", async () => {
    const { dir, cleanup } = tempDir();
    try {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ description: text, topic: text, category: text }), { minLength: 1, maxLength: 4 }),
          async (fields) => {
            const path = `${dir}/random-${n++}.sqlite`;
            const records = fields.map((f, i) =>
              plugin(`random/p${i}`, { description: f.description, topics: [f.topic], categories: [f.category] }),
            );
            publishSnapshot(path, snapshotInput(records));
            const snapshot = Snapshot.open(path);
            try {
              const xml = new TextDecoder().decode(renderFeed(snapshot, "https://plugins.example.org").body);
              strictXml(xml);
              const { rss, fxp } = await itemsOf(xml);
              for (const items of [rss, fxp]) {
                expect(items).toHaveLength(records.length);
                for (const r of records) {
                  expect(items.find((i) => i.title === r.full_name)?.description).toBe(
                    xmlChars(r.description!.toWellFormed()),
                  );
                }
              }
              for (const r of records) {
                const served = JSON.parse(snapshot.plugin(r.id)!) as { description: string; topics: string[] };
                expect(served.description).toBe(r.description!);
                expect(served.topics).toEqual(r.topics);
              }
            } finally {
              snapshot.close();
            }
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      cleanup();
    }
  }, 60_000);
});
