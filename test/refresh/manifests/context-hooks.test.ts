/**
 * A hook that prints into the session (SessionStart at its start, UserPromptSubmit at each prompt)
 * adds whatever it prints: the context cost of such a plugin is never complete, never sorted or
 * filtered as light and never tagged with a token count, however few its components weigh. A real
 * refresh against the fake platform, served by the real app.
 */
import { afterEach, expect, test } from "bun:test";
import type { PluginContext } from "../../../src/catalog/model/context-cost";
import { Env, published } from "../support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const hooks = (event: string) =>
  JSON.stringify({
    hooks: { [event]: [{ hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/hooks/start.sh" }] }] },
  });

const files = (name: string, event: string | null): Record<string, string> => ({
  ".claude-plugin/plugin.json": JSON.stringify({ name, version: "1.0.0" }),
  "commands/go.md": "---\ndescription: Go\n---\nGo.\n",
  ...(event ? { "hooks/hooks.json": hooks(event), "hooks/start.sh": "#!/bin/sh\ncat big.txt\n" } : {}),
});

test("a SessionStart or UserPromptSubmit hook leaves the cost incomplete: not light, not under context_max, not tagged", async () => {
  const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
  env = run;
  run.github.add({ full_name: "quiet/kit", topics: ["claude-code-plugin"], files: files("quiet", null), stars: 1 });
  run.github.add({
    full_name: "loud/kit",
    topics: ["claude-code-plugin"],
    files: files("loud", "SessionStart"),
    stars: 2,
  });
  run.github.add({
    full_name: "chatty/kit",
    topics: ["claude-code-plugin"],
    files: files("chatty", "UserPromptSubmit"),
    stars: 3,
  });
  run.github.add({ full_name: "tidy/kit", topics: ["claude-code-plugin"], files: files("tidy", "Stop"), stars: 4 });
  published(await run.refresh());
  const server = run.serve();
  const contextOf = async (id: string) =>
    (
      (await (await fetch(`${server.url}/api/v1/plugins/${id}?include=context`)).json()) as {
        data: { plugin: { context: PluginContext } };
      }
    ).data.plugin.context;
  expect(await contextOf("quiet/kit")).toMatchObject({ complete: true });
  expect((await contextOf("quiet/kit")).hooks_add_context).toBeUndefined();
  expect(await contextOf("loud/kit")).toMatchObject({ complete: false, hooks_add_context: ["SessionStart"] });
  expect(await contextOf("chatty/kit")).toMatchObject({ complete: false, hooks_add_context: ["UserPromptSubmit"] });
  // A hook whose output the session never sees costs nothing of it.
  expect(await contextOf("tidy/kit")).toMatchObject({ complete: true });

  const light = (await (await fetch(`${server.url}/api/v1/plugins?context_max=100`)).json()) as {
    data: { items: Array<{ id: string }> };
  };
  expect(light.data.items.map((p) => p.id).sort()).toEqual(["quiet/kit", "tidy/kit"]);
  const sorted = (await (await fetch(`${server.url}/api/v1/plugins?sort=context`)).json()) as {
    data: { items: Array<{ id: string }> };
  };
  expect(
    sorted.data.items
      .map((p) => p.id)
      .slice(0, 2)
      .sort(),
  ).toEqual(["quiet/kit", "tidy/kit"]);
  const market = await (await fetch(`${server.url}/market/claude/marketplace.json`)).text();
  const entry = (name: string) =>
    JSON.stringify(JSON.parse(market).plugins.find((p: { name: string }) => p.name === name) ?? {});
  expect(entry("loud")).not.toContain("-tokens");
  expect(entry("chatty")).not.toContain("-tokens");
}, 60_000);
