/**
 * The context cost the catalog serves, judged by the real Claude Code CLI (the pinned
 * devDependency): each plugin folder is served by the fake platform, refreshed, and read back
 * from the real app; the same folder is loaded with `claude --plugin-dir <dir> plugin details`,
 * offline (throw-away HOME, proxy on the loopback range). The always-on totals must be equal and
 * the inventories name the same components.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PluginContext } from "../../../src/catalog/model/context-cost";
import { CLAUDE, CLAUDE_ENV } from "../../claude-cli";
import { Env, published } from "../support";

const root = mkdtempSync(join(tmpdir(), "context-client-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const manifest = (name: string) => JSON.stringify({ name, version: "1.0.0", description: "A plugin." });
const long = "Reviews a change for style, naming and tests; ".repeat(30);

/** Real-shaped plugins, by repository name: every rule of the estimate is met by one of them. */
const PLUGINS: Record<string, Record<string, string>> = {
  "review-kit": {
    ".claude-plugin/plugin.json": manifest("review-kit"),
    "skills/style/SKILL.md":
      "---\nname: style\ndescription: Checks code style.\nwhen_to_use: Before a commit.\n---\n# Style\nRun the linter.\n",
    "skills/folded/SKILL.md":
      "---\nname: folded\ndescription: >\n  A folded description\n  over two lines.\n---\nBody.\n",
    "skills/no-desc/SKILL.md": "---\nname: no-desc\n---\n\n## Heading used as the description\nMore.\n",
    "skills/long one/SKILL.md": `---\ndescription: ${long}\n---\n${"body ".repeat(400)}\n`,
    "commands/deploy.md": "---\ndescription: Deploy to staging\nallowed-tools: [Bash]\n---\nRun `make deploy`.\n",
    "commands/README.md": "# Commands\nThe commands of this plugin.\n",
    "commands/Fix Bug!.md": "Fix the bug named in $ARGUMENTS.\n",
    "agents/reviewer.md":
      "---\nname: code-reviewer\ndescription: Expert code reviewer.\nwhen_to_use: After changes.\n---\nYou review code.\n",
  },
  "unicode-tools": {
    ".claude-plugin/plugin.json": manifest("unicode-tools"),
    "skills/translate/SKILL.md":
      "---\nname: translate\ndescription: 日本語のテキストを翻訳する 😀 — für Übersetzungen\n---\n本文\n",
    "commands/numbers.md": "---\ndescription: 12345\n---\n",
    "agents/writer.md": "No front matter: the first line stands in.\n",
    "agents/empty.md": "",
    // YAML refuses this front matter as a whole: the client then takes the body's first line.
    "agents/examples.md":
      "---\nname: examples\ndescription: Use this agent for examples. Examples:\n\n<example>\nuser: hi\n</example>\n---\n\n**Disclaimer:** read this first.\n",
  },
  "bare-skills": {
    "skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha reports.\n---\nx\n",
    "skills/beta/SKILL.md": "---\nname: beta\ndescription: |\n  Literal block\n  kept with its newline\n---\n",
    "commands/go.md": '---\ndescription: ""\n---\n\n# Go somewhere\n',
  },
  "root-skill": {
    ".claude-plugin/plugin.json": manifest("root-skill"),
    "SKILL.md": "---\nname: Root Skill\ndescription: The repository is the skill.\n---\nDo it.\n",
    "commands/run.md": "Run it.\n",
  },
  "unnamed-root": {
    ".claude-plugin/plugin.json": manifest("unnamed-root"),
    "SKILL.md": "---\ndescription: No name: the folder names it.\n---\n",
  },
  "listed-skills": {
    ".claude-plugin/plugin.json": JSON.stringify({
      name: "listed-skills",
      version: "1.0.0",
      skills: ["./extra/alpha-skill", "./extra/beta/"],
    }),
    "extra/alpha-skill/SKILL.md": "---\nname: Alpha Skill\ndescription: Named by its front matter.\n---\n",
    "extra/beta/SKILL.md": "---\ndescription: Named by its folder.\n---\n",
    "skills/gamma/SKILL.md": "---\nname: gamma\ndescription: Found by the skills/ scan as well.\n---\n",
  },
  "listed-commands": {
    ".claude-plugin/plugin.json": JSON.stringify({
      name: "listed-commands",
      version: "1.0.0",
      commands: ["./commands/one.md"],
      agents: ["./agents/listed.md"],
    }),
    "agents/listed.md": "---\ndescription: Named in plugin.json, which replaces the agents/ scan.\n---\n",
    "commands/one.md": "---\ndescription: Named in plugin.json, which replaces the commands/ scan.\n---\n",
    "skills/kept/SKILL.md": "---\nname: kept\ndescription: Still counted.\n---\n",
  },
  "skills-is-one": {
    ".claude-plugin/plugin.json": manifest("skills-is-one"),
    "skills/SKILL.md": "---\nname: whole\ndescription: The skills folder is one skill.\n---\n",
    "skills/inner/SKILL.md": "---\nname: inner\ndescription: Not looked at.\n---\n",
  },
  // plugin.json naming the default folders, a repeated key and values YAML refuses: the client keeps each description.
  "odd-front": {
    ".claude-plugin/plugin.json": JSON.stringify({
      name: "odd-front",
      version: "1.0.0",
      commands: "./commands/",
      skills: "./skills/",
    }),
    "skills/dup/SKILL.md":
      "---\nname: dup\ndescription: Kept beside a repeated key.\ncontext: fork\ncontext: fork\n---\n",
    "commands/hint.md":
      '---\ndescription: Kept beside a hint YAML refuses.\nargument-hint: "[n]" [--dry-run]\n---\nBody.\n',
    "commands/list.md": "---\ndescription: Kept beside a flow list left open.\nargument-hint: [task] [--all]\n---\n",
  },
  // A skill's or command's texts are counted as listed (`<` as `&lt;`, a run of invisible characters as one space); an agent's as written.
  "angle-text": {
    ".claude-plugin/plugin.json": manifest("angle-text"),
    "skills/pipe/SKILL.md":
      '---\nname: pipe\ndescription: "trace -> interview <then> plan"\nwhen_to_use: On a <bug>.\n---\n',
    "skills/blank/SKILL.md": "---\ndescription: |\n  two\n\n  lines\u200b\u200bhere\n---\n",
    "commands/tag.md": "---\ndescription: Wraps text in <b> tags\n---\n",
    "agents/arrow.md": "---\ndescription: Turns a -> b into <b>\n---\n",
  },
  "only-mcp": {
    ".claude-plugin/plugin.json": manifest("only-mcp"),
    ".mcp.json": JSON.stringify({ mcpServers: { db: { command: "node", args: ["server.js"] } } }),
  },
};

