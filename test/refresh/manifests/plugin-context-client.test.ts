/**
 * Each marketplace plugin's own context cost and inventory, judged by the real Claude Code CLI on
 * the real-manifests corpus (../shared/data/real-manifests; skipped with a message where absent,
 * never copied here). Each corpus marketplace is read through the clone reader, as the refresh
 * reads it; a deterministic sample of its plugins (round-robin over the repositories, at most
 * SAMPLE) is built as a folder in a temp dir from the corpus files and loaded with
 * `claude --plugin-dir <dir> plugin details <name>`, offline, a few at a time. A plugin agrees when
 * its always-on total is the client's, it counts as many skills and commands as the client's Skills
 * and as many agents, and its hook events and MCP servers are the client's. Entries that list component paths or say
 * `strict: false` are left out: the entry is seen by a marketplace install, never by `--plugin-dir`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PluginDetails } from "../../../src/catalog/model/details";
import { workTreeFiles } from "../../../src/refresh/fetch/clone-files";
import { cloneReader } from "../../../src/refresh/fetch/clones";
import { GateCounts } from "../../../src/refresh/upstream/gate";
import { claude } from "../../claude-cli";
import { TEST_EVIDENCE } from "../support";

const CORPUS = join(import.meta.dir, "..", "..", "..", "..", "shared", "data", "real-manifests");
const present = existsSync(join(CORPUS, "repos"));
if (!present) console.log(`plugin-context-client: ${CORPUS} is absent; the corpus judgement is skipped`);

/** Plugins loaded in the client at most, and how many at once. */
const SAMPLE = 60;
const AT_ONCE = 3;
/** The share of sampled plugins the catalog says it read whole that must agree, and of all of them (the 95%). */
const FLOOR = 95;
const FLOOR_ALL = 95;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const LISTED = ["commands", "agents", "skills", "hooks", "mcpServers"] as const;

