/**
 * Repositories keeping skills where real ones do, with what the refresh must derive: `.claude/skills`
 * and `.agents/skills`, the `skills/` folder of each plugin a marketplace names by a relative source
 * (read under `plugins/<p>`, listed elsewhere), a name declared twice, and a root SKILL.md that the
 * installer reads alone, and root folders holding a SKILL.md where no standard place holds one. Install lines follow the skills installer (skills@1.7.4): it finds `skills/`,
 * the agents' folders and marketplace plugin folders, matches `--skill` to the front-matter name,
 * needs a description, keeps the first of two equal names, and stops at a root SKILL.md; where no
 * standard place holds a skill, it takes each root folder's SKILL.md.
 */
import type { ManifestFixture } from "./manifest-repos";

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;
const counts = (c: Partial<Record<string, number>>) => ({
  skills: 0,
  commands: 0,
  agents: 0,
  hooks: 0,
  mcp_servers: 0,
  plugins: 0,
  ...c,
});
const empty = { skills: [], commands: [], agents: [], hooks: [], mcp_servers: [], plugins: [] };
const line = (id: string, name: string, from: string) => ({
  harness: "claude-code",
  kind: "skill",
  command: `npx -y skills@1.7.4 add ${id} --skill ${name} --agent claude-code`,
  env: [],
  from,
});
const TWICE = "its name is declared twice in this repository; the installer would take only one";

/** One marketplace plugin's own parts: one skill, and the other lists given. */
function ownParts(
  skill: string,
  lists: Partial<Record<"commands" | "agents" | "hooks" | "mcp_servers", string[]>> = {},
) {
  const all = { skills: [skill], commands: [], agents: [], hooks: [], mcp_servers: [], ...lists };
  const sizes = Object.entries(all).map(([k, v]) => [k, v.length]);
  return { ...all, counts: Object.fromEntries(sizes) };
}

