/**
 * The real Claude Code CLI judges the marketplaces the catalog serves, offline: the server runs on
 * the embedded default snapshot (over a thousand real plugins), on a small catalog pinned to
 * commits and on one planted with names the client reserves for Anthropic and renames that would
 * collide; every served marketplace document passes `claude plugin validate` with no error, and
 * `claude plugin marketplace add http://127.0.0.1:<port>/…/marketplace.json` adds it from the URL.
 * Every git source served is one the client clones over https without credentials.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { claude, validateErrors } from "../claude-cli";
import { startGitHost } from "../fakes/git-http";
import { PLANTED_RESERVED, reservedCatalog } from "../fakes/reserved-names";
import { marketplacePlugin, snapshotInput, startServer, type TestServer } from "../helpers";

const root = mkdtempSync(join(tmpdir(), "claude-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SHA = "89abcdef0123456789abcdef0123456789abcdef";

/** A small catalog whose entries are pinned, in folders, and renamed apart. */
function pinned() {
  return snapshotInput([
    marketplacePlugin(
      "acme/market",
      [
        ["lint", "./plugins/lint"],
        ["acme", "./"],
      ],
      { curated: true },
      SHA,
    ),
    marketplacePlugin("beta/market", [["lint", "./lint"]], { curated: true }, SHA.split("").reverse().join("")),
  ]);
}

/** The paths of every marketplace the server serves: all, the picks, one per category. */
async function marketplacePaths(server: TestServer): Promise<string[]> {
  const categories = (await server.json("/api/v1/categories")) as { data: { items: Array<{ id: string }> } };
  return [
    "/market/claude/marketplace.json",
    "/market/claude/picks/marketplace.json",
    ...categories.data.items.map((c) => `/market/claude/categories/${c.id}/marketplace.json`),
  ];
}

/**
 * The sources of a document the client would clone over SSH, which fails for a user without a key:
 * a `github` source, a bare `owner/repo` or a `git@` address (every served one must be https).
 */
function sshSources(text: string): unknown[] {
  const doc = JSON.parse(text) as { plugins: Array<{ source: { source: string; url?: string } }> };
  return doc.plugins
    .map((p) => p.source)
    .filter(
      (s) =>
        !["url", "git-subdir"].includes(s.source) || !/^https:\/\/github\.com\/[^/]+\/[^/]+\.git$/.test(s.url ?? ""),
    );
}

/** What the CLI says of one served document: its validation errors, and whether it was added from its URL. */
async function judge(server: TestServer, path: string, i: number) {
  const text = await (await server.get(path)).text();
  const file = join(root, `served-${i}.json`);
  writeFileSync(file, text);
  const validated = await claude(root, ["plugin", "validate", file]);
  const added = await claude(root, ["plugin", "marketplace", "add", `${server.url}${path}`]);
  const name = (JSON.parse(text) as { name: string }).name;
  const known = JSON.parse(readFileSync(join(added.home, ".claude/plugins/known_marketplaces.json"), "utf8"));
  return {
    path,
    exit: validated.code,
    errors: validateErrors(validated.out),
    added: added.code === 0 && /Successfully added marketplace/.test(added.out),
    known: Object.keys(known).includes(name),
    ssh: sshSources(text),
  };
}

async function judgeAll(server: TestServer, only?: string[]): Promise<Array<Awaited<ReturnType<typeof judge>>>> {
  const paths = only ?? (await marketplacePaths(server));
  const judged: Array<Awaited<ReturnType<typeof judge>>> = [];
  for (let i = 0; i < paths.length; i += 4)
    judged.push(...(await Promise.all(paths.slice(i, i + 4).map((p, k) => judge(server, p, i + k)))));
  return judged;
}

const passed = (path: string) => ({ path, exit: 0, errors: [], added: true, known: true, ssh: [] });

