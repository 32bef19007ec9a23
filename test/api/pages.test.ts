/**
 * The HTML pages over real HTTP: the browse page with the list API's parameters, a page per
 * category and per plugin, redirects of former ids, the empty state, the corrected spelling, each
 * page cached per snapshot under its canonical parameters with an ETag, and every upstream string
 * escaped.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { noDetails } from "../../src/catalog/model/details";
import { PAGE_SIZE } from "../../src/catalog/search/query";
import { PAGE_CSP } from "../../src/http/headers";
import { PAGES_RULE } from "../../src/web/page-routes";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";
import { addRecordFields, INSTALL } from "../rich-records";

const SKILL_CONTENTS = {
  skills: [{ name: "review", description: null }],
  ...{ commands: [], agents: [], hooks: [], mcp_servers: [], plugins: [] },
  counts: { skills: 1, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, plugins: 0 },
};

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)> & "quoted"`;

const plugins = [
  plugin("acme/toolkit", {
    description: "Tools for the agent.",
    description_zh: "智能体工具。",
    categories: ["mcp", "cli"],
    category: "mcp",
    stars: 1234,
    forks: 56,
    language: "TypeScript",
    license: "MIT",
    homepage: "https://acme.example/toolkit",
    topics: ["mcp", "automation"],
    curated: true,
  }),
  plugin("acme/badlink", { description: "Homepage with a script scheme.", homepage: "javascript:alert(1)", stars: 3 }),
  plugin("acme/hostile", { description: HOSTILE, description_zh: `中文${HOSTILE}`, stars: 2 }),
  plugin("neworg/renamed", { description: "Renamed once.", previous_ids: ["oldorg/before"], stars: 1 }),
  plugin("postgres/pgtool", { description: "A postgres tool.", stars: 40, categories: ["cli"], category: "cli" }),
  ...Array.from({ length: 45 }, (_, i) =>
    plugin(`bulk/skill-${String(i).padStart(2, "0")}`, {
      description: `Skill ${i}.`,
      categories: ["skills"],
      category: "skills",
      stars: 100 + i,
      // One plugin whose manifests name a skill: what `has=skills` finds.
      details: i === 7 ? { ...noDetails(), contents: SKILL_CONTENTS } : null,
    }),
  ),
];

let server: TestServer;
const html = async (path: string) => {
  const response = await server.get(path);
  return { response, text: await response.text() };
};

beforeAll(() => {
  server = startServer(snapshotInput(plugins), { baseUrl: "https://plugins.example.org" });
  addRecordFields(server.path, "acme/toolkit", {
    install: INSTALL,
    contents: {
      skills: [
        { name: "review", description: "Reviews a change." },
        { name: "deploy", description: null },
      ],
      commands: ["ship"],
      agents: [],
      hooks: [],
      mcp_servers: [],
      plugins: [
        {
          name: "fmt",
          source: "./plugins/fmt",
          description: null,
          contents: {
            skills: [],
            commands: ["format", "check"],
            agents: [],
            hooks: ["PostToolUse"],
            mcp_servers: [],
            counts: { skills: 0, commands: 3, agents: 0, hooks: 1, mcp_servers: 0 },
            risk: [{ rule: "pipe-to-shell", file: "plugins/fmt/hooks/hooks.json", line: 3, excerpt: "curl x | sh" }],
          },
          install_command: "/plugin install fmt@claude-plugins-x",
          context: { always_on: 1234, mcp_tools: 0, complete: true, counts: { skills: 0, commands: 3, agents: 0 } },
        },
        {
          name: "old",
          source: "unsupported",
          description: null,
          refused: "pip sources are documented but Claude Code does not install them",
        },
      ],
      marketplace: {
        name: "claude-plugins-x",
        refused: "marketplace name impersonates an official Anthropic marketplace",
      },
      truncated: ["skills"],
      counts: { skills: 102, commands: 1, agents: 0, hooks: 0, mcp_servers: 0, plugins: 2 },
    },
    works_with: ["claude-code", "mcp"],
    fork_of: null,
    deprecated: false,
    lookalike_of: "acme/the-real-toolkit",
    latest_release: { tag: "v1.2.0", date: "2026-07-01T00:00:00Z" },
  });
});
afterAll(() => server.stop());

describe("GET / (the home page)", () => {
  test("has a search form to /browse, the categories, and every feed in its head", async () => {
    const { text } = await html("/");
    expect(text).toContain('<form class="search" role="search" action="/browse" method="get"');
    expect(text).toContain('<label for="site-q">Search plugins</label>');
    expect(text).toContain('href="/categories/mcp"');
    for (const [type, href] of [
      ["application/rss+xml", "/plugins/feed.xml"],
      ["application/atom+xml", "/plugins/feed.atom"],
      ["application/feed+json", "/plugins/feed.json"],
    ] as const) {
      expect(text).toMatch(new RegExp(`<link rel="alternate" type="${type.replace("+", "\\+")}"[^>]*href="${href}"/>`));
    }
  });
});

describe("GET /browse", () => {
  test("searches with q: the results, the total, links to each plugin's page", async () => {
    const { response, text } = await html("/browse?q=toolkit");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(text).toContain("<h1>Plugins matching “toolkit”</h1>");
    expect(text).toContain("<strong>1</strong> plugin;");
    expect(text).toContain('<a href="/plugin/acme/toolkit">acme/toolkit</a>');
    expect(text).toContain('<p lang="zh">智能体工具。</p>');
    expect(text).toContain('value="toolkit"');
  });

  test("filters by category, keeps the search and the filters in the form, and offers the category's feeds", async () => {
    const { text } = await html("/browse?category=cli&sort=name");
    const listed = [...text.matchAll(/<h3><a href="\/plugin\/([^"]+)">/g)].map((m) => m[1]);
    expect(listed).toEqual(["postgres/pgtool", "acme/toolkit"]);
    expect(text).toContain('<option value="cli" selected>');
    expect(text).toContain('<option value="name" selected>');
    expect(text).toContain('href="/plugins/feed.atom?category=cli"');
  });

  test(`pages by ${PAGE_SIZE}: the total, Next and Previous links with the same parameters`, async () => {
    const first = (await html("/browse?category=skills")).text;
    expect(first).toContain("<strong>45</strong> plugins; showing 1–20.");
    expect(first).toContain('<a rel="next" href="/browse?category=skills&amp;page=2">');
    expect(first).not.toContain('rel="prev"');
    const last = (await html("/browse?category=skills&page=3")).text;
    expect(last).toContain("showing 41–45.");
    expect(last).toContain('<a rel="prev" href="/browse?category=skills&amp;page=2">');
    expect(last).not.toContain('rel="next"');
    expect(last).toContain("Page 3 of 3");
    const past = await html("/browse?category=skills&page=9");
    expect(past.response.status).toBe(200);
    expect(past.text).toContain("past the last one");
  });

  test("applies the list API's has, harness and original, and keeps them in its links and form", async () => {
    const { response, text } = await html("/browse?has=skills&sort=name");
    expect(response.status).toBe(200);
    const listed = [...text.matchAll(/<h3><a href="\/plugin\/([^"]+)">/g)].map((m) => m[1]);
    expect(listed).toEqual(["bulk/skill-07"]);
    expect(text).toContain('<input type="hidden" name="has" value="skills"/>');
    expect(text).toContain('<link rel="canonical" href="/browse?has=skills&amp;sort=name"/>');
    const none = (await html("/browse?q=toolkit&has=skills")).text;
    expect(none).toContain("No plugin matches “toolkit” with these filters.");
    expect(none).toContain('href="/browse?q=toolkit"');
  });

  test("tells the corrected spelling when it searched another", async () => {
    const { text } = await html("/browse?q=tolkit");
    expect(text).toContain("showing the results for “<strong>toolkit</strong>”");
    expect(text).toContain("acme/toolkit");
  });

  test("an empty result helps: the search without its filters, hints, the categories", async () => {
    const { response, text } = await html("/browse?q=toolkit&category=skills");
    expect(response.status).toBe(200);
    expect(text).toContain("No plugin matches “toolkit” with these filters.");
    expect(text).toContain('href="/browse?q=toolkit"');
    expect(text).toContain('href="/categories/hooks"');
    const plain = (await html("/browse?q=qqqqzzzz")).text;
    expect(plain).toContain("Use fewer or shorter words");
    // Found nothing with a filter: the corrected search is offered within it.
    const near = (await html("/browse?q=tolkit&category=skills")).text;
    expect(near).toContain("No plugin matches “tolkit” with these filters.");
    expect(near).toContain('Did you mean <a href="/browse?q=toolkit&amp;category=skills">toolkit</a>?');
  });

  test("is one cached page per canonical parameters: defaults, order and unknown parameters aside", async () => {
    const a = await server.get("/browse?q=toolkit&sort=stars");
    const b = await server.get("/browse?sort=stars&page=1&q=toolkit&archived=&pageSize=3&utm=x");
    expect(a.headers.get("etag")).toBe(b.headers.get("etag")!);
    expect(await a.text()).toBe(await b.text());
    const logged = server.lines.filter((l) => l.event === "request" && l.route === "/browse").slice(-2);
    expect(logged.map((l) => l.cache)).toEqual(["miss", "hit"]);
    expect((await server.get("/browse?q=toolkit&sort=stars", { "If-None-Match": a.headers.get("etag")! })).status).toBe(
      304,
    );
  });

  test("a malformed parameter is a 400 page naming it; an unknown category a 400 page too", async () => {
    for (const query of ["sort=sideways", "page=0", "category=nope", "q=a&q=b"]) {
      const { response, text } = await html(`/browse?${query}`);
      expect([query, response.status]).toEqual([query, 400]);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(text).toContain("Invalid parameter &quot;");
    }
  });
});

describe("GET /categories/{id}", () => {
  test("the category's name, description and feeds, and its plugins", async () => {
    const { response, text } = await html("/categories/mcp");
    expect(response.status).toBe(200);
    expect(text).toMatch(/<h1>mcp <span lang="zh">/);
    expect(text).toContain('<a href="/plugin/acme/toolkit">acme/toolkit</a>');
    expect(text).not.toContain("bulk/skill-");
    expect(text).toContain('href="/plugins/feed.json?category=mcp"');
    expect(text).toMatch(
      /<link rel="alternate" type="application\/atom\+xml" title="[^"]*" href="\/plugins\/feed.atom\?category=mcp"\/>/,
    );
  });

  test("pages within the category with its own address", async () => {
    const { text } = await html("/categories/skills?page=2");
    expect(text).toContain('<a rel="prev" href="/categories/skills">');
    expect(text).toContain('<a rel="next" href="/categories/skills?page=3">');
  });

  test("an unknown category is a 404 page", async () => {
    const { response, text } = await html("/categories/nope");
    expect(response.status).toBe(404);
    expect(text).toContain("No such category");
  });
});

describe("GET /plugin/{owner}/{repo}", () => {
  test("shows what a person judges a plugin by, and links only to http(s) addresses", async () => {
    const { response, text } = await html("/plugin/acme/toolkit");
    expect(response.status).toBe(200);
    expect(text).toContain("<h1>acme/toolkit</h1>");
    expect(text).toContain("<p>Tools for the agent.</p>");
    expect(text).toContain('<p lang="zh">智能体工具。</p>');
    for (const fact of [
      "<dt>Stars</dt><dd>1,234</dd>",
      "<dt>Forks</dt><dd>56</dd>",
      "<dt>Language</dt><dd>TypeScript</dd>",
      "<dt>Licence</dt><dd>MIT</dd>",
      '<dt>Created</dt><dd><time datetime="2025-01-01T00:00:00Z">2025-01-01</time></dd>',
      '<dt>Last push</dt><dd><time datetime="2026-08-01T00:00:00Z">2026-08-01</time></dd>',
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).toContain('<a href="/browse?q=automation">automation</a>');
    expect(text).toContain('<a href="/categories/cli">');
    expect(text).toContain('<a href="https://github.com/acme/toolkit">Repository</a>');
    expect(text).toContain('<a href="https://acme.example/toolkit">Homepage</a>');
    expect(text).toContain('<a href="/api/v1/plugins/acme/toolkit">This plugin as JSON</a>');
    const bad = (await html("/plugin/acme/badlink")).text;
    expect(bad).not.toContain("javascript:");
    expect(bad).not.toContain(">Homepage<");
  });

  test("shows the install instructions ready to copy, the contents, what it works with and its flags", async () => {
    const { text } = await html("/plugin/acme/toolkit");
    expect(text).toContain('<h2 id="install">Install</h2>');
    expect(text).toContain(
      '<pre data-copy="the claude-code install command"><code>/plugin install toolkit@acme</code></pre>',
    );
    expect(text).toContain("<code>ACME_TOKEN</code> (required, secret)");
    expect(text).toContain("&quot;mcpServers&quot;");
    expect(text).toContain('<a href="https://github.com/acme/toolkit/blob/main/.claude-plugin/plugin.json">');
    expect(text).toContain('<h2 id="contents">Contents</h2>');
    expect(text).toContain("<h3>Skills</h3><ul><li><strong>review</strong>: Reviews a change.</li>");
    expect(text).toContain("<li>and 100 more</li>");
    expect(text).toContain("<h3>Commands</h3><ul><li>ship</li></ul>");
    // What Claude Code would refuse says why, beside the entry or for the whole marketplace.
    expect(text).toContain(
      "<li><strong>old</strong> (unsupported) — not installable: pip sources are documented but Claude Code does not install them</li>",
    );
    expect(text).toContain(
      "<p>Claude Code would not add this marketplace: marketplace name impersonates an official Anthropic marketplace.</p>",
    );
    // Each plugin of the marketplace folds its own parts under one line of counts.
    expect(text).toContain(
      "<li><strong>fmt</strong> (./plugins/fmt)<details><summary>3 commands, 1 hooks</summary>" +
        "<p>Install: <code>/plugin install fmt@claude-plugins-x</code></p>" +
        "<p>Context cost: ~1,234 tokens in every session.</p>" +
        "<p>Commands: format, check and 1 more</p><p>Hooks: PostToolUse</p>" +
        '<p>Risk notes: 1 in its folder (see <a href="#risk">Risk notes</a>).</p></details></li>',
    );
    expect(text).not.toContain("<h3>Truncated</h3>");
    expect(text).not.toContain("<h3>Agents</h3>");
    expect(text).toContain('<h2 id="works-with">Works with</h2>');
    expect(text).toContain('<h2 id="flags">Flags</h2>');
    expect(text).toContain(
      '<dt>lookalike of</dt><dd><a href="/plugin/acme/the-real-toolkit">acme/the-real-toolkit</a></dd>',
    );
    expect(text).toContain('<dt>latest release</dt><dd><dl class="facts"><dt>tag</dt><dd>v1.2.0</dd>');
    // Flags that are not set say nothing.
    expect(text).not.toContain("fork of");
    expect(text).not.toContain("deprecated");
  });

  test("a record without them has no such sections", async () => {
    const { text } = await html("/plugin/postgres/pgtool");
    for (const id of ["install", "contents", "works-with", "flags"]) expect(text).not.toContain(`id="${id}"`);
  });

  test("a renamed plugin's former id, or another case of its id, redirects (301) to its page", async () => {
    const moved = await fetch(`${server.url}/plugin/oldorg/before`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/plugin/neworg/renamed");
    const cased = await fetch(`${server.url}/plugin/ACME/Toolkit`, { redirect: "manual" });
    expect(cased.status).toBe(301);
    expect(cased.headers.get("location")).toBe("/plugin/acme/toolkit");
    expect((await html("/plugin/oldorg/before")).response.url).toEndWith("/plugin/neworg/renamed");
  });

  test("an unknown plugin is a 404 page", async () => {
    const { response, text } = await html("/plugin/nobody/nothing");
    expect(response.status).toBe(404);
    expect(text).toContain("No such plugin");
  });

  test("escapes every upstream string", async () => {
    const { text } = await html("/plugin/acme/hostile");
    expect(text).not.toContain("<script>alert");
    expect(text).not.toContain("<img");
    expect(text).toContain("&lt;script>alert(1)&lt;/script>");
    expect(text).toContain('<p lang="zh">中文&lt;script>');
  });
});

describe("every page", () => {
  const paths = ["/", "/browse", "/browse?q=toolkit", "/categories/mcp", "/plugin/acme/toolkit", "/plugin/nobody/x"];

  test("carries the pages' policy and loads only its own stylesheet and script", async () => {
    for (const path of paths) {
      const { response, text } = await html(path);
      expect(response.headers.get("content-security-policy")).toBe(PAGE_CSP);
      expect(text).toContain('<link rel="stylesheet" href="/assets/site.css"/>');
      expect(text).not.toMatch(/<script(?! src="\/assets\/site\.js" defer><\/script>)/);
      // No inline style or handler on any element: escaped text holds no tag.
      expect(text).not.toMatch(/<[a-z][^>]*\s(style|on[a-z]+)=/i);
      expect(text).not.toContain("<style");
      expect(text).toMatch(/<link rel="alternate" type="application\/feed\+json"/);
    }
  });

  test("category and plugin pages are cached with an ETag too: a current copy gets 304", async () => {
    for (const path of ["/categories/mcp?page=1", "/plugin/acme/toolkit"]) {
      const first = await server.get(path);
      const etag = first.headers.get("etag")!;
      expect([path, etag]).toEqual([path, expect.stringMatching(/^"/)]);
      const again = await fetch(`${server.url}${path}`, { headers: { "If-None-Match": etag }, redirect: "manual" });
      expect([path, first.status, again.status]).toEqual([path, 200, 304]);
    }
  });

  test("the stylesheet and script are served here, cached with an ETag", async () => {
    for (const file of ["site.css", "site.js"]) {
      const response = await server.get(`/assets/${file}`);
      expect(response.status).toBe(200);
      const etag = response.headers.get("etag")!;
      expect((await server.get(`/assets/${file}`, { "If-None-Match": etag })).status).toBe(304);
    }
    expect((await server.get("/assets/other.js")).status).toBe(404);
  });
});

describe("the pages' rate-limit group", () => {
  let limited: TestServer;
  beforeAll(() => {
    limited = startServer(snapshotInput(plugins), { rateLimitWindowMs: 2000 });
  });
  afterAll(() => limited.stop());

  test(`admits a burst of ${PAGES_RULE.burst} pages from one client where the API admits one, then 429`, async () => {
    const sent = 30;
    const responses = await Promise.all(
      Array.from({ length: sent }, (_, i) => fetch(`${limited.url}/browse?page=${(i % 3) + 1}`)),
    );
    const admitted = responses.filter((r) => r.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(PAGES_RULE.burst);
    expect(responses.filter((r) => r.status === 429).length).toBe(sent - admitted);
    expect(admitted).toBeLessThan(sent);
    // The home page stays open.
    expect((await fetch(`${limited.url}/`)).status).toBe(200);
  });
});
