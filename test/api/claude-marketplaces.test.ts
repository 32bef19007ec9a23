/**
 * The Claude Code marketplaces over real HTTP: which plugins are entries (originals inside listed
 * repositories), their sources (https, cloned without credentials), names unique in every
 * marketplace and never one the client reserves, one per category, the picks, and the rules
 * Claude Code's validator applies to a marketplace (name, owner, sources).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { RESERVED_PLUGIN_NAME, reservedByClient } from "../../src/catalog/model/claude-names";
import { CONTEXT_METHOD } from "../../src/catalog/model/context-cost";
import { noDetails } from "../../src/catalog/model/details";
import type { PluginEntry } from "../../src/catalog/model/plugin-entry";
import { sourceOf } from "../../src/market/claude/marketplaces";
import { servedNames } from "../../src/market/claude/served-names";
import { PLANTED_RESERVED, reservedCatalog } from "../fakes/reserved-names";
import { marketplacePlugin, plugin, snapshotInput, startServer, type TestServer } from "../helpers";
import { commands, json, readRepo } from "../refresh/manifests/read";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const SHA = "0123456789abcdef0123456789abcdef01234567";
const ACME = "https://github.com/acme/market.git";

const catalog = () =>
  snapshotInput([
    marketplacePlugin(
      "acme/market",
      [
        ["tool", "./plugins/tool"],
        ["root", "./"],
        ["elsewhere", "other/repo"],
      ],
      { stars: 50, curated: true, categories: ["skills", "commands"] },
      SHA,
    ),
    marketplacePlugin("beta/market", [["tool", "./tool/"]], { stars: 40, categories: ["commands"] }),
    marketplacePlugin("beta/again", [["tool", "./tool"]], { stars: 30, categories: ["commands"] }),
    marketplacePlugin("gone/archived", [["old", "./"]], { archived: true }),
    marketplacePlugin("fork/copy", [["copy", "./"]], { stars: 1 }),
    plugin("plain/repo", { stars: 10 }),
  ]);

type Served = { name: string; source: Record<string, string>; homepage: string; category: string };
type Marketplace = { name: string; owner: { name: string }; plugins: Served[] };

const RESERVED =
  /(?:official[^a-z0-9]*(anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official|^(?:anthropic|claude)[^a-z0-9]*(marketplace|plugins|official))/i;

/** What Claude Code's validator refuses: a reserved or spaced name, no owner, a bad source, a name twice. */
function expectValidMarketplace(doc: Marketplace) {
  expect(doc.name).toMatch(/^[a-z0-9-]+$/);
  expect(RESERVED.test(doc.name)).toBe(false);
  expect(doc.owner.name.length).toBeGreaterThan(0);
  const names = doc.plugins.map((p) => p.name.toLowerCase());
  expect(new Set(names).size).toBe(names.length);
  for (const p of doc.plugins) {
    expect(p.name).not.toContain(" ");
    expect(p.name).toMatch(/^[A-Za-z0-9][-A-Za-z0-9._]*$/);
    expect({ name: p.name, reserved: reservedByClient(p.name) }).toEqual({ name: p.name, reserved: false });
    // Cloned over https without credentials: never `github` or a bare owner/repo, which the client clones over SSH.
    expect(["url", "git-subdir"]).toContain(p.source.source ?? "");
    expect(p.source.url).toMatch(/^https:\/\/github\.com\/[A-Za-z0-9-]+\/[A-Za-z0-9._-]+\.git$/);
    if (p.source.source === "git-subdir") {
      expect(p.source.path ?? "").not.toBe("");
      expect(p.source.path).not.toContain("..");
    } else expect(p.source.path).toBeUndefined();
    expect(URL.canParse(p.homepage)).toBe(true);
  }
}

