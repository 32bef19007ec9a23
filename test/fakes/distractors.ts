/**
 * Repositories that are no plugins but share the discovery rules' words, as the platform is full
 * of: Minecraft's MCP (Mod Coder Pack) tooling, WordPress plugins, résumés listing skills, people
 * named Claude, manuscripts called codex, courses and notes about Claude Code, projects that merely
 * use Claude Code. Some carry misleading files (a game server's server.json, a root plugin.json, a
 * `.claude/` settings folder) or topics outside the evidence list. Deterministic: same list every run.
 */
import type { RepoSeed } from "./github-repos";

interface Family {
  owner: string;
  name: (i: number) => string;
  description: (i: number) => string;
  topics?: string[];
  files?: Record<string, string>;
}

const FAMILIES: Family[] = [
  {
    owner: "craftmods",
    name: (i) => `mcp-server-mappings-${i}`,
    description: (i) => `Minecraft MCP server mappings for 1.${i % 21}`,
    topics: ["minecraft", "mcp"],
    files: { "server.json": '{"motd": "A Minecraft server", "port": 25565}' },
  },
  {
    owner: "blockforge",
    name: (i) => `forge-mcp-${i}`,
    description: () => "Mod Coder Pack (MCP) server setup scripts for Forge modding",
    topics: ["minecraft-mod", "mcp"],
  },
  {
    owner: "wpdev",
    name: (i) => `claude-plugin-gallery-${i}`,
    description: () => "WordPress plugin: Claude plugin gallery of Monet paintings",
    topics: ["wordpress-plugin"],
    files: { "plugin.json": '{"name": "gallery"}' },
  },
  {
    owner: "resumes",
    name: (i) => `agent-skills-cv-${i}`,
    description: () => "Real estate agent skills, certifications and résumé",
    topics: ["resume"],
  },
  {
    owner: "claude-dupont",
    name: (i) => `claude-skills-${i}`,
    description: () => "Claude Dupont's skills and portfolio site",
    topics: ["portfolio"],
  },
  {
    owner: "scriptorium",
    name: (i) => `codex-plugin-${i}`,
    description: () => "Codex plugin for a medieval manuscript viewer (IIIF)",
    topics: ["iiif", "manuscripts"],
  },
  {
    owner: "learn-ai",
    name: (i) => `claude-code-course-${i}`,
    description: () => "Notes and exercises from a Claude Code course",
    topics: ["claude-code", "tutorial"],
    files: { "CLAUDE.md": "# Course" },
  },
  {
    owner: "apps",
    name: (i) => `todo-app-${i}`,
    description: () => "A todo app built with Claude Code",
    topics: ["claude-code", "nextjs"],
    files: { ".claude/settings.json": "{}", "CLAUDE.md": "# Todo" },
  },
  {
    owner: "papers",
    name: (i) => `mcp-security-reading-${i}`,
    description: () => "Papers on Model Context Protocol security, a reading list",
    topics: ["security", "papers"],
  },
  {
    owner: "mockapis",
    name: (i) => `mcp-server-mock-${i}`,
    description: () => "Mock HTTP server for the MCP (Master Control Program) arcade game",
    files: { "server.json": '{"routes": []}' },
  },
  {
    owner: "gamers",
    name: (i) => `gemini-cli-trader-${i}`,
    description: () => "Gemini CLI: trade crypto on the Gemini exchange",
    topics: ["crypto"],
  },
  {
    owner: "webshops",
    name: (i) => `mcp-server-storefront-${i}`,
    description: () => "MCP server storefront: a Node shop (Minecraft Community Plaza)",
    topics: ["ecommerce"],
    files: { "package.json": '{"name": "storefront", "dependencies": {"express": "^4", "mcp-colors": "^1"}}' },
  },
  {
    owner: "careers",
    name: (i) => `claude-skills-resume-${i}`,
    description: () => "Claude skills résumé: my agent skills and experience",
    topics: ["resume"],
    files: {
      "SKILLS.md": "# Skills\n- Negotiation\n- Claude (the French language course)\n",
      "skills/README.md": "CV",
    },
  },
  {
    owner: "pymods",
    name: (i) => `mcp-server-tools-${i}`,
    description: () => "Model context protocol reading notes with Python scripts",
    topics: ["notes"],
    files: {
      "requirements.txt": "mcpi==1.2\nmcp-utils-unrelated\nrequests\n",
      "go.mod": "module x\nrequire github.com/other/mcp v1.0.0\n",
    },
  },
  {
    owner: "databases",
    name: (i) => `cursor-rules-engine-${i}`,
    description: () => "Cursor rules for paginating database cursors",
    topics: ["database"],
  },
];

/** Star counts spread like the platform's: most small, some past every rule's floor. */
function stars(i: number): number {
  return [3, 12, 25, 60, 140, 600, 2400][i % 7]! + (i % 11);
}

function created(i: number): string {
  const ms = Date.parse("2016-01-01T00:00:00Z") + ((i * 7_919_993_311) % (10 * 365 * 86_400_000));
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `perFamily` distractors of each family. */
export function distractors(perFamily = 150): RepoSeed[] {
  return FAMILIES.flatMap((family, f) =>
    Array.from(
      { length: perFamily },
      (_, i): RepoSeed => ({
        full_name: `${family.owner}-${i % 40}/${family.name(i)}`,
        description: family.description(i),
        stars: stars(i + f),
        forks: i % 9,
        language: "JavaScript",
        created_at: created(i * 13 + f),
        pushed_at: "2026-10-01T00:00:00Z",
        topics: family.topics ?? [],
        files: { ...family.files },
      }),
    ),
  );
}
