/**
 * Escaping by construction: no hand-written escape table in src/, and the badge and feed texts,
 * escaped by preact's renderer, come out as well-formed XML that gives back the text as written.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { decodeHTML } from "entities";
import { SaxesParser } from "saxes";
import { feedText, xmlChars } from "../../src/http/xml-text";
import { badgeSvg } from "../../src/routes/badge/svg";

const SRC = join(import.meta.dir, "..", "..", "src");

/** Every source file under src/, as a path relative to it. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.[cm]?[jt]sx?$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

const Q = `["'\`]`;
/** A markup character and the entities it is escaped as. */
const ENTITIES: Array<[string, string]> = [
  ["&", "&amp;"],
  ["<", "&lt;"],
  [">", "&gt;"],
  ['"', "&quot;"],
  ["'", "&(?:#0*39|#x0*27|apos);"],
];
/** A table's entry for `char`: an object literal's `"&": "&amp;"`, a map's `["&", "&amp;"]` or a `case "&": … "&amp;"`. */
function tableEntries(char: string, entity: string): RegExp[] {
  const key = `${Q}\\${char}${Q}`;
  const value = `${Q}${entity}`;
  return [
    new RegExp(`${key}\\s*:\\s*${value}`, "i"),
    new RegExp(`\\[\\s*${key}\\s*,\\s*${value}`, "i"),
    new RegExp(`case\\s+${key}\\s*:[^;]{0,40}${value}`, "i"),
    new RegExp(
      `\\b(?:case\\s+)?(?:0x${char.charCodeAt(0).toString(16)}|${char.charCodeAt(0)})\\s*:[^;]{0,40}${value}`,
      "i",
    ),
  ];
}
const TABLE_ENTRIES = ENTITIES.flatMap(([char, entity]) => tableEntries(char, entity));

/** The document as a strict XML parser reads it: its texts and attribute values; throws where XML 1.0 would. */
function parseXml(xml: string): { texts: string[]; attributes: Array<[string, string]> } {
  const parsed = { texts: [] as string[], attributes: [] as Array<[string, string]> };
  const parser = new SaxesParser({ xmlns: true });
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    for (const a of Object.values(tag.attributes)) parsed.attributes.push([`${tag.local}@${a.name}`, a.value]);
  });
  parser.on("text", (text) => parsed.texts.push(text));
  parser.on("cdata", (text) => parsed.texts.push(text));
  parser.write(xml).close();
  return parsed;
}

const HOSTILE = `<script>alert("x")</script> & ]]> 'single' ]]]]>> \u0001\uD800 end]]`;

describe("src/", () => {
  test("has no hand-written escape table", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => {
      const text = readFileSync(join(SRC, file), "utf8");
      return TABLE_ENTRIES.filter((entry) => entry.test(text)).map((entry) => `${file}: ${entry.source}`);
    });
    expect(found).toEqual([]);
  });

  test("the scan finds the tables it looks for", () => {
    const tables = [
      `const E = { "&": "&amp;", "<": "&lt;" };`,
      `const E: Record<string, string> = { '"': '&quot;', "'": "&#39;" };`,
      `new Map([["&", "&amp;"]])`,
      `switch (c) { case "<": return "&lt;"; }`,
      `switch (code) { case 38: ch = "&amp;"; }`,
      `{ ">": "&gt;", "'": "&apos;" }`,
    ];
    for (const table of tables)
      expect([table, TABLE_ENTRIES.some((entry) => entry.test(table))]).toEqual([table, true]);
  });
});

describe("the badge", () => {
  test("carries a hostile label and message as text, in well-formed XML", () => {
    const svg = badgeSvg({ label: `label ${HOSTILE}`, message: HOSTILE, color: '#fff" onload="x' });
    expect(svg).not.toContain("<script");
    expect(svg).not.toMatch(/]]>(?!<)/);
    expect(svg).not.toContain("onload");
    const { texts, attributes } = parseXml(svg);
    const message = xmlChars(HOSTILE);
    expect(texts.filter((t) => t === message)).toHaveLength(2);
    expect(texts.filter((t) => t === `label ${message}`)).toHaveLength(2);
    expect(texts).toContain(`label ${message}: ${message}`);
    expect(attributes).toContainEqual(["svg@aria-label", `label ${message}: ${message}`]);
    expect(attributes).toContainEqual(["rect@fill", "#9f9f9f"]);
  });
});

describe("feedText", () => {
  test("escapes markup as HTML: no < and no >, & and quotes escaped, the text given back when decoded", () => {
    const escaped = feedText(HOSTILE);
    expect(escaped).not.toMatch(/[<>]/);
    expect(escaped).not.toContain('"');
    expect(escaped.replace(/&(?:amp|lt|gt|quot);/g, "")).not.toContain("&");
    expect(decodeHTML(escaped)).toBe(xmlChars(HOSTILE));
    expect(feedText(`<script>&"' ]]>`)).toBe("&lt;script&gt;&amp;&quot;' ]]&gt;");
  });

  test("stays well-formed inside a CDATA section and inside an element", () => {
    const escaped = feedText(HOSTILE);
    expect(parseXml(`<d><![CDATA[${escaped}]]></d>`).texts.join("")).toBe(escaped);
    expect(decodeHTML(parseXml(`<d>${escaped}</d>`).texts.join(""))).toBe(xmlChars(HOSTILE));
  });
});