describe("Claude Code marketplaces", () => {
  test("every original plugin inside a listed repository, names unique, sources Claude Code fetches", async () => {
    const input = catalog();
    input.plugins.find((p) => p.id === "fork/copy")!.details!.fork_of = "acme/market";
    server = startServer(input, { baseUrl: "https://plugins.example.org" });
    const all = (await server!.json("/market/claude/marketplace.json")) as Marketplace;
    expectValidMarketplace(all);
    expect(all.name).toBe("plugin-catalog");
    expect(all.plugins.map((p) => [p.name, p.source])).toEqual([
      // Pinned to the commit the refresh read; a plugin read without one is not.
      ["tool-acme", { source: "git-subdir", url: ACME, path: "plugins/tool", sha: SHA }],
      ["root", { source: "url", url: ACME, sha: SHA }],
      ["tool-beta-market-tool", { source: "git-subdir", url: "https://github.com/beta/market.git", path: "tool" }],
      ["tool-beta-again-tool", { source: "git-subdir", url: "https://github.com/beta/again.git", path: "tool" }],
    ]);
    expect(all.plugins[0]!.homepage).toBe("https://plugins.example.org/plugin/acme/market");
  });

  test("one per category and one of the editors' picks, with the same names; an unknown category is 404", async () => {
    server = startServer(catalog());
    const commands = (await server!.json("/market/claude/categories/commands/marketplace.json")) as Marketplace;
    expectValidMarketplace(commands);
    expect(commands.name).toBe("plugin-catalog-commands");
    expect(commands.plugins.map((p) => p.name)).toEqual([
      "tool-acme",
      "root",
      "tool-beta-market-tool",
      "tool-beta-again-tool",
    ]);
    const skills = (await server!.json("/market/claude/categories/skills/marketplace.json")) as Marketplace;
    expect(skills.plugins.map((p) => p.name)).toEqual(["tool-acme", "root"]);
    const picks = (await server!.json("/market/claude/picks/marketplace.json")) as Marketplace;
    expectValidMarketplace(picks);
    expect(picks.plugins.map((p) => p.name)).toEqual(["tool-acme", "root"]);
    const empty = (await server!.json("/market/claude/categories/hooks/marketplace.json")) as Marketplace;
    expect(empty.plugins).toEqual([]);
    expect((await server!.get("/market/claude/categories/nothing/marketplace.json")).status).toBe(404);
  });

  test("a plugin's page names the marketplace it is served in, its served names and the two commands", async () => {
    server = startServer(catalog(), { baseUrl: "https://plugins.example.org" });
    const page = await (await server!.get("/plugin/acme/market")).text();
    expect(page).toContain(
      "Served in the marketplace <code>plugin-catalog</code> as <code>tool-acme</code>, <code>root</code>",
    );
    expect(page).toContain(
      [
        "/plugin marketplace add https://plugins.example.org/market/claude/marketplace.json",
        "/plugin install tool-acme@plugin-catalog",
        "/plugin install root@plugin-catalog",
      ].join("\n"),
    );
    // A name made unique is the one the page gives.
    expect(await (await server!.get("/plugin/beta/market")).text()).toContain(
      "/plugin install tool-beta-market-tool@plugin-catalog",
    );
    // A plugin in no served marketplace (none inside, or archived) has no such section.
    for (const id of ["plain/repo", "gone/archived"])
      expect(await (await server!.get(`/plugin/${id}`)).text()).not.toContain("/plugin marketplace add");
  });

  test("sources: the root, a folder, over https; never a path out of the repository or another repository", () => {
    const url = "https://github.com/a/b.git";
    expect(sourceOf("a/b", ".")).toEqual({ source: "url", url });
    expect(sourceOf("a/b", "./x/y/")).toEqual({ source: "git-subdir", url, path: "x/y" });
    expect(sourceOf("a/b", "./x/../..")).toBeNull();
    expect(sourceOf("a/b", "c/d")).toBeNull();
    expect(sourceOf("a/b", "https://example.com/x.git")).toBeNull();
    expect(sourceOf("a/b", "./", SHA)).toEqual({ source: "url", url, sha: SHA });
    expect(sourceOf("a/b", "./x", "ABC")).toEqual({ source: "git-subdir", url, path: "x" });
  });
});

