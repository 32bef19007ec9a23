/**
 * marketplace.json: every plugin source kind Claude Code installs, its name rules, and what the
 * CLI would refuse said in the record and counted instead of offered as a command. Expectations
 * follow Claude Code's marketplace reference and `claude plugin validate` (2.1.x).
 */
import { describe, expect, test } from "bun:test";
import { detailsProblem } from "../../../src/catalog/model/details";
import {
  ACCEPTED_SOURCES,
  ALLOWED,
  DUPLICATE,
  IMPERSONATING,
  named,
  REFUSED_SOURCES,
} from "../../fakes/marketplace-cases";
import { commands, json, readRepo } from "./read";

const FILE = ".claude-plugin/marketplace.json";
const market = (name: string, plugins: unknown[]) => ({ [FILE]: json({ name, owner: { name: "Acme" }, plugins }) });
const entry = (name: string, source: unknown) => ({ name, source, description: `The ${name} plugin` });

describe("marketplace plugin sources", () => {
  test("every source kind the CLI accepts is listed with its own install line", () => {
    const read = readRepo({ [FILE]: json(ACCEPTED_SOURCES.manifest) });
    expect(read.refused).toEqual({});
    const c = read.details!.contents!;
    expect(c.plugins.map((p) => [p.name, p.source, p.refused])).toEqual([
      ["root", "./", undefined],
      ["root-slash", "./", undefined],
      ["nested", "./plugins/nested", undefined],
      ["gh", "octo/repo", undefined],
      ["gh-pinned", "octo/repo", undefined],
      ["by-url", "https://gitlab.com/team/plugin.git", undefined],
      ["by-ssh", "git@gitlab.com:team/plugin.git", undefined],
      ["sub", "https://github.com/octo/mono.git//tools/claude-plugin", undefined],
      ["sub-bare", "octo/mono//plugins/sub2", undefined],
      ["from-npm", "npm:@acme/claude-plugin", undefined],
    ]);
    expect(c.marketplace).toEqual({ name: "acme-tools", refused: null });
    expect(commands(read)).toEqual([
      "/plugin marketplace add acme/repo",
      ...c.plugins.map((p) => `/plugin install ${p.name}@acme-tools`),
    ]);
    expect(read.details!.works_with).toEqual(["claude-code"]);
  });

  test("an entry the CLI refuses is listed with the CLI's reason, counted, and has no install line", () => {
    const read = readRepo({ [FILE]: json(REFUSED_SOURCES.manifest) });
    const c = read.details!.contents!;
    expect(Object.fromEntries(c.plugins.map((p) => [`${p.name} ${p.source}`, p.refused ?? null]))).toEqual({
      "good ./good": null,
      "no-prefix unsupported": 'plugin source path does not start with "./", which Claude Code requires',
      "up unsupported": 'plugin source path contains "..", which Claude Code refuses',
      "sub-no-path unsupported": "git-subdir source has no path, which Claude Code requires",
      "pip unsupported": "pip sources are documented but Claude Code does not install them",
      "git unsupported": 'source kind "git" is not a plugin source in Claude Code (it takes "url")',
      "bad-sha unsupported": "plugin source sha is not a full 40-character commit, which Claude Code requires",
      "mystery unsupported": "plugin source kind unknown to Claude Code",
    });
    // Counts are exact: nine entries, eight listed (a name with spaces cannot be named).
    expect(c.counts.plugins).toBe(9);
    expect(read.refused[`manifest ${FILE}: plugin name has spaces, which Claude Code refuses`]).toBe(1);
    expect(read.refused[`manifest ${FILE}: plugin source kind unknown to Claude Code`]).toBe(1);
    expect(commands(read)).toEqual(["/plugin marketplace add acme/repo", "/plugin install good@acme-tools"]);
  });
});