const root = mkdtempSync(join(tmpdir(), "plugin-context-client-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function parse(path: string): Json | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function repositories(): string[] {
  return readdirSync(join(CORPUS, "repos"))
    .sort()
    .flatMap((owner) =>
      readdirSync(join(CORPUS, "repos", owner))
        .sort()
        .map((repo) => `${owner}/${repo}`),
    );
}

/** `<root>/<source>` without `./`, or null for a source that is no folder of the repository. */
function folderOf(pluginRoot: unknown, source: unknown): string | null {
  if (typeof source !== "string" || !source.startsWith("./")) return null;
  const base = typeof pluginRoot === "string" ? pluginRoot : "";
  const parts = `${base}/${source}`.split("/").filter((p) => p !== "" && p !== ".");
  return parts.includes("..") ? null : parts.join("/");
}

type Served = NonNullable<PluginDetails["contents"]>["plugins"][number];
interface Case {
  repo: string;
  folder: string;
  entry: string;
  served: Served;
}

/** Every marketplace plugin the catalog gave a context, per repository, in the marketplace's order. */
function cases(): Case[][] {
  const read = cloneReader(new GateCounts(), TEST_EVIDENCE);
  const byRepo: Case[][] = [];
  for (const repo of repositories()) {
    const market = parse(join(CORPUS, "repos", repo, ".claude-plugin/marketplace.json"));
    if (!market || !Array.isArray(market.plugins)) continue;
    const details = read(workTreeFiles(join(CORPUS, "repos", repo)), repo);
    const served = new Map((details?.contents?.plugins ?? []).map((p) => [p.name, p]));
    const pluginRoot = isObject(market.metadata) ? market.metadata.pluginRoot : undefined;
    const own: Case[] = [];
    for (const entry of market.plugins) {
      if (!isObject(entry) || typeof entry.name !== "string" || entry.strict === false) continue;
      if (LISTED.some((k) => entry[k] !== undefined)) continue;
      const folder = folderOf(pluginRoot, entry.source);
      const got = served.get(entry.name);
      if (folder === null || !got?.context || !existsSync(join(CORPUS, "repos", repo, folder))) continue;
      if (own.some((c) => c.entry === entry.name)) continue;
      own.push({ repo, folder, entry: entry.name, served: got });
    }
    if (own.length > 0) byRepo.push(own);
  }
  return byRepo;
}

/** Round-robin over the repositories: the first plugin of each, then the second, up to SAMPLE. */
function sample(byRepo: Case[][]): Case[] {
  const picked: Case[] = [];
  for (let round = 0; picked.length < SAMPLE && byRepo.some((r) => r.length > round); round++)
    for (const r of byRepo) if (r[round] && picked.length < SAMPLE) picked.push(r[round]!);
  return picked;
}

interface ClientView {
  total: number;
  skills: string[];
  agents: string[];
  hooks: string[];
  mcp: string[];
}

/** The client's inventory and always-on total for one plugin folder built from the corpus. */
async function clientView(c: Case, n: number): Promise<ClientView | string> {
  const dir = join(root, String(n), c.entry);
  mkdirSync(dir, { recursive: true });
  cpSync(join(CORPUS, "repos", c.repo, c.folder), dir, { recursive: true });
  const manifest = parse(join(dir, ".claude-plugin/plugin.json"));
  const name = typeof manifest?.name === "string" ? manifest.name : c.entry;
  const { code, out } = await claude(root, ["--plugin-dir", dir, "plugin", "details", name]);
  const total = /Always-on:\s+~([\d,]+) tok/.exec(out)?.[1];
  if (code !== 0 || total === undefined) return `client exit ${code}: ${out.slice(0, 200)}`;
  // The client wraps a line past about 8 KB (a plugin of hundreds of skills): its continuation lines have no indent.
  const listed = (label: string) => {
    const line = new RegExp(`^  ${label} \\((\\d+)\\)(?:  (.*(?:\\n(?! |$).*)*))?$`, "m").exec(out);
    const names = (line?.[2] ?? "").replaceAll("\n", " ").replace(/\s+\(.*\)$/, "");
    return names === "" ? [] : names.split(", ").sort();
  };
  return {
    total: Number(total.replaceAll(",", "")),
    skills: listed("Skills"),
    agents: listed("Agents"),
    hooks: listed("Hooks"),
    mcp: listed("MCP servers"),
  };
}

/** What differs between the catalog's view of a plugin and the client's; [] when they agree. */
function differences(served: Served, client: ClientView): string[] {
  const parts = served.contents!;
  const context = served.context!;
  const out: string[] = [];
  const same = (a: readonly string[], b: readonly string[]) => [...a].sort().join("\n") === [...b].sort().join("\n");
  if (context.always_on !== client.total) out.push(`always-on ${context.always_on}, client ${client.total}`);
  const counted = context.counts.skills + context.counts.commands;
  if (counted !== client.skills.length)
    out.push(`skills+commands ${context.counts.skills}+${context.counts.commands}, client ${client.skills.length}`);
  if (context.counts.agents !== client.agents.length)
    out.push(`agents ${context.counts.agents}, client ${client.agents.length}`);
  if (!same(parts.hooks, client.hooks)) out.push(`hooks [${parts.hooks}], client [${client.hooks}]`);
  if (!same(parts.mcp_servers, client.mcp)) out.push(`mcp [${parts.mcp_servers}], client [${client.mcp}]`);
  return out;
}

describe.skipIf(!present)("marketplace plugins' context cost against the real client, on the corpus", () => {
  test("the catalog's per-plugin inventory and always-on total are the client's for nearly every sampled plugin", async () => {
    const picked = sample(cases());
    const misses: string[] = [];
    const unloadable: string[] = [];
    let partial = 0;
    let next = 0;
    const worker = async () => {
      while (next < picked.length) {
        const n = next++;
        const c = picked[n]!;
        const client = await clientView(c, n);
        const where = `${c.repo} ${c.entry} (${c.folder || "./"})`;
        // A plugin the client refuses to load (an invalid plugin.json) has no figure to compare.
        if (typeof client === "string" && client.includes("not found")) unloadable.push(where);
        else {
          const diff = typeof client === "string" ? [client] : differences(c.served, client);
          const context = c.served.context!;
          const whole = context.complete || (context.hooks_add_context !== undefined && !c.served.contents?.partial);
          if (!whole) partial++;
          if (diff.length > 0) misses.push(`${where}${whole ? "" : " [said incomplete]"}: ${diff.join("; ")}`);
        }
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    const repos = new Set(picked.map((c) => c.repo)).size;
    const compared = picked.length - unloadable.length;
    const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((1000 * a) / b) / 10);
    const agreed = compared - misses.length;
    const whole = compared - partial;
    const wholeAgreed = whole - misses.filter((m) => !m.includes("[said incomplete]")).length;
    console.log(
      `plugin-context-client: ${agreed}/${compared} plugins of ${repos} repositories agree (${pct(agreed, compared)}%); ` +
        `of the ${whole} the catalog says it read whole, ${wholeAgreed} (${pct(wholeAgreed, whole)}%); ` +
        `${unloadable.length} the client refuses to load left out`,
    );
    for (const miss of misses) console.log(`plugin-context-client: ${miss}`);
    for (const u of unloadable) console.log(`plugin-context-client: the client does not load ${u}`);
    expect(compared).toBeGreaterThanOrEqual(40);
    expect(pct(wholeAgreed, whole)).toBeGreaterThanOrEqual(FLOOR);
    expect(pct(agreed, compared)).toBeGreaterThanOrEqual(FLOOR_ALL);
  }, 600_000);
});
