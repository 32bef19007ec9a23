/**
 * The plugin space as the fake platform holds it for `bun run discovery:eval`: the real plugins of
 * test/fixtures/real-plugins.json with the files their sources imply, the curated lists and the
 * marketplace that named them, and distractors that share the rules' words but are no plugins
 * (test/fixtures/real-plugins.md says how the facts map).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { distractors } from "./distractors";
import type { FakeGitHub } from "./github";
import { marketplaceManifest, type RepoSeed } from "./github-repos";
import { tickerFiles } from "./ticker-files";

export interface RealPlugin {
  full_name: string;
  description: string | null;
  homepage: string | null;
  stars: number | null;
  forks: number | null;
  language: string | null;
  license: string | null;
  archived: boolean | null;
  created_at: string | null;
  pushed_at: string | null;
  topics: string[] | null;
  source: string | null;
  category: string | null;
}

const FIXTURE = join(import.meta.dir, "..", "fixtures", "real-plugins.json");
const UNKNOWN_TIME = "2025-06-01T00:00:00Z";
const MCP_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json";

/** The curated list each `source` tag stands for: where on the platform that list lives. */
const LISTS: Record<string, { repository: string; path: string }> = {
  "acc-csv": { repository: "hesreallyhim/awesome-claude-code", path: "README.md" },
  "bestof-mcp": { repository: "tolkonepiu/best-of-mcp-servers", path: "README.md" },
  "enh-mcp": { repository: "punkpeye/awesome-mcp-servers", path: "README.md" },
  "enh-awesome-mcp": { repository: "enhansome/enhansome-Awesome-MCP-Servers", path: "README.md" },
  "enh-agent-skills": { repository: "enhansome/enhansome-agent-skills", path: "README.md" },
  "enh-ai-plugins": { repository: "enhansome/enhansome-ai-plugins", path: "README.md" },
  "enh-cc": { repository: "v1nvn/enhansome-claude-code", path: "README.md" },
  "ccins-data": { repository: "zhoux77899/claude-code-insights", path: "README.md" },
};
const OFFICIAL_MARKETPLACE = "anthropics/claude-plugins-official";
const REGISTRY = { repository: "modelcontextprotocol/registry", path: "data/seed.json" };

/**
 * A fixture record's facts as the platform reports them: an unknown count is 0, topics none, not
 * archived, and an unknown creation or push time takes the other one, or UNKNOWN_TIME.
 */
export function platformFacts(p: RealPlugin) {
  return {
    full_name: p.full_name,
    description: p.description,
    homepage: p.homepage,
    stars: p.stars ?? 0,
    forks: p.forks ?? 0,
    language: p.language,
    license: p.license,
    archived: p.archived ?? false,
    created_at: p.created_at ?? p.pushed_at ?? UNKNOWN_TIME,
    pushed_at: p.pushed_at ?? p.created_at ?? UNKNOWN_TIME,
    topics: p.topics ?? [],
  };
}

export function realPlugins(): RealPlugin[] {
  return JSON.parse(readFileSync(FIXTURE, "utf8")) as RealPlugin[];
}

/** The package an MCP registry entry publishes, by the repository's language: npm, PyPI, or an OCI image. */
function registryPackage(p: RealPlugin): Record<string, unknown> {
  const [owner, name] = p.full_name.toLowerCase().split("/") as [string, string];
  const slug = name.replace(/[^a-z0-9-]/g, "-").replace(/^-+|-+$/g, "") || "server";
  if (p.language === "TypeScript" || p.language === "JavaScript")
    return { registryType: "npm", identifier: `@${owner}/${slug}`, version: "1.0.0", transport: { type: "stdio" } };
  if (p.language === "Python")
    return { registryType: "pypi", identifier: slug, version: "1.0.0", transport: { type: "stdio" } };
  return { registryType: "oci", identifier: `ghcr.io/${owner}/${slug}:1.0.0`, transport: { type: "stdio" } };
}

/**
 * The file through which an MCP server declares its SDK, by language (none for the others): how
 * most MCP servers would be found if no list named them.
 */
function sdkFile(p: RealPlugin, i: number): Record<string, string> {
  switch (p.language) {
    case "TypeScript":
    case "JavaScript":
      return {
        "package.json": JSON.stringify({
          name: p.full_name.split("/")[1],
          dependencies: { "@modelcontextprotocol/sdk": "^1.12.0", zod: "^3" },
        }),
      };
    case "Python":
      return i % 2 === 0
        ? { "pyproject.toml": `[project]\nname = "server"\ndependencies = ["mcp[cli]>=1.9", "httpx"]\n` }
        : { "requirements.txt": "fastmcp>=2.0\nrequests\n" };
    case "Go":
      return { "go.mod": "module github.com/x/server\n\ngo 1.23\n\nrequire github.com/mark3labs/mcp-go v0.32.0\n" };
    case "Rust":
      return {
        "Cargo.toml":
          '[package]\nname = "server"\n\n[dependencies]\nrmcp = { version = "0.3", features = ["server"] }\n',
      };
    default:
      return {};
  }
}

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n# ${name}\n`;

