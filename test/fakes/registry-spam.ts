/**
 * The official MCP registry as a discovery source in a realistic world (`bun run discovery:eval`
 * and test/refresh/registry-lookalikes.test.ts): the real MCP servers of the space that ship a
 * server.json, each listed in its publisher's `io.github.<owner>` namespace with the packages its
 * server.json names, and spam entries in their publishers' own namespaces pointing at look-alike
 * repositories: plausible names, descriptions, READMEs and topics, misleading files (a game
 * server's server.json, an SDK as a devDependency, unrelated `mcp-*` packages), but no server.json
 * of the registry's schema and no SDK dependency. Deterministic: same entries every run.
 */
import type { FakeGitHub } from "./github";
import type { RepoSeed } from "./github-repos";
import type { FakeServer } from "./mcp-registry";

interface Lookalike {
  name: (i: number) => string;
  description: (i: number) => string;
  topics: string[];
  files: (i: number) => Record<string, string>;
}

const readme = (title: string) =>
  `# ${title}\n\nThe fastest MCP server for your AI assistant. Works with Claude, Cursor and Windsurf.\n\n## Install\n\nDownload the release for your platform and run the installer.\n`;

const LOOKALIKES: Lookalike[] = [
  {
    name: (i) => `github-mcp-server-${i}`,
    description: () => "GitHub MCP server: manage issues and pull requests from Claude",
    topics: ["mcp", "model-context-protocol", "ai"],
    files: (i) => ({ "README.md": readme(`github-mcp-server-${i}`), "setup.exe.txt": "binary" }),
  },
  {
    name: (i) => `playwright-mcp-${i}`,
    description: () => "Playwright MCP server for browser automation with LLMs",
    topics: ["mcp", "llm", "browser-automation"],
    files: (i) => ({
      "README.md": readme(`playwright-mcp-${i}`),
      "package.json": JSON.stringify({
        name: `playwright-mcp-${i}`,
        devDependencies: { "@modelcontextprotocol/sdk": "^1.12.0" },
        dependencies: { "mcp-colors": "^1" },
      }),
    }),
  },
  {
    name: (i) => `filesystem-mcp-server-${i}`,
    description: () => "Model Context Protocol server for local files, secure and fast",
    topics: ["model-context-protocol", "claude", "tools"],
    files: (i) => ({
      "README.md": readme(`filesystem-mcp-server-${i}`),
      "server.json": JSON.stringify({ motd: "Welcome", port: 25565 + i }),
    }),
  },
  {
    name: (i) => `notion-mcp-${i}`,
    description: () => "Notion MCP server: your workspace in every AI agent",
    topics: ["mcp-tools", "notion", "ai-agents"],
    files: (i) => ({
      "README.md": readme(`notion-mcp-${i}`),
      "requirements.txt": "mcpi==1.2\nmcp-utils-unrelated\nrequests\n",
    }),
  },
];

/** `count` look-alikes, the families in turn, each under an owner of its own. */
export function lookalikes(count: number): RepoSeed[] {
  return Array.from({ length: count }, (_, i): RepoSeed => {
    const family = LOOKALIKES[i % LOOKALIKES.length]!;
    return {
      full_name: `mcp-tools-${i}/${family.name(i)}`,
      description: family.description(i),
      stars: [2, 8, 40, 120, 700][i % 5]!,
      language: "TypeScript",
      created_at: "2026-09-01T00:00:00Z",
      pushed_at: "2026-11-01T00:00:00Z",
      topics: family.topics,
      files: family.files(i),
    };
  });
}

const UPDATED = "2026-11-01T10:00:00.000Z";

/** A registry entry in the repository owner's own `io.github.` namespace, the packages given. */
export function ownEntry(id: string, packages?: FakeServer["packages"]): FakeServer {
  return {
    name: `io.github.${id.toLowerCase()}`,
    description: "An MCP server",
    repository: `https://github.com/${id}`,
    updatedAt: UPDATED,
    ...(packages ? { packages } : {}),
  };
}

/** The npm and PyPI packages a repository's server.json names, as the registry lists them. */
function packagesOf(serverJson: string): FakeServer["packages"] {
  const parsed = JSON.parse(serverJson) as { packages?: Array<{ registryType: string; identifier: string }> };
  return (parsed.packages ?? []).map(({ registryType, identifier }) => ({ registryType, identifier }));
}

export interface RegistryWorld {
  /** Registry entries: the real servers with a server.json, then the spam. */
  entries: FakeServer[];
  /** Lowercased ids of the real repositories the registry names. */
  listedReal: Set<string>;
  /** Lowercased ids of the look-alikes the spam names. */
  spam: Set<string>;
}

/**
 * Adds `spam` look-alikes to `github` and builds the registry's entries: every repository of
 * `real` holding a server.json of the registry's schema, and one spam entry per look-alike.
 */
export function registryWorld(github: FakeGitHub, real: Iterable<string>, spam: number): RegistryWorld {
  const entries: FakeServer[] = [];
  const listedReal = new Set<string>();
  for (const id of real) {
    const found = github.repos.lookup(id);
    const serverJson = found?.repo.files["server.json"];
    if (!found || !serverJson?.includes("modelcontextprotocol.io/schemas")) continue;
    const fullName = `${found.repo.owner}/${found.repo.name}`;
    entries.push(ownEntry(fullName, packagesOf(serverJson)));
    listedReal.add(fullName.toLowerCase());
  }
  const fakes = lookalikes(spam);
  github.add(...fakes);
  for (const fake of fakes) entries.push(ownEntry(fake.full_name));
  return { entries, listedReal, spam: new Set(fakes.map((f) => f.full_name.toLowerCase())) };
}
