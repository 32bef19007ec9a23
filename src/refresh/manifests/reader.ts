/**
 * The manifests a repository ships, read inside the fetch's own GraphQL queries and turned into
 * its contents, install instructions, the harnesses it works with, and flags. Each kind has its
 * reader (plugin-manifest.ts, marketplace.ts, server.ts, mcp.ts, gemini.ts, skills.ts, hook-events.ts,
 * packages.ts); every byte passes manifest-gate.ts. A manifest that fails yields nothing and is counted by
 * reason; it never fails a refresh.
 */

import {
  type Contents,
  CUT_LISTS,
  type Harness,
  type Install,
  MAX_INSTRUCTIONS,
  MAX_LIST_ITEMS,
  type PluginDetails,
  validDetails,
} from "../../catalog/model/details";
import type { McpRegistryIdentity } from "../../catalog/model/mcp-identity";
import { DEFAULT_OWNER_FILE } from "../../settings";
import type { DiscoveryRules } from "../discover/discovery-rules";
import { manifestRisk } from "../risk/manifest";
import type { GateCounts } from "../upstream/gate";
import { contextFiles } from "./context-files";
import { forkOf, latestRelease } from "./flags";
import { readGemini } from "./gemini";
import { hookEvents } from "./hook-events";
import {
  ENTRY_NAME,
  Gate,
  isObject,
  type Json,
  MAX_ENTRIES,
  MAX_MANIFEST_BYTES,
  MAX_MARKETPLACE_BYTES,
  PLUGIN_NAME,
} from "./manifest-gate";
import { readMarketplace } from "./marketplace";
import { rootLayout } from "./marketplace-entry";
import { mcpJson } from "./mcp";
import { otherHarnesses } from "./other-harnesses";
import { MAX_OWNER_BYTES, type OwnerFile, ownerVerified, readOwnerFile } from "./owner-file";
import { dependencies } from "./packages";
import { finishPlugins, pluginFolderList, pluginInstallLines } from "./plugin-folders";
import { readPlugin } from "./plugin-manifest";
import type { Found, ManifestReading } from "./reading";
import { alias, type FileKey, MANIFEST_FILES, MANIFEST_TREES, OWNER_ALIAS, type TreeKey } from "./selection";
import { packageInstalls, readServer } from "./server";
import { finishSkills, type SkillObjects } from "./skill-folders";
import { skillPlaces } from "./skill-places";
import { frontMatter } from "./skills";

export { MAX_ENTRIES, MAX_MANIFEST_BYTES, MAX_MARKETPLACE_BYTES } from "./manifest-gate";
export { partsSelection } from "./plugin-folders";
export type { ManifestReading, PublishedNames } from "./reading";
export { MANIFEST_FILES, MANIFEST_TREES, manifestSelection, skillSelection } from "./selection";
export { SKILLS_CLI } from "./skills";

/** Reads one repository's manifests; every refusal is counted under `manifest <file>: <reason>`. */
export class ManifestReader {
  /** Every refusal of its readings passes it (the listed round's too: plugin-listed.ts). */
  readonly gate: Gate;

  constructor(
    counts: GateCounts,
    private readonly rules: DiscoveryRules["evidence"],
    /** The owner file's path in each repository (OWNER_FILE). */
    readonly ownerFile: string = DEFAULT_OWNER_FILE,
  ) {
    this.gate = new Gate(counts);
  }

  private text(node: Json, key: FileKey, id: string): string | null {
    const cap = key === "marketplace" ? MAX_MARKETPLACE_BYTES : MAX_MANIFEST_BYTES;
    return this.gate.text(node[alias(key)], MANIFEST_FILES[key], cap, id);
  }

  private json(node: Json, key: FileKey, id: string): Json | null {
    return this.gate.json(this.text(node, key, id), MANIFEST_FILES[key], id);
  }

  /** Entry names of a folder, `type` blob or tree, the first MAX_ENTRIES; null when there is no such folder. */
  private entries(node: Json, key: TreeKey, type: "blob" | "tree"): string[] | null {
    const tree = node[alias(key)] as { entries?: unknown } | null | undefined;
    if (!isObject(tree) || !Array.isArray(tree.entries)) return null;
    return tree.entries
      .slice(0, MAX_ENTRIES)
      .filter((e): e is { name: string; type: string } => isObject(e) && typeof e.name === "string" && e.type === type)
      .map((e) => e.name);
  }

  /** Markdown files of a folder as names without `.md`, checked. */
  private markdownNames(node: Json, key: TreeKey, id: string): string[] {
    const names: string[] = [];
    for (const file of this.entries(node, key, "blob") ?? []) {
      if (!file.toLowerCase().endsWith(".md") || /^readme\.md$/i.test(file)) continue;
      const name = file.slice(0, -3);
      if (ENTRY_NAME.test(name)) names.push(name);
      else this.gate.refuse(`${MANIFEST_TREES[key]}/`, "entry name not accepted", id);
    }
    return names;
  }

