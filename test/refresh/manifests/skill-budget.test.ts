/**
 * The follow-up query that reads skill folders' SKILL.md files is one query per batch of 100
 * repositories while their skills fit its cap, a query more for each that does not, up to the
 * rounds' limit: past it, the last query's files are shared evenly, and the folders left unread
 * are still named. A real refresh against the fake platform, served by the real app.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { packRounds, ROUNDS_PER_FOLLOW_UP } from "../../../src/refresh/fetch/fair-share";
import { fairShare, SKILL_FILES_PER_QUERY, SKILL_LISTS_PER_QUERY } from "../../../src/refresh/fetch/fetch-graphql";
import { Env, published } from "../support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n`;

/** `count` skill packs of 50 skills each, found by their topic. */
function packs(count: number): Env {
  const run = new Env({ searches: [{ query: "topic:agent-skills" }] });
  env = run;
  for (let r = 0; r < count; r++) {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`skills/skill-${i}/SKILL.md`] = skill(`skill-${i}`);
    run.github.add({ full_name: `pack${r}/skills`, topics: ["agent-skills"], files });
  }
  return run;
}

interface Pack {
  contents: { counts: { skills: number }; skills: Array<{ name: string }> };
  install: unknown[];
}

async function pluginOf(run: Env, id: string): Promise<Pack> {
  const server = run.serve();
  const response = await fetch(`${server.url}/api/v1/plugins/${id}?include=contents,install`);
  return ((await response.json()) as { data: { plugin: Pack } }).data.plugin;
}

describe("the skills follow-up query", () => {
  test("shares its files evenly and never reads more than its limit", () => {
    expect(fairShare([50, 50, 3], 60)).toBe(28);
    expect(fairShare([5, 5], 1000)).toBe(5);
    expect(fairShare(Array(100).fill(500), SKILL_FILES_PER_QUERY)).toBe(10);
  });

  test("packs repositories into queries in order, a big one alone, at most the rounds' limit", () => {
    const one = (n: number) => [n];
    expect(packRounds([600, 300, 200, 1500, 5], one, [1000])).toEqual([[600, 300], [200], [1500], [5]]);
    expect(packRounds([900, 900, 900, 900, 900, 900], one, [1000])).toEqual([[900], [900], [900], [900, 900, 900]]);
    expect(packRounds([5, 5], one, [1000])).toEqual([[5, 5]]);
    expect(packRounds([], one, [1000])).toEqual([]);
    // Every cap holds: two kinds of reads, the second one full.
    expect(
      packRounds(
        [
          [1, 150],
          [1, 100],
          [1, 10],
        ],
        (r) => r,
        [1000, 200],
      ),
    ).toEqual([
      [[1, 150]],
      [
        [1, 100],
        [1, 10],
      ],
    ]);
  });

  test("thirty 50-skill packs cost two follow-up queries, and every skill is read", async () => {
    const run = packs(30);
    const report = published(await run.refresh());
    // 1,500 SKILL.md files: 20 packs fill the first query's 1,000, the other 10 a second one.
    expect(report.usage.skillQueries).toBe(2);
    expect(report.usage.calls.graphql).toBe(3);
    const plugin = await pluginOf(run, "pack27/skills");
    expect(plugin.contents.counts.skills).toBe(50);
    expect(plugin.contents.skills.map((s: { name: string }) => s.name).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `skill-${i}`).sort(),
    );
    expect(plugin.install).toHaveLength(50);
  });

  test("past the rounds' limit the last query shares its files evenly, and every skill is still named", async () => {
    const run = packs(100);
    const report = published(await run.refresh());
    expect(report.usage.skillQueries).toBe(ROUNDS_PER_FOLLOW_UP);
    // Three queries of 20 packs each; the last holds the other 40, 1,000 files shared by them.
    const last = await pluginOf(run, "pack99/skills");
    expect(last.contents.counts.skills).toBe(50);
    expect(last.install).toHaveLength(fairShare(Array(40).fill(50), SKILL_FILES_PER_QUERY));
    expect((await pluginOf(run, "pack0/skills")).install).toHaveLength(50);
  }, 60_000);

  test("plugin folders outside plugins/ are listed in the follow-up queries, within each one's listings", async () => {
    const run = new Env({ searches: [{ query: "topic:agent-skills" }] });
    env = run;
    for (let r = 0; r < 60; r++) {
      const files: Record<string, string> = {};
      const plugins = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}`, source: `./kit/p${i}` }));
      files[".claude-plugin/marketplace.json"] = JSON.stringify({ name: `market-${r}`, owner: { name: "x" }, plugins });
      for (let i = 0; i < 5; i++) files[`kit/p${i}/skills/s${i}/SKILL.md`] = skill(`s${i}`);
      run.github.add({ full_name: `market${r}/kit`, topics: ["agent-skills"], files });
    }
    const report = published(await run.refresh());
    // 300 plugin skills folders to list, 200 a query: 40 repositories in the first follow-up, 20 in a
    // second, then the round reading those plugins' files for their context cost.
    expect(report.usage.skillQueries).toBe(2);
    expect(report.usage.calls.graphql).toBe(4);
    expect(report.usage.pluginFileQueries).toBe(1);
    const server = run.serve();
    const response = await fetch(`${server.url}/api/v1/plugins/market57/kit?include=contents`);
    const { skills } = ((await response.json()) as { data: { plugin: { contents: { skills: unknown[] } } } }).data
      .plugin.contents;
    expect(fairShare(Array(60).fill(5), SKILL_LISTS_PER_QUERY)).toBeLessThan(5);
    expect(skills).toHaveLength(5);
    expect(skills[0]).toMatchObject({ name: "s0", description: null, path: "kit/p0/skills/s0" });
  });
});