export const SKILL_LAYOUTS: Record<string, ManifestFixture> = {
  agentFolders: {
    seed: {
      full_name: "layouts/agent-folders",
      files: {
        ".claude/skills/review/SKILL.md": skill("review", "Reviews a change"),
        ".claude/skills/review/checklist.md": "Check.",
        ".agents/skills/triage/SKILL.md": skill("triage", "Sorts issues"),
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [
          { name: "triage", description: "Sorts issues", path: ".agents/skills/triage" },
          { name: "review", description: "Reviews a change", path: ".claude/skills/review" },
        ],
        counts: counts({ skills: 2 }),
      },
      install: [
        line("layouts/agent-folders", "triage", ".agents/skills/triage/SKILL.md"),
        line("layouts/agent-folders", "review", ".claude/skills/review/SKILL.md"),
      ],
      works_with: ["agent-skills"],
    },
  },
  rootFolders: {
    seed: {
      full_name: "layouts/root-folders",
      files: {
        "pdf-tools/SKILL.md": skill("pdf-tools", "Reads PDFs"),
        "pdf-tools/run.py": "print('x')",
        "README.md": "# Skills at the root",
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [{ name: "pdf-tools", description: "Reads PDFs", path: "pdf-tools" }],
        counts: counts({ skills: 1 }),
      },
      install: [line("layouts/root-folders", "pdf-tools", "pdf-tools/SKILL.md")],
      works_with: ["agent-skills"],
    },
  },
  pluginFolders: {
    seed: {
      full_name: "layouts/plugin-market",
      files: {
        ".claude-plugin/marketplace.json": JSON.stringify({
          name: "tools-market",
          owner: { name: "Layouts" },
          plugins: [
            { name: "docs", source: "./plugins/docs" },
            { name: "lint", source: "./extras/lint" },
          ],
        }),
        "plugins/docs/.claude-plugin/plugin.json": JSON.stringify({ name: "docs" }),
        "plugins/docs/skills/pdf/SKILL.md": skill("pdf", "Reads PDF forms"),
        "plugins/docs/skills/pdf/forms.py": "print('x')",
        "plugins/unlisted/skills/ghost/SKILL.md": skill("ghost", "Not in the marketplace"),
        "extras/lint/skills/style/SKILL.md": skill("style", "Checks style"),
        // Each plugin folder's other parts, read in the same follow-up query as the skills.
        "plugins/docs/commands/fill.md": "---\ndescription: Fills a form\n---\n",
        "plugins/docs/agents/reader.md": "---\ndescription: Reads forms\n---\n",
        "extras/lint/hooks/hooks.json": JSON.stringify({
          hooks: { PostToolUse: [{ hooks: [{ type: "command", command: "true" }] }] },
        }),
        "extras/lint/.mcp.json": JSON.stringify({ mcpServers: { "lint-srv": { command: "lint" } } }),
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [
          { name: "pdf", description: "Reads PDF forms", path: "plugins/docs/skills/pdf" },
          {
            name: "style",
            description: null,
            path: "extras/lint/skills/style",
            no_install: "SKILL.md not read; named by its folder",
          },
        ],
        plugins: [
          {
            name: "docs",
            source: "./plugins/docs",
            description: null,
            contents: ownParts("pdf", { commands: ["fill"], agents: ["reader"] }),
            // "docs:pdf Reads PDF forms", "reader Reads forms", "docs:fill Fills a form": 64 characters.
            context: { always_on: 16, mcp_tools: 0, complete: true, counts: { skills: 1, commands: 1, agents: 1 } },
            install_command: "/plugin install docs@tools-market",
          },
          {
            name: "lint",
            source: "./extras/lint",
            description: null,
            contents: ownParts("style", { hooks: ["PostToolUse"], mcp_servers: ["lint-srv"] }),
            // Its SKILL.md, outside `plugins/<p>`, is read in the plugin files' round: "lint:style Checks style".
            context: {
              always_on: 6,
              mcp_tools: "not measured",
              complete: true,
              counts: { skills: 1, commands: 0, agents: 0 },
            },
            install_command: "/plugin install lint@tools-market",
          },
        ],
        commands: ["fill"],
        agents: ["reader"],
        hooks: ["PostToolUse"],
        mcp_servers: ["lint-srv"],
        marketplace: { name: "tools-market", refused: null },
        counts: counts({ skills: 2, commands: 1, agents: 1, hooks: 1, mcp_servers: 1, plugins: 2 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "marketplace",
          command: "/plugin marketplace add layouts/plugin-market",
          env: [],
          from: ".claude-plugin/marketplace.json",
        },
        ...["docs", "lint"].map((p) => ({
          harness: "claude-code",
          kind: "plugin",
          command: `/plugin install ${p}@tools-market`,
          env: [],
          from: ".claude-plugin/marketplace.json",
        })),
        line("layouts/plugin-market", "pdf", "plugins/docs/skills/pdf/SKILL.md"),
      ],
      works_with: ["claude-code", "agent-skills"],
    },
  },
  twice: {
    seed: {
      full_name: "layouts/twice",
      files: {
        "skills/fmt/SKILL.md": skill("fmt", "Formats code"),
        "skills/ok/SKILL.md": skill("ok", "Fine"),
        ".claude/skills/fmt/SKILL.md": skill("fmt", "Formats code differently"),
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [
          { name: "fmt", description: "Formats code", path: "skills/fmt", no_install: TWICE },
          { name: "ok", description: "Fine", path: "skills/ok" },
          { name: "fmt", description: "Formats code differently", path: ".claude/skills/fmt", no_install: TWICE },
        ],
        counts: counts({ skills: 3 }),
      },
      install: [line("layouts/twice", "ok", "skills/ok/SKILL.md")],
      works_with: ["agent-skills"],
    },
  },
  rooted: {
    seed: {
      full_name: "layouts/rooted",
      files: {
        "SKILL.md": skill("main", "The repository is the skill"),
        "skills/extra/SKILL.md": skill("extra", "An extra skill"),
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [
          { name: "main", description: "The repository is the skill" },
          {
            name: "extra",
            description: "An extra skill",
            path: "skills/extra",
            no_install: "the installer reads only this repository's root SKILL.md",
          },
        ],
        counts: counts({ skills: 2 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "skill",
          command: "git clone https://github.com/layouts/rooted.git .claude/skills/main",
          env: [],
          from: "SKILL.md",
        },
      ],
      works_with: ["agent-skills"],
    },
  },
};
