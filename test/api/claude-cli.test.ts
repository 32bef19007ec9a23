/**
 * The real Claude Code CLI judges the marketplaces the catalog serves, offline: the server runs on
 * the embedded default snapshot (over a thousand real plugins) and on a small catalog pinned to
 * commits; every served marketplace document passes `claude plugin validate` with no error, and
 * `claude plugin marketplace add http://127.0.0.1:<port>/…/marketplace.json` adds it from the URL.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { claude, validateErrors } from "../claude-cli";
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
  };
}

async function judgeAll(server: TestServer, only?: string[]): Promise<Array<Awaited<ReturnType<typeof judge>>>> {
  const paths = only ?? (await marketplacePaths(server));
  const judged: Array<Awaited<ReturnType<typeof judge>>> = [];
  for (let i = 0; i < paths.length; i += 4)
    judged.push(...(await Promise.all(paths.slice(i, i + 4).map((p, k) => judge(server, p, i + k)))));
  return judged;
}

const passed = (path: string) => ({ path, exit: 0, errors: [], added: true, known: true });

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
});