function seedOf(p: RealPlugin, sources: Set<string>, i: number): RepoSeed {
  const files: Record<string, string> = sources.has("acc-ticker") ? tickerFiles(p.full_name) : {};
  const kind = (p.category ?? "").split("/")[0];
  if (sources.has("cm-mkt"))
    files[".claude-plugin/marketplace.json"] = marketplaceManifest(p.full_name.split("/")[1]!, ["./"]);
  if (sources.has("mcpreg"))
    files["server.json"] = JSON.stringify({
      $schema: MCP_SCHEMA,
      name: `io.github.${p.full_name}`,
      version: "1.0.0",
      repository: { url: `https://github.com/${p.full_name}`, source: "github" },
      packages: [registryPackage(p)],
    });
  if (kind === "mcp-server" || kind === "mcp-framework") Object.assign(files, sdkFile(p, i));
  if (kind === "agent-skills") {
    // Packs (a plural name) keep skills in folders; a single skill sits at the root.
    if (/skills/i.test(p.full_name)) {
      files["skills/first-skill/SKILL.md"] = skillMd("first-skill");
      files["skills/second-skill/SKILL.md"] = skillMd("second-skill");
    } else files["SKILL.md"] = skillMd("the-skill");
  }
  if (kind === "claude-code-plugin") {
    files[".claude-plugin/plugin.json"] = JSON.stringify({ name: "plugin", version: "1.0.0" });
    files["commands/run.md"] = "Run it.";
  }
  return { ...platformFacts(p), files };
}

function readme(title: string, entries: RealPlugin[]): string {
  const lines = entries.map(
    (p) => `- [${p.full_name.split("/")[1]}](https://github.com/${p.full_name}) - ${p.description ?? ""}`,
  );
  return `# ${title}\n\n[![Sponsor](https://img.shields.io/badge/sponsor-1)](https://github.com/sponsors/someone)\n\n${lines.join("\n")}\n`;
}

export interface PluginSpace {
  /** Lowercased ids of the real plugins. */
  real: Set<string>;
  /** Lowercased ids of the distractors. */
  distractors: Set<string>;
}

/** Loads the real plugins, their lists and the distractors into `github`. */
export function loadPluginSpace(github: FakeGitHub): PluginSpace {
  const plugins = realPlugins();
  const byList = new Map<string, RealPlugin[]>();
  const official: RealPlugin[] = [];
  const registry: RealPlugin[] = [];
  const files = new Map<string, Record<string, string>>();
  for (const [i, p] of plugins.entries()) {
    const sources = new Set((p.source ?? "").split(";"));
    for (const tag of sources) if (LISTS[tag]) byList.set(tag, [...(byList.get(tag) ?? []), p]);
    if (sources.has("cpo")) official.push(p);
    if (sources.has("mcpreg")) registry.push(p);
    github.add(seedOf(p, sources, i));
  }
  for (const [tag, list] of Object.entries(LISTS))
    files.set(list.repository, { [list.path]: readme(tag, byList.get(tag) ?? []) });
  files.set(OFFICIAL_MARKETPLACE, {
    ".claude-plugin/marketplace.json": marketplaceManifest("claude-plugins-official", [
      "./plugins/example",
      ...official.map((p) => ({ source: "url", url: `https://github.com/${p.full_name}.git` })),
    ]),
  });
  files.set(REGISTRY.repository, {
    [REGISTRY.path]: JSON.stringify(
      {
        servers: registry.map((p) => ({
          name: `io.github.${p.full_name}`,
          repository: { url: `https://github.com/${p.full_name}`, source: "github" },
        })),
      },
      null,
      2,
    ),
  });
  for (const [repository, content] of files) {
    const known = github.repos.lookup(repository);
    if (known) Object.assign(known.repo.files, content);
    else github.add({ full_name: repository, description: "A list", stars: 1000, files: content });
  }
  const fakes = distractors();
  github.add(...fakes);
  return {
    real: new Set(plugins.map((p) => p.full_name.toLowerCase())),
    distractors: new Set(fakes.map((d) => d.full_name.toLowerCase())),
  };
}
