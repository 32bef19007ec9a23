/**
 * The repositories only the awesome-claude-code ticker names, with the files their snapshots hold
 * (test/fixtures/ticker-files.json): one whose `.claude/` folders hold agents and skills is found by
 * a search and published on that evidence; a copy of Claude Code's own source, whose package.json
 * names the MCP SDK as the client it is, would be published as an MCP server on that dependency
 * alone, and the editors' exclusion in db/overrides.json keeps it out.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DB_DIR } from "../../src/catalog/model/editorial";
import { readPrevious } from "../../src/catalog/snapshot/previous";
import { tickerFiles } from "../fakes/ticker-files";
import { Env, published } from "./support";

const envs: Env[] = [];
afterEach(() => {
  for (const env of envs.splice(0)) env.stop();
});

const GAME = "Donchitos/Claude-Code-Game-Studios";
const SOURCE_COPY = "oboard/claude-code-rev";
const overrides = (
  JSON.parse(readFileSync(join(DB_DIR, "overrides.json"), "utf8")) as {
    overrides: Record<string, { exclude?: boolean; note?: string }>;
  }
).overrides;

function world(excluded: Record<string, { exclude?: boolean; note?: string }>): Env {
  const e = new Env({
    searches: [{ query: '"claude code" in:name,description stars:>=20' }],
    evidence: JSON.parse(readFileSync(join(DB_DIR, "discovery.json"), "utf8")).evidence,
    overrides: excluded,
  });
  e.github.add(
    { full_name: GAME, stars: 24425, files: tickerFiles(GAME) },
    { full_name: SOURCE_COPY, stars: 3283, files: tickerFiles(SOURCE_COPY) },
  );
  envs.push(e);
  return e;
}

test("the fixture gives each recorded repository its harness files; the source copy only its SDK dependency", () => {
  const game = Object.keys(tickerFiles(GAME));
  expect(game.filter((p) => p.startsWith(".claude/agents/")).length).toBeGreaterThan(10);
  expect(game.filter((p) => p.endsWith("/SKILL.md")).length).toBeGreaterThan(10);
  expect(Object.keys(tickerFiles(SOURCE_COPY))).toEqual(["package.json"]);
  expect(tickerFiles("nobody/unrecorded")).toEqual({});
});

test("found by a search on its own files; the source copy is published only without the editors' exclusion", async () => {
  let env = world({});
  published(await env.refresh());
  const open = [...readPrevious(env.databasePath).plugins.keys()];
  expect(open).toContain(GAME.toLowerCase());
  // Without the editors, the SDK dependency alone makes the client's source an "MCP server".
  expect(open).toContain(SOURCE_COPY.toLowerCase());

  expect(overrides[SOURCE_COPY]).toMatchObject({ exclude: true });
  env = world({ [SOURCE_COPY]: overrides[SOURCE_COPY]! });
  published(await env.refresh());
  const edited = [...readPrevious(env.databasePath).plugins.keys()];
  expect(edited).toContain(GAME.toLowerCase());
  expect(edited).not.toContain(SOURCE_COPY.toLowerCase());
});