test("a second entry under a name already taken is refused: the CLI installs the first", () => {
  const read = readRepo({ [FILE]: json(DUPLICATE.manifest) });
  expect(read.details!.contents!.plugins.map((p) => [p.source, p.refused ?? null])).toEqual([
    ["./a", null],
    ["./b", "duplicate plugin name in this marketplace; Claude Code installs the first"],
  ]);
  expect(commands(read)).toEqual(["/plugin marketplace add acme/repo", "/plugin install foo@acme-dup"]);
});

describe("marketplace names, as the CLI checks them", () => {
  const nameOf = (name: string, id = "acme/repo") => {
    const read = readRepo({ [FILE]: json(named(name).manifest) }, id);
    return { refused: read.details!.contents!.marketplace?.refused ?? null, commands: commands(read), read };
  };

  test("names impersonating an official marketplace are refused; the CLI has no reserved plugin prefixes", () => {
    for (const name of IMPERSONATING) {
      const { refused, commands, read } = nameOf(name);
      expect({ name, refused }).toEqual({
        name,
        refused: "marketplace name impersonates an official Anthropic marketplace, which Claude Code refuses",
      });
      expect(commands).toEqual([]);
      expect(read.details!.works_with).toEqual([]);
    }
    for (const name of ALLOWED)
      expect({ name, ...nameOf(name) }.commands).toEqual([
        "/plugin marketplace add acme/repo",
        `/plugin install foo@${name}`,
      ]);
  });

  test("an official name passes only from an anthropics repository", () => {
    expect(nameOf("claude-plugins-official").refused).toBe(
      "marketplace name is reserved for Anthropic's own repositories, which Claude Code enforces",
    );
    const other = nameOf("claude-community", "someone/community");
    expect(other.commands).toEqual([]);
    expect(other.read.refused).toEqual({
      "manifest .claude-plugin/marketplace.json: marketplace name is reserved for Anthropic's own repositories, which Claude Code enforces": 1,
    });
    expect(nameOf("claude-plugins-official", "anthropics/claude-plugins-official").commands).toEqual([
      "/plugin marketplace add anthropics/claude-plugins-official",
      "/plugin install foo@claude-plugins-official",
    ]);
  });

  test("spaces, path separators and the CLI's own source names are refused", () => {
    expect(nameOf("acme space").refused).toBe("marketplace name has spaces, which Claude Code refuses");
    expect(nameOf("a/b").refused).toBe("marketplace name has path separators, which Claude Code refuses");
    expect(nameOf("..x").refused).toBe("marketplace name has path separators, which Claude Code refuses");
    expect(nameOf("inline").refused).toBe(
      "marketplace name is reserved for --plugin-dir session plugins in Claude Code",
    );
    expect(nameOf("builtin").refused).toBe("marketplace name is reserved for built-in plugins in Claude Code");
    expect(nameOf("skills-dir").refused).toBe(
      "marketplace name is reserved for plugins auto-loaded from .claude/skills/ in Claude Code",
    );
  });
});

describe("large marketplaces", () => {
  test("every plugin of a 300-plugin marketplace is listed with its own install line, nothing cut", () => {
    const plugins = Array.from({ length: 300 }, (_, i) => entry(`plugin-${i}`, `./plugins/plugin-${i}`));
    const read = readRepo(market("big-market", plugins));
    const c = read.details!.contents!;
    expect(c.plugins).toHaveLength(300);
    expect(c.counts.plugins).toBe(300);
    expect(c.truncated).toBeUndefined();
    expect(commands(read)).toHaveLength(301);
    expect(commands(read)[300]).toBe("/plugin install plugin-299@big-market");
  });

  test("past the list limit the record says the list was cut, and counts stay exact", () => {
    const plugins = Array.from({ length: 700 }, (_, i) => entry(`plugin-${i}`, `./plugins/plugin-${i}`));
    const c = readRepo(market("huge-market", plugins)).details!;
    expect(c.contents!.plugins).toHaveLength(500);
    expect(c.contents!.counts.plugins).toBe(700);
    expect(c.contents!.truncated).toEqual(["plugins", "install"]);
    expect(c.install).toHaveLength(520);
  });
});