describe("the real Claude Code CLI on the served marketplaces", () => {
  test(
    "the embedded default: every document validates with no error and is added from its loopback URL",
    async () => {
      const server = startServer(defaultSnapshotInput());
      try {
        const all = (await server.json("/market/claude/marketplace.json")) as { plugins: unknown[] };
        // Not vacuous: the default lists hundreds of Claude Code plugins.
        expect(all.plugins.length).toBeGreaterThan(500);
        const judged = await judgeAll(server);
        expect(judged.length).toBeGreaterThan(3);
        expect(judged).toEqual(judged.map((j) => passed(j.path)));
      } finally {
        await server.stop();
      }
    },
    { timeout: 180_000 },
  );

  test(
    "a catalog pinned to commits: sha, git-subdir and renamed entries pass too",
    async () => {
      const server = startServer(pinned());
      try {
        const all = (await server.json("/market/claude/marketplace.json")) as {
          plugins: Array<{ name: string; source: { sha?: string } }>;
        };
        expect(all.plugins.map((p) => [p.name, p.source.sha])).toEqual([
          ["lint-acme", SHA],
          ["acme", SHA],
          ["lint-beta", SHA.split("").reverse().join("")],
        ]);
        // Its categories are empty but for one: the two documents with entries are the ones to judge.
        const judged = await judgeAll(server, [
          "/market/claude/marketplace.json",
          "/market/claude/picks/marketplace.json",
        ]);
        expect(judged).toEqual(judged.map((j) => passed(j.path)));
      } finally {
        await server.stop();
      }
    },
    { timeout: 60_000 },
  );
  test(
    "names the client reserves are left out and renames never collide: every document passes",
    async () => {
      const server = startServer(reservedCatalog(SHA));
      try {
        const all = (await server.json("/market/claude/marketplace.json")) as { plugins: Array<{ name: string }> };
        const names = all.plugins.map((p) => p.name);
        for (const name of PLANTED_RESERVED) expect(names).not.toContain(name);
        expect(names).toEqual(["lint-acme-market-plugins-lint", "kept", "lint-beta", "lint-acme", "tool-delta"]);
        const judged = await judgeAll(server, [
          "/market/claude/marketplace.json",
          "/market/claude/picks/marketplace.json",
          "/market/claude/categories/skills/marketplace.json",
        ]);
        expect(judged).toEqual(judged.map((j) => passed(j.path)));
      } finally {
        await server.stop();
      }
    },
    { timeout: 60_000 },
  );

  test("the SSH check finds what it is for: a github source, a bare owner/repo, a git@ address", () => {
    const doc = (source: unknown) => JSON.stringify({ plugins: [{ source }] });
    expect(sshSources(doc({ source: "github", repo: "a/b" }))).toHaveLength(1);
    expect(sshSources(doc({ source: "git-subdir", url: "a/b", path: "x" }))).toHaveLength(1);
    expect(sshSources(doc({ source: "url", url: "git@github.com:a/b.git" }))).toHaveLength(1);
    expect(sshSources(doc({ source: "url", url: "https://github.com/a/b.git" }))).toEqual([]);
  });
  test(
    "installed from the served marketplace: each https source clones anonymously, pinned, root and folder alike",
    async () => {
      const host = startGitHost();
      const plugin = (name: string) => JSON.stringify({ name, version: "1.0.0", description: `The ${name} plugin.` });
      const acme = host.repository("acme/market", {
        ".claude-plugin/plugin.json": plugin("kept"),
        "commands/hello.md": "Say hello.\n",
        "plugins/lint/.claude-plugin/plugin.json": plugin("lint"),
        "plugins/lint/commands/lint.md": "Lint the change.\n",
      });
      const beta = host.repository("beta/market", { "lint/.claude-plugin/plugin.json": plugin("lint") });
      const server = startServer(
        snapshotInput([
          marketplacePlugin(
            "acme/market",
            [
              ["kept", "./"],
              ["lint", "./plugins/lint"],
            ],
            { curated: true },
            acme,
          ),
          marketplacePlugin("beta/market", [["lint", "./lint"]], {}, beta),
        ]),
      );
      try {
        const home = mkdtempSync(join(root, "home-"));
        writeFileSync(join(home, ".gitconfig"), host.gitConfig);
        const run = (args: string[]) => claude(root, args, home);
        const added = await run(["plugin", "marketplace", "add", `${server.url}/market/claude/marketplace.json`]);
        expect({ code: added.code, out: added.out }).toMatchObject({ code: 0 });
        const ids = ["kept@plugin-catalog", "lint-acme@plugin-catalog", "lint-beta@plugin-catalog"];
        for (const id of ids) {
          const installed = await run(["plugin", "install", id]);
          expect({ id, code: installed.code, out: installed.out }).toEqual({
            id,
            code: 0,
            out: expect.stringContaining(`Successfully installed plugin: ${id}`),
          });
        }
        const listed = JSON.parse((await run(["plugin", "list", "--json"])).out) as Array<{ id: string }>;
        expect(listed.map((p) => p.id)).toEqual(expect.arrayContaining(ids));
        // Cloned from the served https addresses, over git's smart HTTP, with no credential asked.
        expect(host.asked).toEqual(
          expect.arrayContaining(["/acme/market.git/info/refs", "/beta/market.git/info/refs"]),
        );
        // The same repository as a `github` source is cloned over SSH (git@github.com:…): without a key, it fails.
        const local = join(root, "github-form");
        mkdirSync(join(local, ".claude-plugin"), { recursive: true });
        const entries = [{ name: "over-ssh", source: { source: "github", repo: "acme/market", sha: acme } }];
        const manifest = { name: "github-form", owner: { name: "Acme" }, description: "d", plugins: entries };
        writeFileSync(join(local, ".claude-plugin/marketplace.json"), JSON.stringify(manifest));
        expect((await run(["plugin", "marketplace", "add", local])).code).toBe(0);
        const overSsh = await run(["plugin", "install", "over-ssh@github-form"]);
        expect({ code: overSsh.code, ssh: /Could not read from remote repository/.test(overSsh.out) }).toEqual({
          code: 1,
          ssh: true,
        });
      } finally {
        await server.stop();
        await host.stop();
      }
    },
    { timeout: 120_000 },
  );
});
