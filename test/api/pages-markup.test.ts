/**
 * Markup planted in every stored text field of a snapshot (the record's own fields, its install
 * steps, contents and flags, the category set, the listing rules) and in the request itself comes
 * out of every page kind as text: no element, attribute or link scheme it names reaches the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { pluginView } from "../../src/web/plugin-page";
import { CATEGORY_IDS, plugin, SNAPSHOT_AT, startServer, type TestServer } from "../helpers";
import { addRecordFields } from "../rich-records";

/** Markup that breaks out of text, of a quoted attribute, or runs as a link; `field` names where it was planted. */
const mark = (field: string) =>
  `<script>alert("${field}")</script>"><img src=x onerror=alert('${field}')><a href="javascript:alert(1)">${field}</a>`;
const SCRIPT_URL = "javascript:alert(document.domain)";

const hostile = plugin("acme/hostile", {
  description: mark("Fdescription"),
  description_zh: mark("Fdescription_zh"),
  topics: [mark("Ftopic")],
  homepage: SCRIPT_URL,
  url: SCRIPT_URL,
  license: mark("Flicense"),
  language: mark("Flanguage"),
  categories: ["mcp", "cli"],
  category: "mcp",
  curated: true,
  stars: 50,
  previous_ids: ["acme/former"],
});
/** An id with a quote and a tag, as a listing shows it. */
const oddId = plugin(`odd/name"><b>x`, { description: "An odd id.", curated: true, stars: 7, categories: ["mcp"] });

const categories = CATEGORY_IDS.map((id) => ({
  id,
  name: mark(`Fcategory_name_${id}`),
  name_zh: mark(`Fcategory_zh_${id}`),
  description: mark(`Fcategory_description_${id}`),
}));

const listingRules = {
  topics: [mark("Frule_topic")],
  files: [{ path: mark("Frule_file"), note: mark("Frule_note") }],
  folders: [mark("Frule_folder")],
  dependencies: [mark("Frule_dependency")],
  floors: [{ query: mark("Frule_floor"), stars: 1 }],
  listings: [mark("Frule_listing")],
  findable: { topics: [mark("Frule_findable")], files: [mark("Frule_findable_file")] },
};

const parts = {
  install: [
    {
      harness: mark("Finstall_harness"),
      kind: mark("Finstall_kind"),
      command: mark("Finstall_command"),
      env: [{ name: mark("Finstall_env"), secret: true, required: true }],
      from: SCRIPT_URL,
    },
    { harness: "mcp", config: { [mark("Finstall_config_key")]: mark("Finstall_config") }, from: mark("Finstall_from") },
  ],
  contents: {
    skills: [{ name: mark("Fcontent_name"), description: mark("Fcontent_description"), source: SCRIPT_URL }],
    [mark("FcontentKind")]: [mark("Fcontent_item")],
    commands: [],
    counts: { skills: 3 },
  },
  works_with: [mark("Fworks_with"), { [mark("FworksKey")]: SCRIPT_URL }],
  fork_of: mark("Ffork_of"),
  deprecated: mark("Fdeprecated"),
  lookalike_of: mark("Flookalike_of"),
  latest_release: { tag: mark("Frelease_tag"), url: SCRIPT_URL },
};

let server: TestServer;
beforeAll(() => {
  server = startServer(
    { snapshotAt: SNAPSHOT_AT, plugins: [hostile, oddId], categoryIds: CATEGORY_IDS, categories, listingRules },
    { baseUrl: "https://plugins.example.org" },
  );
  addRecordFields(server.path, "acme/hostile", parts);
});
afterAll(() => server.stop());

