/**
 * The Claude Code marketplaces over real HTTP: which plugins are entries (originals inside listed
 * repositories), their sources, names unique in every marketplace, one per category, the picks,
 * and the rules Claude Code's validator applies to a marketplace (name, owner, sources).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { sourceOf } from "../../src/market/claude/marketplaces";
import { marketplacePlugin, plugin, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const SHA = "0123456789abcdef0123456789abcdef01234567";

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
    if (p.source.source === "github") expect(p.source.repo).toMatch(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/);
    else {
      expect(p.source.source).toBe("git-subdir");
      expect(p.source.url).toMatch(/^[a-zA-Z0-9-_.]+\/[a-zA-Z0-9-_.]+$/);
      expect(p.source.path ?? "").not.toBe("");
      expect(p.source.path).not.toContain("..");
    }
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
      ["tool-acme", { source: "git-subdir", url: "acme/market", path: "plugins/tool", sha: SHA }],
      ["root", { source: "github", repo: "acme/market", sha: SHA }],
      ["tool-beta-market-tool", { source: "git-subdir", url: "beta/market", path: "tool" }],
      ["tool-beta-again-tool", { source: "git-subdir", url: "beta/again", path: "tool" }],
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

  test("sources: the root, a folder, never a path out of the repository or another repository", () => {
    expect(sourceOf("a/b", ".")).toEqual({ source: "github", repo: "a/b" });
    expect(sourceOf("a/b", "./x/y/")).toEqual({ source: "git-subdir", url: "a/b", path: "x/y" });
    expect(sourceOf("a/b", "./x/../..")).toBeNull();
    expect(sourceOf("a/b", "c/d")).toBeNull();
    expect(sourceOf("a/b", "https://example.com/x.git")).toBeNull();
    expect(sourceOf("a/b", "./", SHA)).toEqual({ source: "github", repo: "a/b", sha: SHA });
    expect(sourceOf("a/b", "./x", "ABC")).toEqual({ source: "git-subdir", url: "a/b", path: "x" });
  });
});