function writeFolder(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The client's always-on total and its inventory's names: skills with commands, and agents. */
async function details(dir: string, name: string): Promise<{ total: number; skills: string[]; agents: string[] }> {
  const home = mkdtempSync(join(root, "home-"));
  const proc = Bun.spawn([CLAUDE, "--plugin-dir", dir, "plugin", "details", name], {
    env: { ...CLAUDE_ENV, HOME: home },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  const total = /Always-on:\s+~([\d,]+) tok/.exec(out)?.[1];
  const listed = (label: string) => {
    const line = new RegExp(`^  ${label} \\((\\d+)\\)(?:  (.*))?$`, "m").exec(out);
    return line?.[2] ? line[2].split(", ") : [];
  };
  return {
    total: Number(total?.replaceAll(",", "")),
    skills: listed("Skills").sort(),
    agents: listed("Agents").sort(),
  };
}

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

describe("context cost against the real client", () => {
  test("the served always-on total and inventory are the client's", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    for (const [name, files] of Object.entries(PLUGINS))
      run.github.add({ full_name: `acme/${name}`, topics: ["claude-code-plugin"], files });
    published(await run.refresh());
    const server = run.serve();
    for (const [name, files] of Object.entries(PLUGINS)) {
      const response = await fetch(`${server.url}/api/v1/plugins/acme/${name}?include=context`);
      const context = ((await response.json()) as { data: { plugin: { context: PluginContext } } }).data.plugin.context;
      const client = await details(writeFolder(name, files), name);
      expect({ name, total: context.always_on }).toEqual({ name, total: client.total });
      // The inventory shows skills and commands by folder or file name; the count names them sanitized, prefixed.
      const counted = (n: string) => `${name}:${n.trim().replace(/[^a-zA-Z0-9_-]/g, "-")}`;
      const served = (agents: boolean) =>
        context.components
          .filter((c) => (c.kind === "agent") === agents)
          .map((c) => c.name)
          .sort();
      expect(served(false)).toEqual(client.skills.map(counted).sort());
      expect(served(true)).toEqual(client.agents);
      expect(client.skills.length + client.agents.length).toBeGreaterThan(name === "only-mcp" ? -1 : 0);
      expect(context.complete).toBe(true);
      expect(context.mcp_tools).toBe(name === "only-mcp" ? "not measured" : 0);
    }
  }, 60_000);
});
