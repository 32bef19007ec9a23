/**
 * The follow-up query that reads skill folders' SKILL.md files stays one query per batch of 100
 * repositories, however many skills they hold: its files are shared evenly, and the folders left
 * unread are still named. A real refresh against the fake platform, served by the real app.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { fairShare, SKILL_FILES_PER_QUERY, SKILL_LISTS_PER_QUERY } from "../../../src/refresh/fetch/fetch-graphql";
import { Env, published } from "../support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n`;

describe("the skills follow-up query", () => {
  test("shares its files evenly and never reads more than its limit", () => {
    expect(fairShare([50, 50, 3], 60)).toBe(28);
    expect(fairShare([5, 5], 1000)).toBe(5);
    expect(fairShare(Array(100).fill(500), SKILL_FILES_PER_QUERY)).toBe(10);
  });

  test("thirty 50-skill packs cost one follow-up query, and every skill is named", async () => {
    const run = new Env({ searches: [{ query: "topic:agent-skills" }] });
    env = run;
    for (let r = 0; r < 30; r++) {
      const files: Record<string, string> = {};
      for (let i = 0; i < 50; i++) files[`skills/skill-${i}/SKILL.md`] = skill(`skill-${i}`);
      run.github.add({ full_name: `pack${r}/skills`, topics: ["agent-skills"], files });
    }
    const report = published(await run.refresh());
    expect(report.usage.skillQueries).toBe(1);
    expect(report.usage.calls.graphql).toBe(2);
    const server = run.serve();
    const response = await fetch(`${server.url}/api/v1/plugins/pack7/skills?include=contents,install`);
    const plugin = (
      (await response.json()) as {
        data: {
          plugin: { contents: { counts: { skills: number }; skills: Array<{ name: string }> }; install: unknown[] };
        };
      }
    ).data.plugin;
    expect(plugin.contents.counts.skills).toBe(50);
    expect(plugin.contents.skills.map((s: { name: string }) => s.name).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `skill-${i}`).sort(),
    );
    // 1000 files shared by 30 repositories: 33 each read, with their install lines.
    expect(plugin.install).toHaveLength(fairShare(Array(30).fill(50), SKILL_FILES_PER_QUERY));
  });

  test("plugin folders outside plugins/ are listed in the same follow-up query, within its share of listings", async () => {
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
    // The batch, its follow-up listing the plugin folders, and the round reading those plugins' files for their context cost.
    expect(report.usage.calls.graphql).toBe(3);
    expect(report.usage.pluginFileQueries).toBe(1);
    const server = run.serve();
    const response = await fetch(`${server.url}/api/v1/plugins/market7/kit?include=contents`);
    const { skills } = ((await response.json()) as { data: { plugin: { contents: { skills: unknown[] } } } }).data
      .plugin.contents;
    // 300 plugin folders asked, 200 listed: each repository lists its fair share, named by folder.
    const share = fairShare(Array(60).fill(5), SKILL_LISTS_PER_QUERY);
    expect(share).toBeLessThan(5);
    expect(skills).toHaveLength(share);
    expect(skills[0]).toMatchObject({ name: "s0", description: null, path: "kit/p0/skills/s0" });
  });
});
