/**
 * The production install as an operator does it, on a machine with only Node: a clean clone,
 * `npm ci --omit=dev`, `npm start`, a request. Bun is a runtime dependency, so the start command
 * finds it in node_modules/.bin. And `engines` tells the truth: every package npm installs accepts
 * every Node version the project's range admits, so `npm install` warns of none.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import semver from "semver";
import { tempDir } from "../helpers";
import { ROOT, spawnService } from "./support/process";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** A PATH with Node and npm and the system's tools, and no Bun: what a machine with only Node has. */
function nodeOnlyPath(): string {
  const dirs = [dirname(Bun.which("node")!), dirname(Bun.which("npm")!), "/usr/bin", "/bin"];
  for (const dir of dirs) if (existsSync(join(dir, "bun"))) throw new Error(`${dir} holds a bun: not a Node-only PATH`);
  return [...new Set(dirs)].join(":");
}

function run(command: string[], cwd: string, env: Record<string, string>) {
  const done = Bun.spawnSync(command, { cwd, env, stdout: "pipe", stderr: "pipe" });
  const output = done.stdout.toString() + done.stderr.toString();
  if (done.exitCode !== 0) throw new Error(`${command.join(" ")} exited ${done.exitCode}:\n${output}`);
  return output;
}

/**
 * Test-only packages whose code never runs on Node, so their `engines` bind nothing here: the tests
 * run Claude Code's native binary for the platform, which the package ships beside its Node entry.
 */
const RUN_WITHOUT_NODE: Record<string, string> = {
  "node_modules/@anthropic-ai/claude-code":
    "the tests run its platform binary (test/claude-cli.ts), not its Node entry",
};

describe("the production install", () => {
  test("npm ci --omit=dev in a clean clone, then npm start, serves with only Node on the PATH", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const clone = join(dir, "catalog");
    const head = run(["git", "rev-parse", "HEAD"], ROOT, { PATH: process.env.PATH ?? "" }).trim();
    run(["git", "clone", "-q", "--no-checkout", ROOT, clone], dir, { PATH: process.env.PATH ?? "" });
    run(["git", "checkout", "-q", head], clone, { PATH: process.env.PATH ?? "" });
    const env = { PATH: nodeOnlyPath(), HOME: process.env.HOME ?? "/tmp", npm_config_update_notifier: "false" };

    const installed = run(["npm", "ci", "--omit=dev", "--no-audit", "--no-fund"], clone, env);
    expect(installed).not.toContain("EBADENGINE");
    expect(existsSync(join(clone, "node_modules", ".bin", "bun"))).toBe(true);
    // Only what the service runs on: no linter or test tools (ajv is not among them: the MCP SDK
    // that asks remote servers for their tools validates with it).
    for (const tool of ["@biomejs", "playwright-core", "fast-check", "@anthropic-ai/claude-code"]) {
      expect([tool, existsSync(join(clone, "node_modules", tool))]).toEqual([tool, false]);
    }

    const { service, listening } = spawnService(
      { ...env, DATABASE_PATH: join(dir, "catalog.sqlite") },
      ["npm", "start", "--silent"],
      clone,
    );
    cleanups.push(() => service.proc.kill("SIGKILL"));
    const url = await listening;
    const response = await fetch(`${url}/api/v1/plugins?pageSize=1`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { items: unknown[]; total: number } };
    expect(body.data.items).toHaveLength(1);
    expect(body.data.total).toBeGreaterThan(100);
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  }, 240_000);

  test("Bun is a runtime dependency, not a devDependency", () => {
    expect(manifest.dependencies.bun).toBeDefined();
    expect(manifest.devDependencies.bun).toBeUndefined();
  });

  test("every package of the lock file accepts every Node version engines admits, and the README says the same range", () => {
    const range: string = manifest.engines.node;
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
    const narrower: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages as Record<string, { engines?: unknown; dev?: boolean }>)) {
      const wanted = (entry.engines as { node?: string } | undefined)?.node;
      if (entry.dev === true && path in RUN_WITHOUT_NODE) continue;
      if (path !== "" && typeof wanted === "string" && !semver.subset(range, wanted)) {
        narrower.push(`${path}: ${wanted}`);
      }
    }
    expect(narrower).toEqual([]);
    expect(readFileSync(join(ROOT, "README.md"), "utf8").includes(`\`engines\`: \`${range}\``)).toBe(true);
  });
});
