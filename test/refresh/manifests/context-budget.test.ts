/**
 * Reading the command and agent files a plugin's context needs costs no query of its own: they
 * ride in the skills follow-up query, one per batch of 100 repositories at most, their files
 * shared evenly. A real refresh against the fake platform, served by the real app.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { PluginContext } from "../../../src/catalog/model/context-cost";
import { ROUNDS_PER_FOLLOW_UP } from "../../../src/refresh/fetch/fair-share";
import { fairShare } from "../../../src/refresh/fetch/fetch-graphql";
import { CONTEXT_FILES_PER_QUERY } from "../../../src/refresh/manifests/context-files";
import { Env, published } from "../support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const plugin = (name: string, commands: number, agents: number, skills: number) => {
  const files: Record<string, string> = {
    ".claude-plugin/plugin.json": JSON.stringify({ name, version: "1.0.0" }),
  };
  for (let i = 0; i < commands; i++) files[`commands/cmd-${i}.md`] = `---\ndescription: Command ${i}\n---\nDo ${i}.\n`;
  for (let i = 0; i < agents; i++) files[`agents/agent-${i}.md`] = `---\ndescription: Agent ${i}\n---\nYou are ${i}.\n`;
  for (let i = 0; i < skills; i++)
    files[`skills/skill-${i}/SKILL.md`] = `---\nname: skill-${i}\ndescription: Skill ${i}\n---\nBody.\n`;
  return files;
};

async function contextOf(url: string, id: string): Promise<PluginContext> {
  const response = await fetch(`${url}/api/v1/plugins/${id}?include=context`);
  return ((await response.json()) as { data: { plugin: { context: PluginContext } } }).data.plugin.context;
}

describe("the context files' budget", () => {
  test("150 plugins with commands and agents cost one follow-up query per batch of 100", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    for (let r = 0; r < 150; r++)
      run.github.add({
        full_name: `team${r}/kit`,
        topics: ["claude-code-plugin"],
        files: plugin(`kit${r}`, 4, 2, r % 3),
      });
    const report = published(await run.refresh());
    // Two batches of repositories, and at most one follow-up query each.
    expect(report.usage.skillQueries).toBe(2);
    expect(report.usage.calls.graphql).toBeLessThanOrEqual(4);
    const server = run.serve();
    const context = await contextOf(server.url, "team7/kit");
    expect(context.complete).toBe(true);
    expect(context.components.map((c): string => c.kind).sort()).toEqual(
      ["agent", "agent", "command", "command", "command", "command", "skill"].sort(),
    );
    // "kit7:cmd-0 Command 0" is 20 characters: 5 tokens.
    expect(context.components.find((c) => c.name === "kit7:cmd-0")?.always_on).toBe(5);
  }, 60_000);

  test("big plugins get follow-up queries of their own, up to the rounds' limit; past it, one is read in part and said to be", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    // 900 commands are listed up to the cap of 500, with 300 agents: 800 files each, so no two fit one query.
    const owners = ["a", "b", "c", "d", "e"];
    for (const owner of owners)
      run.github.add({ full_name: `${owner}/kit`, topics: ["claude-code-plugin"], files: plugin(owner, 900, 300, 0) });
    run.github.add({ full_name: "small/kit", topics: ["claude-code-plugin"], files: plugin("small", 3, 1, 0) });
    const report = published(await run.refresh());
    expect(report.usage.skillQueries).toBe(ROUNDS_PER_FOLLOW_UP);
    const server = run.serve();
    // The first ones had a query each: every file the listing named was read.
    const first = await contextOf(server.url, "a/kit");
    expect(first.components.length).toBe(800);
    // The last query holds what is left, shared fairly: read in part, and said to be.
    const last = await contextOf(server.url, "e/kit");
    expect(last.complete).toBe(false);
    expect(last.components.length).toBe(fairShare([800, 800, 4], CONTEXT_FILES_PER_QUERY));
    expect(last.components.filter((c) => c.kind === "command").length).toBe(last.components.length);
    expect((await contextOf(server.url, "small/kit")).complete).toBe(true);
  }, 60_000);

  test("a file name with direction characters is not kept, and the inventory is said partial", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    const files = plugin("odd", 1, 1, 0);
    files["agents/tool\u202Egnp.md"] = "---\ndescription: Looks like another name.\n---\n";
    run.github.add({ full_name: "odd/kit", topics: ["claude-code-plugin"], files });
    published(await run.refresh());
    const context = await contextOf(run.serve().url, "odd/kit");
    expect(context.components.map((c) => c.name).sort()).toEqual(["agent-0", "odd:cmd-0"]);
    expect(context.complete).toBe(false);
  }, 60_000);
});