describe("what an entry installs beyond its source", () => {
  const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`;
  const SKILLS = { "skills/xlsx/SKILL.md": skill("xlsx"), "skills/pdf/SKILL.md": skill("pdf") };
  const read = (plugins: unknown[], files: Record<string, string> = SKILLS) =>
    readRepo({ ...files, ...market("acme-skills", plugins) });
  const entries = (r: ReturnType<typeof read>) => r.details!.contents!.plugins.map((p) => p.entry);

  test("anthropics/skills: each root entry keeps strict and its skills list, served from the skills folder", () => {
    const r = read([
      { name: "document-skills", source: "./", strict: false, skills: ["./skills/xlsx", "./skills/pdf"] },
      { name: "pdf-only", source: "./", strict: false, skills: ["./skills/pdf/"] },
    ]);
    expect(entries(r)).toEqual([
      { strict: false, skills: ["./skills/xlsx", "./skills/pdf"], root: "skills" },
      { strict: false, skills: ["./skills/pdf/"], root: "skills" },
    ]);
    expect(r.refused).toEqual({});
  });

  test("a folder plugin's fields are kept as written; a git source's ref and sha; nothing to carry, no entry", () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const r = read([
      {
        name: "lint",
        source: "./plugins/lint",
        version: "1.2.0",
        strict: true,
        commands: ["./cmds/lint.md", "./cmds/fix/"],
        agents: "./agents/critic.md",
        hooks: "./config/hooks.json",
        mcpServers: ["./servers.json"],
      },
      { name: "plain", source: "./plugins/plain", description: "Nothing more" },
      { name: "pinned", source: { source: "url", url: "https://github.com/acme/repo.git", ref: "v1", sha } },
      { name: "bare", source: { source: "github", repo: "acme/repo" } },
    ]);
    expect(entries(r)).toEqual([
      {
        version: "1.2.0",
        strict: true,
        commands: ["./cmds/lint.md", "./cmds/fix/"],
        agents: "./agents/critic.md",
        hooks: "./config/hooks.json",
        mcpServers: ["./servers.json"],
      },
      undefined,
      { ref: "v1", sha },
      // Read, with nothing pinned: a git source always says what its pin was.
      {},
    ]);
    expect(r.details!.contents!.plugins[1]).not.toHaveProperty("entry");
  });

  test("a field the catalog cannot carry as it is leaves the entry unserved, with the reason, counted", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hooks: { PreToolUse: [] } }, "inline hooks, which the catalog does not carry"],
      [{ mcpServers: { db: { command: "node" } } }, "inline mcpServers, which the catalog does not carry"],
      [{ commands: { hi: { source: "./hi.md" } } }, "inline commands, which the catalog does not carry"],
      [
        { skills: ["./skills/../etc"] },
        'a skills path not taken: "./…" inside the plugin\'s folder, without ".." or "."',
      ],
      [{ agents: "agents/a.md" }, 'a agents path not taken: "./…" inside the plugin\'s folder, without ".." or "."'],
      [{ skills: [] }, "skills is not a path or a list of paths"],
      [{ skills: Array.from({ length: 101 }, (_, i) => `./s/${i}`) }, "more than 100 skills paths"],
      [{ strict: "no" }, "strict is not true or false"],
      [{ version: "1.0 beta" }, "version not taken"],
      [{ outputStyles: "./styles" }, "outputStyles, which the catalog does not carry"],
      [{ lspServers: "./.lsp.json" }, "lspServers, which the catalog does not carry"],
    ];
    const r = read(cases.map(([fields], i) => ({ name: `p${i}`, source: `./plugins/p${i}`, ...fields })));
    expect(entries(r).map((e) => e?.unserved)).toEqual(cases.map(([, reason]) => reason));
    const counted = `manifest ${FILE}: entry not served by the catalog: ${cases[0]![1]}`;
    expect(r.refused[counted]).toBe(1);
    // Still listed and installable from the author's marketplace: only the catalog's leaves it out.
    expect(commands(r).filter((c) => c.startsWith("/plugin"))).toHaveLength(cases.length + 1);
  });

  test("a root skills list is served as it is, from its folder, or not at all, as the root allows", () => {
    const scoped = { name: "docs", source: "./", strict: false, skills: ["./skills/xlsx"] };
    const rootOf = (files: Record<string, string>, entry: Record<string, unknown> = scoped) =>
      read([entry], files).details!.contents!.plugins[0]!.entry;
    // No skills/ folder, or a list that names skills/ or the root: the repository's address loads the same.
    expect(rootOf({ "tools/xlsx/SKILL.md": skill("xlsx") }, { ...scoped, skills: ["./tools/xlsx"] })).toEqual({
      strict: false,
      skills: ["./tools/xlsx"],
    });
    expect(rootOf(SKILLS, { ...scoped, skills: ["./skills/", "./extra"] })).toEqual({
      strict: false,
      skills: ["./skills/", "./extra"],
    });
    expect(rootOf(SKILLS, { ...scoped, skills: "./" })).toEqual({ strict: false, skills: "./" });
    // Other root components the client loads beside the list: none of it can be served from the folder.
    expect(rootOf({ ...SKILLS, "commands/go.md": "Go.\n" })?.unserved).toBe(
      "a root entry with a skills list beside other root components the client loads by default",
    );
    expect(rootOf({ ...SKILLS, ".mcp.json": json({ mcpServers: {} }) })?.unserved).toBeDefined();
    expect(rootOf(SKILLS, { ...scoped, skills: ["./skills/xlsx", "./tools/pdf"] })?.unserved).toBe(
      "a root entry whose skills list lies outside one skills folder",
    );
    expect(rootOf({ ...SKILLS, "skills/commands/x.md": "A command.\n" })?.unserved).toBe(
      "a root entry whose skills folder skills/ holds what the client loads by default",
    );
    expect(
      rootOf(
        { ...SKILLS, ".claude/skills/xlsx/SKILL.md": skill("xlsx") },
        { ...scoped, skills: ["./.claude/skills/xlsx"] },
      ),
    ).toEqual({ strict: false, skills: ["./.claude/skills/xlsx"], root: ".claude/skills" });
  });

  test("a refused entry carries nothing", () => {
    const r = read([{ name: "up", source: "../elsewhere", strict: false, skills: ["./skills/xlsx"] }]);
    expect(r.details!.contents!.plugins[0]).toEqual({
      name: "up",
      source: "unsupported",
      description: null,
      refused: 'plugin source path contains "..", which Claude Code refuses',
    });
  });
});

test("the stored record holds an entry to the same rules when read back; one without an entry is as before", () => {
  const base = readRepo(market("acme-skills", [{ name: "lint", source: "./plugins/lint", version: "1.0.0" }])).details!;
  expect(detailsProblem(base)).toBeNull();
  const withEntry = (entry: unknown) => ({
    ...base,
    contents: { ...base.contents!, plugins: [{ ...base.contents!.plugins[0]!, entry }] },
  });
  expect(detailsProblem(withEntry({ skills: ["./skills/x"], root: "skills" }))).toBeNull();
  const { entry: _, ...old } = base.contents!.plugins[0]!;
  expect(detailsProblem({ ...base, contents: { ...base.contents!, plugins: [old] } })).toBeNull();
  for (const bent of [
    { skills: ["./skills/../../etc"] },
    { skills: ["skills/x"] },
    { hooks: { PreToolUse: [] } },
    { root: "../up" },
    { sha: "abc" },
    { strict: "false" },
    { extra: true },
  ])
    expect({ bent, problem: detailsProblem(withEntry(bent)) }).toEqual({
      bent,
      problem: expect.stringContaining("does not match the schema"),
    });
});
