/**
 * Each marketplace plugin's own context cost, through a real refresh against the fake platform and
 * served by the real app: the command, agent and SKILL.md files its folder holds are read in one
 * more follow-up query per batch of 100 repositories at most (only for a batch holding such
 * folders), their files shared evenly; a plugin whose files were past its share says so.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { PluginContextSummary } from "../../../src/catalog/model/context-cost";
import { Env, published } from "../support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

/** One plugin folder's files: `commands` commands, an agent, two skills under `skills/`. */
function folder(at: string, name: string, commands: number): Record<string, string> {
  const files: Record<string, string> = {
    [`${at}/.claude-plugin/plugin.json`]: JSON.stringify({ name, version: "1.0.0" }),
    [`${at}/agents/helper.md`]: "---\ndescription: Helps\n---\nYou help.\n",
    [`${at}/skills/alpha/SKILL.md`]: "---\nname: alpha\ndescription: Alpha\n---\nBody.\n",
    [`${at}/skills/beta/SKILL.md`]: "---\nname: beta\ndescription: Beta\n---\nBody.\n",
  };
  for (let i = 0; i < commands; i++) files[`${at}/commands/c${i}.md`] = `---\ndescription: Command ${i}\n---\nDo.\n`;
  return files;
}

/** A marketplace of `plugins` plugins, half under `plugins/`, half under `tools/` (listed by the follow-up). */
function marketplace(owner: string, plugins: number, commands: number): Record<string, string> {
  const entries = Array.from({ length: plugins }, (_, i) => ({
    name: `p${i}`,
    source: i % 2 === 0 ? `./plugins/p${i}` : `./tools/p${i}`,
  }));
  const files: Record<string, string> = {
    ".claude-plugin/marketplace.json": JSON.stringify({
      name: `${owner}-market`,
      owner: { name: owner },
      plugins: entries,
    }),
  };
  for (const e of entries) Object.assign(files, folder(e.source.slice(2), e.name, commands));
  return files;
}

type Plugins = Array<{ name: string; context?: PluginContextSummary }>;
async function pluginsOf(url: string, id: string): Promise<Plugins> {
  const body = (await (await fetch(`${url}/api/v1/plugins/${id}?include=contents`)).json()) as {
    data: { plugin: { contents: { plugins: Plugins } } };
  };
  return body.data.plugin.contents.plugins;
}

describe("each marketplace plugin's context cost", () => {
  test("20 marketplaces among 150 repositories cost one more query per batch holding them, and each plugin has its figure", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    for (let r = 0; r < 150; r++) {
      const files =
        r % 10 === 0
          ? marketplace(`team${r}`, 8, 3)
          : { ".claude-plugin/plugin.json": JSON.stringify({ name: `kit${r}` }), "commands/go.md": "Go.\n" };
      run.github.add({ full_name: `team${r}/kit`, topics: ["claude-code-plugin"], files });
    }
    const report = published(await run.refresh());
    // Two batches: each a query of repositories, a skills follow-up, and one query of plugin files.
    console.log(`plugin-context-budget: graphql ${report.usage.calls.graphql}, ${report.usage.callsText()}`);
    expect(report.usage.skillQueries).toBe(2);
    expect(report.usage.pluginFileQueries).toBe(2);
    expect(report.usage.calls.graphql).toBeLessThanOrEqual(6);
    const plugins = await pluginsOf(run.serve().url, "team10/kit");
    expect(plugins).toHaveLength(8);
    for (const p of plugins) {
      // "p0:alpha Alpha" 14, "p0:beta Beta" 12, "helper Helps" 12, "p0:c0 Command 0" 15 ×3: 83 → 21 tokens.
      expect({ name: p.name, context: p.context }).toEqual({
        name: p.name,
        context: { always_on: 21, mcp_tools: 0, complete: true, counts: { skills: 2, commands: 3, agents: 1 } },
      });
    }
  }, 60_000);

  test("files past the query's share leave their plugins' figures incomplete, never wrong", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    // 30 plugins of 40 commands, an agent and two skills each under tools/: 1,290 files for a share of 1,000.
    run.github.add({ full_name: "big/market", topics: ["claude-code-plugin"], files: marketplace("big", 30, 40) });
    const report = published(await run.refresh());
    expect(report.usage.pluginFileQueries).toBe(1);
    const plugins = await pluginsOf(run.serve().url, "big/market");
    const complete = plugins.filter((p) => p.context?.complete);
    const cut = plugins.filter((p) => p.context && !p.context.complete);
    expect(complete.length).toBeGreaterThan(0);
    expect(cut.length).toBeGreaterThan(0);
    for (const p of complete) expect(p.context?.counts).toEqual({ skills: 2, commands: 40, agents: 1 });
    for (const p of cut) expect(p.context!.always_on).toBeLessThan(complete[0]!.context!.always_on);
  }, 60_000);
});
