/**
 * The files of the repositories only the awesome-claude-code ticker names, as test/fixtures/ticker-files.json
 * records them from each repository's snapshot: the paths where a harness looks for plugin parts,
 * each with a placeholder body of its kind, and a package.json naming the MCP SDKs it depends on.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { marketplaceManifest } from "./github-repos";

interface TickerRepo {
  commit: string;
  paths: string[];
  package_dependencies?: string[];
}

const FIXTURE = join(import.meta.dir, "..", "fixtures", "ticker-files.json");
let known: Map<string, TickerRepo> | null = null;

function repositories(): Map<string, TickerRepo> {
  known ??= new Map(
    Object.entries(
      (JSON.parse(readFileSync(FIXTURE, "utf8")) as { repositories: Record<string, TickerRepo> }).repositories,
    ).map(([id, repo]) => [id.toLowerCase(), repo]),
  );
  return known;
}

/** A placeholder body for a path of the recorded kinds. */
function body(path: string, repo: string): string {
  if (path === ".claude-plugin/marketplace.json") return marketplaceManifest(repo, ["./"]);
  if (path === ".claude-plugin/plugin.json") return JSON.stringify({ name: repo });
  const name = path.endsWith("SKILL.md") ? basename(dirname(path)) : basename(path, ".md");
  const kind = path.endsWith("SKILL.md") ? "skill" : path.includes("/agents/") ? "agent" : "command";
  const label = name === "." ? repo : name;
  return `---\nname: ${label}\ndescription: The ${label} ${kind}\n---\n\n# ${label}\n`;
}

/** The recorded files of `fullName`, or none when the fixture has no record of it. */
export function tickerFiles(fullName: string): Record<string, string> {
  const repo = repositories().get(fullName.toLowerCase());
  if (!repo) return {};
  const name = fullName.split("/")[1]!;
  const files = Object.fromEntries(repo.paths.map((path) => [path, body(path, name)]));
  if (repo.package_dependencies?.length)
    files["package.json"] = JSON.stringify({
      name,
      dependencies: Object.fromEntries(repo.package_dependencies.map((d) => [d, "^1.0.0"])),
    });
  return files;
}