/** Every page kind, with the planted fields each one shows (so a page that showed nothing would fail). */
const PAGES: Array<[path: string, status: number, shows: string[]]> = [
  ["/", 200, ["Fdescription", "Fdescription_zh", "Fcategory_name_mcp", "Fcategory_zh_mcp", "Frule_file"]],
  ["/browse", 200, ["Fdescription", "Flanguage", "Fcategory_name_mcp"]],
  [`/browse?q=${encodeURIComponent(mark("Fquery"))}`, 200, ["Fquery", "Fcategory_name_cli"]],
  ["/browse?category=mcp&sort=name", 200, ["Fcategory_name_mcp", "Fcategory_name_hooks"]],
  ["/categories/mcp", 200, ["Fcategory_name_mcp", "Fcategory_zh_mcp", "Fcategory_description_mcp"]],
  [`/categories/${encodeURIComponent(mark("Fcategory_path"))}`, 404, ["Fcategory_path", "Fcategory_name_ide"]],
  [`/browse?sort=${encodeURIComponent(mark("Fsort"))}`, 400, []],
  ["/plugin/acme/hostile", 200, allPluginFields()],
  [`/plugin/nobody/${encodeURIComponent(mark("Fplugin_path"))}`, 404, ["Fplugin_path"]],
  ["/plugin/acme/former", 301, []],
  [`/plugin/${encodeURIComponent("odd")}/${encodeURIComponent(`name"><b>x`)}`, 200, []],
];

function allPluginFields(): string[] {
  return ["Fdescription", "Fdescription_zh", "Ftopic", "Flicense", "Flanguage", "Fcategory_name_cli"];
}

/** The stored parts' fields: the page renders them escaped, though the stored-record gate never lets them through. */
const PART_FIELDS = [
  ...["Finstall_harness", "Finstall_kind", "Finstall_command", "Finstall_env", "Finstall_config_key"],
  ...["Finstall_config", "Finstall_from", "Fcontent_name", "Fcontent_description", "FcontentKind"],
  ...["Fcontent_item", "Fworks_with", "FworksKey", "Ffork_of", "Fdeprecated", "Flookalike_of", "Frelease_tag"],
];

/** The tags a page may hold: those the layout and the pages write, nothing a field could add. */
const TAGS = new Set(
  (
    "html head meta title link script body a header div form label input button main footer nav ul li p h1 h2 h3 " +
    "span section strong time select option dl dt dd pre code"
  ).split(" "),
);

/** Only markup the layout writes; every planted field in `shows` there as text. */
function expectOnlyText(text: string, shows: readonly string[]): void {
  // Only the page's own script, no element a field names, no handler or style attribute.
  expect(text.match(/<script\b[^>]*>/g) ?? []).toEqual(
    text.includes("/assets/site.js") ? ['<script src="/assets/site.js" defer>'] : [],
  );
  const tags = [...text.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!.toLowerCase());
  expect(tags.filter((tag) => !TAGS.has(tag))).toEqual([]);
  expect(text).not.toMatch(/<[a-z][^>]*\s(style|on[a-z]+)\s*=/i);
  // Every address a page links to is its own path or an http(s) one.
  const urls = [...text.matchAll(/\s(href|src|action)="([^"]*)"/g)].map((m) => m[2]!);
  expect(urls.filter((url) => !/^(\/|#|https?:\/\/|data:,$)/.test(url))).toEqual([]);
  // Each field the page shows is there, as text (in a configuration, as its JSON text).
  for (const field of shows) {
    const shown = [`alert(&quot;${field}&quot;)&lt;/script>`, `alert(\\&quot;${field}\\&quot;)&lt;/script>`];
    expect([field, shown.some((form) => text.includes(form))]).toEqual([field, true]);
  }
}

describe("markup planted in every stored text field", () => {
  for (const [path, status, shows] of PAGES) {
    test(`is text on ${decodeURIComponent(path).slice(0, 60)}`, async () => {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      const text = await response.text();
      expect(response.status).toBe(status);
      expectOnlyText(text, shows);
    });
  }

  test("stored parts that fail the record's schema are not served at all", async () => {
    const text = await (await fetch(`${server.url}/plugin/acme/hostile`)).text();
    for (const field of PART_FIELDS) expect([field, text.includes(field)]).toEqual([field, false]);
  });

  test("the plugin page renders every part's field as text, had it been served", () => {
    const snapshot = Snapshot.open(server.path);
    try {
      const record = { ...JSON.parse(snapshot.plugin("acme/hostile", [])!), ...parts };
      const rendered = pluginView(snapshot, record);
      expectOnlyText(new TextDecoder().decode(rendered.body), [...allPluginFields(), ...PART_FIELDS]);
    } finally {
      snapshot.close();
    }
  });
});