  /** The Claude Code, MCP and Gemini manifests. */
  private claudeAndMcp(node: Json, id: string, found: Found): void {
    const plugin = this.json(node, "plugin", id);
    if (plugin) {
      const read = readPlugin(this.gate, plugin, id);
      found.plugin = { manifest: plugin, loads: read.loads };
      if (read.loads) found.works.add("claude-code");
      found.hooks.push(...read.hooks);
      found.mcpServers.push(...read.mcpServers);
    }
    const marketplace = this.json(node, "marketplace", id);
    found.market = marketplace ? readMarketplace(this.gate, marketplace, id, rootLayout(node)) : null;
    found.marketJson = marketplace;
    if (found.market) {
      if (!found.market.refused) found.works.add("claude-code");
      found.install.push(...found.market.install);
    }
    const hooks = this.json(node, "hooks", id);
    if (hooks) found.hooks.push(...hookEvents(this.gate, hooks, MANIFEST_FILES.hooks, id));
    const mcp = this.json(node, "mcp", id);
    if (mcp) found.mcpServers.push(...mcpJson(this.gate, mcp, MANIFEST_FILES.mcp, id));
    const server = this.json(node, "server", id);
    const read = server ? readServer(this.gate, server, id) : null;
    if (read) {
      found.works.add("mcp");
      found.mcpServers.push(read.name);
      found.install.push(...read.install);
      found.deprecated ||= read.deprecated;
      found.registry = read.registry;
    }
    otherHarnesses(this.gate, (key) => this.json(node, key, id), id, found);
    const gemini = this.json(node, "gemini", id);
    const extension = gemini ? readGemini(this.gate, gemini, id) : null;
    if (extension) {
      found.works.add("gemini-cli");
      found.mcpServers.push(...extension.mcpServers);
      found.install.push(...extension.install);
    }
  }

  /** The root SKILL.md and the package files' SDK dependencies. */
  private skillAndPackages(node: Json, id: string, found: Found): void {
    const rootSkill = this.text(node, "skill", id);
    const skill = rootSkill === null ? null : frontMatter(this.gate, rootSkill, MANIFEST_FILES.skill, id);
    if (skill) {
      found.works.add("agent-skills");
      found.skills.push(skill);
      const command = `git clone https://github.com/${id}.git .claude/skills/${skill.name}`;
      const step: Install = { harness: "claude-code", kind: "skill", command, env: [], from: MANIFEST_FILES.skill };
      found.install.push(...this.gate.instructions(id, [step]));
    }
    const texts = {
      package: this.text(node, "package", id),
      pyproject: this.text(node, "pyproject", id),
      requirements: this.text(node, "requirements", id),
      gomod: this.text(node, "gomod", id),
      cargo: this.text(node, "cargo", id),
    };
    const declared = dependencies(this.gate, texts, id);
    found.packages = declared.packages;
    for (const dep of declared.dependencies) {
      if (!this.rules.dependencies.some((r) => r.file === dep.file && r.name === dep.name)) continue;
      found.evidence.push(`${dep.file}: ${dep.name}`);
      found.works.add("mcp");
      // The package that depends on an MCP SDK is the server: its own name is the server's.
      const own = declared.names.get(dep.file);
      if (own) found.mcpServers.push(own);
    }
  }

  /** The owner file, read through the gate (owner-file.ts). */
  private owner(node: Json, id: string): OwnerFile | null {
    const text = this.gate.text(node[OWNER_ALIAS], this.ownerFile, MAX_OWNER_BYTES, id);
    return readOwnerFile(this.gate, text, this.ownerFile, id);
  }

