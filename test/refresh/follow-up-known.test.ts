/**
 * The batch's follow-up rounds ask only for what the batch (and the rounds before) did not bring,
 * per path: a marketplace whose one plugin is the repository's root costs no follow-up at all,
 * one whose plugins live in `plugins/<x>` folders still gets its follow-ups, one per batch; and
 * the contents are what they were when every round asked everything.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Env, published } from "./support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const MARKETPLACE = ".claude-plugin/marketplace.json";
const TOPIC = "claude-code-plugin";

function market(owner: string, sources: string[]): string {
  const plugins = sources.map((source, i) => ({ name: `${owner}-p${i}`, source }));
  return JSON.stringify({ name: `${owner}-market`, owner: { name: owner }, plugins });
}

/** A plugin's files under `at` ("" for the root): plugin.json, a command, an agent, hooks, a server. */
function pluginFiles(at: string, name: string): Record<string, string> {
  const p = (path: string) => (at === "" ? path : `${at}/${path}`);
  return {
    [p(".claude-plugin/plugin.json")]: JSON.stringify({ name, version: "1.0.0" }),
    [p("commands/go.md")]: "---\ndescription: Go somewhere\n---\nGo.\n",
    [p("agents/helper.md")]: "---\ndescription: Helps\n---\nYou help.\n",
    [p("hooks/hooks.json")]: JSON.stringify({
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "x" }] }] },
    }),
    [p(".mcp.json")]: JSON.stringify({ mcpServers: { [`${name}-db`]: { command: "npx", args: ["db"] } } }),
  };
}

/** A marketplace whose one plugin is the repository itself. */
const rootMarket = (owner: string): Record<string, string> => ({
  [MARKETPLACE]: market(owner, ["./"]),
  ...pluginFiles("", `${owner}-p0`),
});

/** A marketplace of two plugins in `plugins/<x>` folders. */
const folderMarket = (owner: string) => ({
  [MARKETPLACE]: market(owner, ["./plugins/one", "./plugins/two"]),
  ...pluginFiles("plugins/one", `${owner}-p0`),
  ...pluginFiles("plugins/two", `${owner}-p1`),
});

/** A marketplace of the root plugin and one in `plugins/one`. */
const bothMarket = (owner: string) => ({
  ...pluginFiles("", `${owner}-p0`),
  ...pluginFiles("plugins/one", `${owner}-p1`),
  [MARKETPLACE]: market(owner, ["./", "./plugins/one"]),
});

async function details(url: string, id: string): Promise<unknown> {
  const response = await fetch(`${url}/api/v1/plugins/${id}?include=contents,install,flags,works_with,context,risk`);
  const body = (await response.json()) as { data: { plugin: Record<string, unknown> } };
  const { contents, install, works_with, context, risk } = body.data.plugin;
  return { contents, install, works_with, context, risk };
}

describe("the follow-up rounds ask only what the batch did not bring", () => {
  test("150 root-plugin marketplaces: two batches and no follow-up; the root's commands cost only their context's round", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    for (let i = 0; i < 150; i++) {
      const { "commands/go.md": _, "agents/helper.md": __, ...files } = rootMarket(`root${i}`);
      env.github.add({ full_name: `root${i}/market`, topics: [TOPIC], files });
    }
    const report = published(await env.refresh());
    expect(report.total).toBe(150);
    expect(report.usage.skillQueries).toBe(0);
    expect(report.usage.pluginFileQueries).toBe(0);
    expect(report.usage.pluginListedQueries).toBe(0);
    expect(report.usage.calls.graphql).toBe(2);
    // The root plugin's parts came from the batch's own fields.
    const served = (await details(env.serve().url, "root7/market")) as { contents: { plugins: unknown[] } };
    expect(served.contents.plugins[0]).toMatchObject({
      name: "root7-p0",
      contents: { commands: [], agents: [], hooks: ["PreToolUse"], mcp_servers: ["root7-p0-db"] },
    });
    env.stop();
    // With a command and an agent at the root, the repository's context reads them; no round reads them again.
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    for (let i = 0; i < 150; i++)
      env.github.add({ full_name: `root${i}/market`, topics: [TOPIC], files: rootMarket(`root${i}`) });
    const again = published(await env.refresh());
    expect(again.usage.skillQueries).toBe(2);
    expect(again.usage.pluginFileQueries).toBe(0);
    expect(again.usage.calls.graphql).toBe(4);
  }, 60_000);

  test("150 marketplaces of plugins/<x> folders: their follow-ups, one of each kind per batch", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    for (let i = 0; i < 150; i++)
      env.github.add({ full_name: `dir${i}/market`, topics: [TOPIC], files: folderMarket(`dir${i}`) });
    const report = published(await env.refresh());
    expect(report.total).toBe(150);
    expect(report.usage.skillQueries).toBe(2);
    expect(report.usage.pluginFileQueries).toBe(2);
    expect(report.usage.calls.graphql).toBe(6);
    const served = (await details(env.serve().url, "dir7/market")) as { contents: { plugins: unknown[] } };
    expect(served.contents.plugins[1]).toMatchObject({
      name: "dir7-p1",
      contents: { commands: ["go"], agents: ["helper"], hooks: ["PreToolUse"], mcp_servers: ["dir7-p1-db"] },
      context: { complete: true, counts: { skills: 0, commands: 1, agents: 1 } },
    });
  }, 60_000);

  test("both kinds in one batch: the details are those of a reading that asked every field", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    env.github.add(
      { full_name: "root/market", topics: [TOPIC], files: rootMarket("root") },
      { full_name: "dir/market", topics: [TOPIC], files: folderMarket("dir") },
      { full_name: "both/market", topics: [TOPIC], files: bothMarket("both") },
    );
    const report = published(await env.refresh());
    expect(report.usage.calls.graphql).toBe(3);
    const url = env.serve().url;
    const got = Object.fromEntries(
      await Promise.all(["root/market", "dir/market", "both/market"].map(async (id) => [id, await details(url, id)])),
    );
    const expected = `${import.meta.dir}/follow-up-known.json`;
    if (process.env.WRITE_EXPECTED) await Bun.write(expected, `${JSON.stringify(got, null, 2)}\n`);
    expect(got).toEqual(await Bun.file(expected).json());
  }, 60_000);
});