describe("names the client refuses", () => {
  test("reserved names are left out of every document; no rename lands on another entry's name", async () => {
    server = startServer(reservedCatalog());
    const expected = [
      ["lint-acme-market-plugins-lint", "acme/market"],
      ["kept", "acme/market"],
      ["lint-beta", "beta/market"],
      ["lint-acme", "gamma/market"],
      ["tool-delta", "delta/kit"],
    ];
    for (const path of ["/market/claude/marketplace.json", "/market/claude/categories/skills/marketplace.json"]) {
      const doc = (await server!.json(path)) as Marketplace;
      expectValidMarketplace(doc);
      expect(doc.plugins.map((p) => [p.name, p.homepage.replace(/^.*\/plugin\//, "")])).toEqual(expected);
    }
    const picks = (await server!.json("/market/claude/picks/marketplace.json")) as Marketplace;
    expect(picks.plugins.map((p) => p.name)).toEqual(["lint-acme-market-plugins-lint", "kept"]);
    // The page offers only the names served.
    const page = await (await server!.get("/plugin/acme/market")).text();
    expect(page).toContain("/plugin install kept@plugin-catalog");
    expect(page).not.toContain("/plugin install claude-api@plugin-catalog");
  });

  test("a name is stable: it depends on the entry and on which others share its name, not on their order", () => {
    const entries = [
      { name: "lint", id: "acme/market", path: "plugins/lint" },
      { name: "lint", id: "beta/market", path: "lint" },
      { name: "lint-acme", id: "gamma/market", path: "" },
      { name: "Claude-API", id: "acme/market", path: "x" },
      { name: "foo+bar", id: "acme/market", path: "y" },
    ];
    const names = servedNames(entries);
    expect(names).toEqual(["lint-acme-market-plugins-lint", "lint-beta", "lint-acme", null, null]);
    const reversed = servedNames([...entries].reverse());
    expect(reversed).toEqual([...names].reverse());
  });
});

describe("an author's own marketplace, under the names the client refuses", () => {
  const FILE = ".claude-plugin/marketplace.json";
  const read = (name: string, plugins: string[], id = "acme/repo") =>
    readRepo(
      { [FILE]: json({ name, owner: { name: "Acme" }, plugins: plugins.map((p) => ({ name: p, source: `./${p}` })) }) },
      id,
    );

  test("a reserved name is listed with the reason, counted, and has no install line", () => {
    const got = read("acme-tools", [...PLANTED_RESERVED, "seo", "seo+x"]);
    const c = got.details!.contents!;
    expect(c.plugins.map((p) => [p.name, p.refused ?? null])).toEqual([
      ...PLANTED_RESERVED.map((name) => [name, RESERVED_PLUGIN_NAME]),
      ["seo", null],
      ["seo+x", expect.stringContaining("plugin name not installable")],
    ]);
    expect(commands(got)).toEqual(["/plugin marketplace add acme/repo", "/plugin install seo@acme-tools"]);
    // Counted for the listing decision, a repository once per reason.
    expect(got.refused[`manifest ${FILE}: ${RESERVED_PLUGIN_NAME}`]).toBe(1);
  });

  test("only reserved names: no line at all; Anthropic's own marketplace keeps them", () => {
    expect(commands(read("acme-tools", ["claude-seo"]))).toEqual([]);
    const own = read("claude-plugins-official", ["claude-code-setup"], "anthropics/claude-plugins-official");
    expect(commands(own)).toEqual([
      "/plugin marketplace add anthropics/claude-plugins-official",
      "/plugin install claude-code-setup@claude-plugins-official",
    ]);
  });

  test("a line read under an older client's rules is shown on the page with the reason, never to copy", async () => {
    const step = (command: string) => ({
      harness: "claude-code" as const,
      kind: "plugin" as const,
      command,
      env: [],
      from: ".claude-plugin/marketplace.json",
    });
    const details = {
      ...noDetails(),
      works_with: ["claude-code" as const],
      install: [
        { ...step("/plugin marketplace add acme/seo"), kind: "marketplace" as const },
        step("/plugin install claude-seo@acme-seo"),
        step("/plugin install seo-audit@acme-seo"),
      ],
    };
    server = startServer(snapshotInput([plugin("acme/seo", { details })]));
    const page = await (await server!.get("/plugin/acme/seo")).text();
    expect(page).toContain(
      "<strong>Claude Code refuses this line:</strong> plugin name is reserved for Anthropic's own plugins",
    );
    expect(page).toContain("<pre><code>/plugin install claude-seo@acme-seo</code></pre>");
    expect(page).not.toContain("<code>/plugin install claude-seo@acme-seo</code></pre></div>");
    expect(page).toContain(
      '<pre data-copy="the claude-code install command"><code>/plugin install seo-audit@acme-seo</code>',
    );
    expect(page).toContain(
      '<pre data-copy="the claude-code install command"><code>/plugin marketplace add acme/seo</code>',
    );
  });
});

describe("what the author's entry installs beyond its source, served with it", () => {
  const SKILLS = "https://github.com/acme/skills.git";
  /** acme/skills's entries as a refresh stores them, each with what its entry carries (`entry`). */
  function skillsRepo(context = false) {
    const record = marketplacePlugin(
      "acme/skills",
      [
        ["document-skills", "./"],
        ["lint", "./plugins/lint"],
        ["odd", "./plugins/odd"],
        ["self", "acme/skills"],
        ["self-sub", "https://github.com/acme/skills.git//plugins/sub"],
        ["self-pinned", "acme/skills"],
        ["old-self", "acme/skills"],
        ["theirs", "other/repo"],
        ["whole", "./"],
      ],
      { stars: 50 },
      SHA,
    );
    const entries: Record<string, PluginEntry> = {
      "document-skills": { strict: false, skills: ["./skills/xlsx", "./skills/pdf/"], root: "skills" },
      lint: {
        version: "1.2.0",
        strict: true,
        commands: ["./cmds/lint.md"],
        hooks: "./hooks.json",
        mcpServers: "./mcp.json",
      },
      odd: { version: "1.0.0", unserved: "inline hooks, which the catalog does not carry" },
      self: { ref: "v1" },
      "self-sub": {},
      "self-pinned": { sha: SHA.split("").reverse().join("") },
      theirs: {},
      whole: { strict: false, skills: ["./tools/x"] },
    };
    const details = record.details!;
    for (const p of details.contents!.plugins) if (entries[p.name]) p.entry = entries[p.name];
    if (context)
      details.context = {
        components: [{ kind: "skill", name: "skills:xlsx", always_on: 60, on_invoke: 40 }],
        always_on: 60,
        mcp_tools: 0,
        complete: true,
        method: CONTEXT_METHOD,
      };
    return record;
  }

  test("the fields go with the entry; a root skills list from its folder; an entry not carried is left out", async () => {
    server = startServer(snapshotInput([skillsRepo(true)]));
    const all = (await server!.json("/market/claude/marketplace.json")) as {
      plugins: Array<Record<string, unknown> & Served>;
    };
    expectValidMarketplace(all as unknown as Marketplace);
    const fields = [
      "name",
      "source",
      "version",
      "strict",
      "skills",
      "commands",
      "agents",
      "hooks",
      "mcpServers",
      "tags",
    ];
    expect(all.plugins.map((p) => Object.fromEntries(fields.flatMap((k) => (k in p ? [[k, p[k]]] : []))))).toEqual([
      // Its list rebased into the folder it is served from: the client reads a list over an address otherwise.
      {
        name: "document-skills",
        source: { source: "git-subdir", url: SKILLS, path: "skills", sha: SHA },
        strict: false,
        skills: ["./xlsx", "./pdf/"],
      },
      {
        name: "lint",
        source: { source: "git-subdir", url: SKILLS, path: "plugins/lint", sha: SHA },
        version: "1.2.0",
        strict: true,
        commands: ["./cmds/lint.md"],
        hooks: "./hooks.json",
        mcpServers: "./mcp.json",
      },
      // A git source naming the repository itself: its own ref (then no pin of the catalog's) or sha.
      { name: "self", source: { source: "url", url: SKILLS, ref: "v1" } },
      { name: "self-sub", source: { source: "git-subdir", url: SKILLS, path: "plugins/sub", sha: SHA } },
      { name: "self-pinned", source: { source: "url", url: SKILLS, sha: SHA.split("").reverse().join("") } },
      // No skills/ folder under the list: served from the address with it; the root's measured cost is not its own.
      { name: "whole", source: { source: "url", url: SKILLS, sha: SHA }, strict: false, skills: ["./tools/x"] },
    ]);
  });

  test("a record read before entries' fields were kept serves as it did", async () => {
    const record = skillsRepo(true);
    for (const p of record.details!.contents!.plugins) delete p.entry;
    server = startServer(snapshotInput([record]));
    const all = (await server!.json("/market/claude/marketplace.json")) as {
      plugins: Array<Served & { tags?: string[] }>;
    };
    expect(all.plugins.map((p) => [p.name, p.source, p.tags])).toEqual([
      ["document-skills", { source: "url", url: SKILLS, sha: SHA }, ["context-60-tokens"]],
      ["lint", { source: "git-subdir", url: SKILLS, path: "plugins/lint", sha: SHA }, undefined],
      ["odd", { source: "git-subdir", url: SKILLS, path: "plugins/odd", sha: SHA }, undefined],
      ["whole", { source: "url", url: SKILLS, sha: SHA }, ["context-60-tokens"]],
    ]);
  });

  test("sources: a git source of the repository itself only from a record that read its pin", () => {
    expect(sourceOf("a/b", "a/b", SHA, {})).toEqual({ source: "url", url: "https://github.com/a/b.git", sha: SHA });
    expect(sourceOf("a/b", "A/B", undefined, { ref: "dev" })).toEqual({
      source: "url",
      url: "https://github.com/a/b.git",
      ref: "dev",
    });
    expect(sourceOf("a/b", "git@github.com:a/b.git", SHA, {})).toEqual({
      source: "url",
      url: "https://github.com/a/b.git",
      sha: SHA,
    });
    expect(sourceOf("a/b", "a/b//x/y", SHA, {})).toEqual({
      source: "git-subdir",
      url: "https://github.com/a/b.git",
      path: "x/y",
      sha: SHA,
    });
    expect(sourceOf("a/b", "a/b")).toBeNull();
    expect(sourceOf("a/b", "a/b//x/../..", SHA, {})).toBeNull();
    expect(sourceOf("a/b", "https://gitlab.com/a/b.git", SHA, {})).toBeNull();
    expect(sourceOf("a/b", "a/bc", SHA, {})).toBeNull();
    expect(sourceOf("a/b", "./x", SHA, { unserved: "no" })).toBeNull();
  });
});