  /** Reads everything the batch brought for repository `id` (its `owner/name`). */
  read(node: Json, id: string): ManifestReading {
    const found: Found = {
      works: new Set(),
      install: [],
      skills: [],
      mcpServers: [],
      hooks: [],
      market: null,
      marketJson: null,
      deprecated: false,
      evidence: [],
      packages: {},
      registry: null,
      plugin: null,
    };
    this.claudeAndMcp(node, id, found);
    this.skillAndPackages(node, id, found);
    const claude = {
      ".claude/commands": this.markdownNames(node, "claudeCommands", id),
      ".claude/agents": this.markdownNames(node, "claudeAgents", id),
    };
    const commands = [...this.markdownNames(node, "commands", id), ...claude[".claude/commands"]];
    const agents = [...this.markdownNames(node, "agents", id), ...claude[".claude/agents"]];
    for (const folder of this.rules.folders) {
      const names = (claude as Record<string, string[]>)[folder.path];
      if (names && names.length > 0) found.evidence.push(`${folder.path}/`);
    }
    if (claude[".claude/commands"].length + claude[".claude/agents"].length > 0) found.works.add("claude-code");
    if (!found.hooks.length && this.entries(node, "hooksDir", "blob")?.includes("hooks.json"))
      this.gate.refuse(MANIFEST_FILES.hooks, "no events", id);
    const places = skillPlaces(node, found.marketJson);
    const unique = (list: string[]) => [...new Set(list)];
    const market = found.market;
    const contents: Contents = {
      skills: found.skills,
      commands: unique(commands),
      agents: unique(agents),
      hooks: unique(found.hooks),
      mcp_servers: unique(found.mcpServers),
      plugins: market?.plugins ?? [],
      counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, plugins: market?.count ?? 0 },
    };
    if (market?.name) contents.marketplace = { name: market.name, refused: market.refused };
    const owner = this.owner(node, id);
    const details: PluginDetails = {
      contents,
      install: found.install,
      works_with: [...found.works],
      fork_of: forkOf(node),
      deprecated: found.deprecated || Boolean(owner?.deprecation),
      latest_release: latestRelease(node),
      ...manifestRisk(node),
      ...(found.registry ? { mcp_registry: found.registry } : {}),
      ...(owner?.deprecation ? { deprecation: owner.deprecation } : {}),
      ...(owner?.canonical ? { canonical: owner.canonical } : {}),
      ...(ownerVerified(node) ? { owner_verified: true as const } : {}),
    };
    return {
      excluded: owner?.exclude === true,
      details,
      evidence: found.evidence,
      skillDirs: places.folders.slice(0, MAX_LIST_ITEMS).map((f) => f.path),
      skillFolders: places.folders,
      skillLists: places.lists,
      pluginFolders: pluginFolderList(market, found.marketJson, id),
      packages: found.packages,
      context: contextFiles(node, found.plugin?.manifest ?? null, found.plugin?.loads ?? false, id),
    };
  }

  /** The two lines for a package its registry confirmed (refresh/registries), built and checked like server.json's. */
  packageLines(kind: "npm" | "pypi", identifier: string, version: string, id: string, from: string): Install[] {
    const name = identifier.slice(identifier.lastIndexOf("/") + 1);
    if (!PLUGIN_NAME.test(name)) return [];
    return packageInstalls(this.gate, kind, identifier, version, name, id).map((i) => ({ ...i, from }));
  }

  /**
   * Completes a reading with the follow-up query's SKILL.md files (`objects` by folder path) and
   * plugin skill folders' listings (`lists` by path): skills, `agent-skills`, the folder evidence.
   */
  finishSkills(reading: ManifestReading, brought: SkillObjects, id: string): PluginDetails {
    const read = finishSkills(this.gate, reading, brought, id);
    if (read && this.rules.folders.some((f) => f.path === "skills")) reading.evidence.push("skills/*/SKILL.md");
    return reading.details;
  }

  /** Completes a reading with each marketplace plugin's own parts, from the follow-up's answer (null when it failed). */
  finishPlugins(reading: ManifestReading, node: Json | null, id: string): void {
    finishPlugins(this.gate, reading.details, reading.pluginFolders, node, id);
  }

  /** The details with every list within its cap (`truncated` names the cut ones), checked against their schema once more. */
  checked(details: PluginDetails, id: string): PluginDetails | null {
    const c = details.contents;
    if (c) {
      pluginInstallLines(details);
      c.counts = {
        ...c.counts,
        skills: c.skills.length,
        commands: c.commands.length,
        agents: c.agents.length,
        hooks: c.hooks.length,
        mcp_servers: c.mcp_servers.length,
      };
      const lists = CUT_LISTS.filter((k) => k !== "install");
      const cut: Array<(typeof CUT_LISTS)[number]> = lists.filter((k) => c[k].length > MAX_LIST_ITEMS);
      for (const k of lists) (c[k] as unknown[]) = c[k].slice(0, MAX_LIST_ITEMS);
      if (c.counts.plugins > c.plugins.length && !cut.includes("plugins")) cut.push("plugins");
      if (details.install.length > MAX_INSTRUCTIONS) {
        details.install = details.install.slice(0, MAX_INSTRUCTIONS);
        cut.push("install");
      }
      if (cut.length) c.truncated = cut;
      if (Object.values(c.counts).every((n) => n === 0) && !c.marketplace) details.contents = null;
    }
    return validDetails(details) ?? this.gate.refuse("details", "do not match their schema", id);
  }
}
