/**
 * `bun run bench/context-corpus.ts <folder> [per-repository]`: the catalog's context cost against the
 * real Claude Code CLI over local copies of real plugins (`<folder>/<owner>/<repo>/…`). The folders
 * holding `.claude-plugin/plugin.json` (a repository's root or a marketplace's plugin folders; the
 * first 5 of each repository by default, so no large marketplace outweighs the rest) are read with
 * the refresh's own reader (clones.ts: the same selections, gate and estimate) and loaded with
 * `claude --plugin-dir <dir> plugin details <name>`, offline (throw-away HOME, proxy on the
 * loopback range). Prints each disagreement and the agreement rate: the always-on total within 15%
 * or 20 tokens, whichever is larger, and the same inventory. Measurement only: reads local files.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { loadDiscoveryRules } from "../src/refresh/discover/discovery-rules";
import { workTreeFiles } from "../src/refresh/fetch/clone-files";
import { cloneReader } from "../src/refresh/fetch/clones";
import { GateCounts } from "../src/refresh/upstream/gate";

const root = process.argv[2];
if (!root) throw new Error("usage: bun run bench/context-corpus.ts <folder> [per-repository]");
const perRepository = Number(process.argv[3] ?? 5);
/** Printed at once: a long run's progress survives an interruption. */
const print = (line: string) => writeSync(1, `${line}\n`);
const modules = join(import.meta.dir, "../node_modules/@anthropic-ai");
const platform = join(modules, `claude-code-${process.platform}-${process.arch}`, "claude");
const CLAUDE = existsSync(platform) ? platform : join(modules, "claude-code/bin/claude.exe");
const home = mkdtempSync(join(tmpdir(), "context-corpus-"));

/** Every folder holding `.claude-plugin/plugin.json`, six levels deep at most. */
function pluginFolders(dir: string, depth = 0): string[] {
  if (depth > 6) return [];
  const found = existsSync(join(dir, ".claude-plugin/plugin.json")) ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
      found.push(...pluginFolders(join(dir, entry.name), depth + 1));
  return found;
}

function client(dir: string, name: string): { total: number; skills: string[]; agents: string[] } | null {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    HTTPS_PROXY: "http://127.0.0.1:9",
    HTTP_PROXY: "http://127.0.0.1:9",
    NO_COLOR: "1",
  };
  const out = Bun.spawnSync([CLAUDE, "--plugin-dir", dir, "plugin", "details", name], { env }).stdout.toString();
  const total = /Always-on:\s+~([\d,]+) tok/.exec(out)?.[1];
  if (total === undefined) return null;
  const listed = (label: string) => {
    const line = new RegExp(`^  ${label} \\((\\d+)\\)(?:  (.*))?$`, "m").exec(out);
    return line?.[2] ? line[2].split(", ") : [];
  };
  return { total: Number(total.replaceAll(",", "")), skills: listed("Skills"), agents: listed("Agents") };
}

const rules = loadDiscoveryRules(join(import.meta.dir, "..", "db"));
const read = cloneReader(new GateCounts(), rules.evidence);
const sanitized = (n: string) => n.replace(/[^a-zA-Z0-9_-]/g, "-");
let plugins = 0;
let agreeTotal = 0;
let agreeInventory = 0;
let exact = 0;
let unmeasured = 0;
let complete = 0;
let completeAgree = 0;
const folders = readdirSync(root).flatMap((owner) =>
  statSync(join(root, owner)).isDirectory()
    ? readdirSync(join(root, owner)).flatMap((repo) => {
        const dir = join(root, owner, repo);
        return statSync(dir).isDirectory() ? pluginFolders(dir).slice(0, perRepository) : [];
      })
    : [],
);
for (const dir of folders) {
  if (!statSync(dir).isDirectory()) continue;
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(join(dir, ".claude-plugin/plugin.json"), "utf8")) as { name?: unknown }).name;
  } catch {
    continue;
  }
  if (typeof name !== "string" || name === "" || /\s/.test(name)) continue;
  const judged = client(dir, name);
  if (judged === null) continue;
  plugins++;
  const context = read(workTreeFiles(dir), `corpus/${basename(dir)}`)?.context;
  const where = relative(root, dir) || ".";
  if (!context) {
    unmeasured++;
    print(`unmeasured  ${where}  client ${judged.total}`);
    continue;
  }
  const ours = context.always_on;
  const within = Math.abs(ours - judged.total) <= Math.max(20, 0.15 * judged.total);
  const served = context.components.map((c) => c.name).sort();
  const expected = [...judged.skills.map((s) => `${name}:${sanitized(s)}`), ...judged.agents].sort();
  const same = JSON.stringify(served) === JSON.stringify(expected);
  agreeTotal += within ? 1 : 0;
  agreeInventory += same ? 1 : 0;
  exact += ours === judged.total ? 1 : 0;
  complete += context.complete ? 1 : 0;
  completeAgree += context.complete && within && same ? 1 : 0;
  if (!within || !same)
    print(
      `differs  ${where}  ours ${ours} client ${judged.total} complete ${context.complete}` +
        (same ? "" : `  inventory ours ${served.length} client ${expected.length}`),
    );
}
rmSync(home, { recursive: true, force: true });
const rate = (n: number) => `${n}/${plugins} (${((100 * n) / Math.max(1, plugins)).toFixed(1)}%)`;
print(`plugins judged by the client: ${plugins}`);
print(`always-on within 15% or 20 tokens: ${rate(agreeTotal)}; exactly equal: ${rate(exact)}`);
print(`same inventory: ${rate(agreeInventory)}; not measured by the catalog: ${unmeasured}`);
print(`said complete by the catalog: ${complete}, of which agree on both: ${completeAgree}`);
