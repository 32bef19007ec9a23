/**
 * The manifests a repository ships, read inside the fetch's own GraphQL queries and turned into
 * its contents, install instructions, the harnesses it works with, and flags. Every byte passes
 * one gate: a size cap per file, an entry cap per list, strict parsing (JSON.parse, `smol-toml`,
 * `yaml`), names checked against the forms their tools accept, text cleaned like descriptions.
 * A manifest that fails yields nothing and is counted by reason; it never fails a refresh. An
 * instruction is built only from checked tokens and checked once more as a whole: no shell
 * metacharacter, no unpinned version, no secret (a `<NAME>` placeholder stands for each value).
 */
import { parse as parseToml } from "smol-toml";
import { parseDocument } from "yaml";
import {
  type Contents,
  type Harness,
  type Install,
  MAX_INSTRUCTIONS,
  MAX_LIST_ITEMS,
  MCP_SERVER_NAME,
  MCP_SERVER_VERSION,
  type McpRegistryIdentity,
  type PluginDetails,
  validDetails,
} from "../../catalog/model/details";
import type { DiscoveryRules } from "../rules";
import { cleanText, type GateCounts, isRepoId } from "../upstream";

/** Root files read, by GraphQL alias. */
export const MANIFEST_FILES = {
  plugin: ".claude-plugin/plugin.json",
  marketplace: ".claude-plugin/marketplace.json",
  server: "server.json",
  package: "package.json",
  pyproject: "pyproject.toml",
  requirements: "requirements.txt",
  gomod: "go.mod",
  cargo: "Cargo.toml",
  skill: "SKILL.md",
  hooks: "hooks/hooks.json",
  mcp: ".mcp.json",
  gemini: "gemini-extension.json",
} as const;
type FileKey = keyof typeof MANIFEST_FILES;

/** Folders whose entries are listed, by GraphQL alias. */
export const MANIFEST_TREES = {
  commands: "commands",
  agents: "agents",
  skills: "skills",
  hooksDir: "hooks",
  claudeCommands: ".claude/commands",
  claudeAgents: ".claude/agents",
} as const;
type TreeKey = keyof typeof MANIFEST_TREES;

/** Bytes read of one manifest; a marketplace may list hundreds of plugins, so it gets more. */
export const MAX_MANIFEST_BYTES = 256 * 1024;
export const MAX_MARKETPLACE_BYTES = 1024 * 1024;
/** Entries of one list read at most (a marketplace's plugins, a folder's files): past it the rest is only counted. */
export const MAX_ENTRIES = 1000;
/** `skills/<name>/SKILL.md` files read per repository, in the one extra query per batch. */
export const SKILLS_READ_PER_REPO = 10;
/** The open agent-skills installer, pinned: it installs one named skill out of a repository's `skills/` folders. */
export const SKILLS_CLI = "skills@1.7.4";
/** Front matter read at most. */
const MAX_FRONT_MATTER = 16 * 1024;
const MAX_TEXT = 300;

const alias = (key: string) => `m_${key}`;

/** The selection each repository field adds to the batch query: facts for flags, files, folders. */
export function manifestSelection(): string {
  const at = (path: string) => `object(expression: ${JSON.stringify(`HEAD:${path}`)})`;
  const blobs = Object.entries(MANIFEST_FILES).map(
    ([key, path]) => `${alias(key)}: ${at(path)} { ... on Blob { byteSize isTruncated text } }`,
  );
  const trees = Object.entries(MANIFEST_TREES).map(
    ([key, path]) => `${alias(key)}: ${at(path)} { ... on Tree { entries { name type } } }`,
  );
  return ["isFork parent { nameWithOwner } latestRelease { tagName publishedAt }", ...blobs, ...trees].join("\n  ");
}

/** The GraphQL fields of one follow-up repository: the SKILL.md of each named skill folder. */
export function skillSelection(dirs: readonly string[]): string {
  return dirs
    .map(
      (dir, i) =>
        `k${i}: object(expression: ${JSON.stringify(`HEAD:skills/${dir}/SKILL.md`)}) { ... on Blob { byteSize isTruncated text } }`,
    )
    .join("\n  ");
}

const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const ENTRY_NAME = /^[A-Za-z0-9_][A-Za-z0-9._ -]{0,99}$/;
const HOOK_EVENT = /^[A-Z][A-Za-z]{1,39}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]{0,100}\/)?[a-z0-9][a-z0-9._-]{0,100}$/;
const SEMVER = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,40})?(?:\+[0-9A-Za-z.-]{1,40})?$/;
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?$/;
const PEP440 = /^\d{1,9}(?:\.\d{1,9}){0,4}(?:(?:a|b|rc)\d{1,4})?(?:\.post\d{1,4})?(?:\.dev\d{1,4})?$/;
const OCI_REPO = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::\d{1,5})?(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+$/;
const OCI_TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const OCI_DIGEST = /^sha256:[a-f0-9]{64}$/;
const MCP_NAME = new RegExp(MCP_SERVER_NAME);
const MCP_VERSION = new RegExp(MCP_SERVER_VERSION);
/** A version component that stands for many: `1.x`, `1.*`. */
const WILDCARD = /(?:^|\.)[xX*](?:\.|$)/;

/** server.json's `version` when it names one exact version, else null. */
function exactVersion(value: unknown): string | null {
  if (typeof value !== "string" || !MCP_VERSION.test(value)) return null;
  return value.toLowerCase() === "latest" || WILDCARD.test(value) ? null : value;
}

/** What a server.json yields: its short name, status, install instructions and registry identity. */
interface ServerReading {
  name: string;
  deprecated: boolean;
  install: Install[];
  registry: McpRegistryIdentity | null;
}
const REMOTE_URL = /^https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]*)*$/;
/**
 * A whole command: words of letters, digits and `@/:._=+,-`, a `<NAME>` placeholder as a value,
 * one space between words. No quote, `$`, backtick, `;`, `&`, `|`, `<` or `>` otherwise, `~`,
 * `*`, `?`, `!`, `#`, brackets, braces, parentheses, backslash or line break.
 */
const SAFE_COMMAND =
  /^(?:[A-Za-z0-9@/:._=+,-]|<[A-Za-z_][A-Za-z0-9_]{0,63}>)+(?: (?:[A-Za-z0-9@/:._=+,-]|<[A-Za-z_][A-Za-z0-9_]{0,63}>)+)*$/;
const MCP_SCHEMA = "modelcontextprotocol.io/schemas";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

interface Blob {
  byteSize?: unknown;
  isTruncated?: unknown;
  text?: unknown;
}

/** The evidence a repository's manifests add, and what a follow-up query must still read. */
export interface ManifestReading {
  details: PluginDetails;
  /** Evidence labels (`package.json: @modelcontextprotocol/sdk`, `skills/*\/SKILL.md`), matched against the rules. */
  evidence: string[];
  /** Skill folders whose SKILL.md the follow-up query reads. */
  skillDirs: string[];
  /** Folder names under `skills/`, all of them (for the counts). */
  skillFolders: number;
}

/** Reads one repository's manifests; every refusal is counted in `counts` under `manifest <file>: <reason>`. */
export class ManifestReader {
  constructor(
    private readonly counts: GateCounts,
    private readonly rules: DiscoveryRules["evidence"],
  ) {}

  private refuse(file: string, reason: string, id: string): null {
    this.counts.leaveOut(`manifest ${file}: ${reason}`, id);
    return null;
  }

  /** A manifest's text within its cap, or null (counted when it is there but unusable). */
  private text(node: Json, key: FileKey, id: string): string | null {
    const blob = node[alias(key)] as Blob | null | undefined;
    if (!isObject(blob)) return null;
    const file = MANIFEST_FILES[key];
    const cap = key === "marketplace" ? MAX_MARKETPLACE_BYTES : MAX_MANIFEST_BYTES;
    if (blob.isTruncated === true) return this.refuse(file, "too large", id);
    if (typeof blob.byteSize === "number" && blob.byteSize > cap) return this.refuse(file, "too large", id);
    if (typeof blob.text !== "string") return this.refuse(file, "not text", id);
    if (blob.text.length > cap) return this.refuse(file, "too large", id);
    return blob.text;
  }

  private json(node: Json, key: FileKey, id: string): Json | null {
    const text = this.text(node, key, id);
    if (text === null) return null;
    try {
      const value: unknown = JSON.parse(text);
      return isObject(value) ? value : this.refuse(MANIFEST_FILES[key], "not a JSON object", id);
    } catch {
      return this.refuse(MANIFEST_FILES[key], "invalid JSON", id);
    }
  }

  /** Entry names of a folder, `type` blob or tree, the first MAX_ENTRIES; null when there is no such folder. */
  private entries(node: Json, key: TreeKey, type: "blob" | "tree"): { names: string[]; total: number } | null {
    const tree = node[alias(key)] as { entries?: unknown } | null | undefined;
    if (!isObject(tree) || !Array.isArray(tree.entries)) return null;
    const all = tree.entries.slice(0, MAX_ENTRIES);
    const names = all
      .filter((e): e is { name: string; type: string } => isObject(e) && typeof e.name === "string" && e.type === type)
      .map((e) => e.name);
    return { names, total: names.length };
  }

  /** Markdown files of a folder as names without `.md`, checked. */
  private markdownNames(node: Json, key: TreeKey, id: string): string[] {
    const found = this.entries(node, key, "blob");
    if (!found) return [];
    const names: string[] = [];
    for (const file of found.names) {
      if (!file.toLowerCase().endsWith(".md") || /^readme\.md$/i.test(file)) continue;
      const name = file.slice(0, -3);
      if (ENTRY_NAME.test(name)) names.push(name);
      else this.refuse(`${MANIFEST_TREES[key]}/`, "entry name not accepted", id);
    }
    return names;
  }

  /** Reads everything the batch brought for repository `id` (its `owner/name`). */
  read(node: Json, id: string): ManifestReading {
    const evidence: string[] = [];
    const works = new Set<Harness>();
    const install: Install[] = [];
    const skills: Array<{ name: string; description: string | null }> = [];
    const mcpServers: string[] = [];
    const hooks: string[] = [];
    const plugins: Contents["plugins"] = [];
    let pluginCount = 0;
    let deprecated = false;
    let registry: McpRegistryIdentity | null = null;

    const plugin = this.json(node, "plugin", id);
    if (plugin) {
      if (str(plugin.name) && PLUGIN_NAME.test(plugin.name as string)) works.add("claude-code");
      else this.refuse(MANIFEST_FILES.plugin, "name not accepted", id);
      if (isObject(plugin.hooks)) hooks.push(...this.hookEvents(plugin.hooks, MANIFEST_FILES.plugin, id));
      if (isObject(plugin.mcpServers))
        mcpServers.push(...this.serverNames(plugin.mcpServers, MANIFEST_FILES.plugin, id));
    }

    const marketplace = this.json(node, "marketplace", id);
    if (marketplace) {
      const listed = this.marketplace(marketplace, id);
      if (listed) {
        works.add("claude-code");
        plugins.push(...listed.plugins);
        pluginCount = listed.count;
        install.push(...listed.install);
      }
    }

    const hooksFile = this.json(node, "hooks", id);
    if (hooksFile) {
      const events = isObject(hooksFile.hooks) ? hooksFile.hooks : hooksFile;
      hooks.push(...this.hookEvents(events, MANIFEST_FILES.hooks, id));
    }

    const mcp = this.json(node, "mcp", id);
    if (mcp && isObject(mcp.mcpServers)) mcpServers.push(...this.serverNames(mcp.mcpServers, MANIFEST_FILES.mcp, id));

    const server = this.json(node, "server", id);
    if (server) {
      const read = this.server(server, id);
      if (read) {
        works.add("mcp");
        mcpServers.push(read.name);
        install.push(...read.install);
        deprecated ||= read.deprecated;
        registry = read.registry;
      }
    }

    const gemini = this.json(node, "gemini", id);
    if (gemini) {
      const name = str(gemini.name);
      if (name && PLUGIN_NAME.test(name)) {
        works.add("gemini-cli");
        if (isObject(gemini.mcpServers))
          mcpServers.push(...this.serverNames(gemini.mcpServers, MANIFEST_FILES.gemini, id));
        install.push(
          this.instruction(id, {
            harness: "gemini-cli",
            kind: "extension",
            command: `gemini extensions install https://github.com/${id}`,
            env: [],
            from: MANIFEST_FILES.gemini,
          }),
        );
      } else this.refuse(MANIFEST_FILES.gemini, "name not accepted", id);
    }

    const rootSkill = this.text(node, "skill", id);
    if (rootSkill !== null) {
      const skill = this.frontMatter(rootSkill, MANIFEST_FILES.skill, id);
      if (skill) {
        works.add("agent-skills");
        skills.push(skill);
        install.push(
          this.instruction(id, {
            harness: "claude-code",
            kind: "skill",
            command: `git clone https://github.com/${id}.git .claude/skills/${skill.name}`,
            env: [],
            from: MANIFEST_FILES.skill,
          }),
        );
      }
    }

    const declared = this.dependencies(node, id);
    for (const dep of declared.dependencies) {
      const rule = this.rules.dependencies.find((r) => r.file === dep.file && r.name === dep.name);
      if (rule) {
        evidence.push(`${dep.file}: ${dep.name}`);
        works.add("mcp");
        // The package that depends on an MCP SDK is the server: its own name is the server's.
        const own = declared.names.get(dep.file);
        if (own) mcpServers.push(own);
      }
    }

    const claude = {
      ".claude/commands": this.markdownNames(node, "claudeCommands", id),
      ".claude/agents": this.markdownNames(node, "claudeAgents", id),
    };
    const commands = [...this.markdownNames(node, "commands", id), ...claude[".claude/commands"]];
    const agents = [...this.markdownNames(node, "agents", id), ...claude[".claude/agents"]];
    for (const folder of this.rules.folders) {
      const names = (claude as Record<string, string[]>)[folder.path];
      if (names && names.length > 0) evidence.push(`${folder.path}/`);
    }
    if (claude[".claude/commands"].length + claude[".claude/agents"].length > 0) works.add("claude-code");
    if (!hooks.length) {
      const dir = this.entries(node, "hooksDir", "blob");
      if (dir?.names.includes("hooks.json")) this.refuse(MANIFEST_FILES.hooks, "no events", id);
    }
    const skillFolders = (this.entries(node, "skills", "tree")?.names ?? []).filter(
      (n) => ENTRY_NAME.test(n) && !/^\.\.?$/.test(n),
    );

    const parent = (node.parent as { nameWithOwner?: unknown } | null | undefined)?.nameWithOwner;
    const release = node.latestRelease as { tagName?: unknown; publishedAt?: unknown } | null | undefined;
    const tag = typeof release?.tagName === "string" ? cleanText(release.tagName, 100) : null;
    const date =
      typeof release?.publishedAt === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(release.publishedAt)
        ? release.publishedAt
        : null;

    const unique = (list: string[]) => [...new Set(list)];
    const contents: Contents = {
      skills: skills.slice(0, MAX_LIST_ITEMS),
      commands: unique(commands).slice(0, MAX_LIST_ITEMS),
      agents: unique(agents).slice(0, MAX_LIST_ITEMS),
      hooks: unique(hooks).slice(0, MAX_LIST_ITEMS),
      mcp_servers: unique(mcpServers).slice(0, MAX_LIST_ITEMS),
      plugins: plugins.slice(0, MAX_LIST_ITEMS),
      counts: {
        skills: skills.length,
        commands: unique(commands).length,
        agents: unique(agents).length,
        hooks: unique(hooks).length,
        mcp_servers: unique(mcpServers).length,
        plugins: pluginCount,
      },
    };
    const details: PluginDetails = {
      contents,
      install: install.filter((i) => i.command !== "").slice(0, MAX_INSTRUCTIONS),
      works_with: [...works],
      fork_of: node.isFork === true && isRepoId(parent) ? parent : null,
      deprecated,
      latest_release: tag && date ? { tag, date } : null,
      ...(registry ? { mcp_registry: registry } : {}),
    };
    return {
      details,
      evidence,
      skillDirs: skillFolders.slice(0, SKILLS_READ_PER_REPO),
      skillFolders: skillFolders.length,
    };
  }

  /**
   * Completes a reading with the follow-up query's SKILL.md files (`objects` by folder name):
   * skills with their front matter, `agent-skills`, and the folder evidence when one holds a skill.
   */
  finishSkills(reading: ManifestReading, objects: ReadonlyMap<string, unknown>, id: string): PluginDetails {
    const { details } = reading;
    const found: Array<{ name: string; description: string | null; dir: string }> = [];
    for (const dir of reading.skillDirs) {
      const blob = objects.get(dir);
      if (!isObject(blob)) continue;
      const file = `skills/${dir}/SKILL.md`;
      if (blob.isTruncated === true || (typeof blob.byteSize === "number" && blob.byteSize > MAX_MANIFEST_BYTES)) {
        this.refuse("skills/*/SKILL.md", "too large", id);
        continue;
      }
      if (typeof blob.text !== "string") continue;
      const skill = this.frontMatter(blob.text, file, id);
      if (skill) found.push({ ...skill, dir });
    }
    if (found.length === 0) return details;
    const contents = details.contents!;
    const names = new Set(contents.skills.map((s) => s.name));
    const added = found.filter((s) => !names.has(s.name) && names.add(s.name));
    // Folders past the read cap count as skills once one folder proved to hold one.
    const unread = Math.max(0, reading.skillFolders - reading.skillDirs.length);
    contents.skills = [...contents.skills, ...added.map(({ name, description }) => ({ name, description }))].slice(
      0,
      MAX_LIST_ITEMS,
    );
    contents.counts.skills += added.length + unread;
    // One instruction per skill read (its front-matter name is what the installer's `--skill` matches).
    for (const skill of added) {
      if (details.install.length >= MAX_INSTRUCTIONS) break;
      const instruction = this.instruction(id, {
        harness: "claude-code",
        kind: "skill",
        command: `npx -y ${SKILLS_CLI} add ${id} --skill ${skill.name} --agent claude-code`,
        env: [],
        from: `skills/${skill.dir}/SKILL.md`.length <= 100 ? `skills/${skill.dir}/SKILL.md` : "skills/*/SKILL.md",
      });
      if (instruction.command !== "") details.install.push(instruction);
    }
    if (this.rules.folders.some((f) => f.path === "skills")) reading.evidence.push("skills/*/SKILL.md");
    if (!details.works_with.includes("agent-skills")) details.works_with.push("agent-skills");
    return details;
  }

  /** The details, checked against their schema once more: what fails is dropped, never stored. */
  checked(details: PluginDetails, id: string): PluginDetails | null {
    if (details.contents && Object.values(details.contents.counts).every((n) => n === 0)) details.contents = null;
    const valid = validDetails(details);
    return valid ?? this.refuse("details", "do not match their schema", id);
  }

  private hookEvents(hooks: Json, file: string, id: string): string[] {
    const events = Object.keys(hooks).slice(0, MAX_ENTRIES);
    const valid = events.filter((e) => HOOK_EVENT.test(e));
    if (valid.length < events.length) this.refuse(file, "hook event not accepted", id);
    return valid;
  }

  private serverNames(servers: Json, file: string, id: string): string[] {
    const names: string[] = [];
    for (const name of Object.keys(servers).slice(0, MAX_ENTRIES)) {
      const clean = cleanText(name, 100);
      if (clean === name && ENTRY_NAME.test(name)) names.push(name);
      else this.refuse(file, "server name not accepted", id);
    }
    return names;
  }

  /** A marketplace's plugins (name, source, description) and its install steps: add the marketplace, install each plugin. */
  private marketplace(
    manifest: Json,
    id: string,
  ): { plugins: Contents["plugins"]; count: number; install: Install[] } | null {
    const file = MANIFEST_FILES.marketplace;
    const name = str(manifest.name);
    if (!Array.isArray(manifest.plugins)) return this.refuse(file, "no plugin list", id);
    const count = manifest.plugins.length;
    if (count > MAX_ENTRIES) this.refuse(file, `more than ${MAX_ENTRIES} plugins`, id);
    const plugins: Contents["plugins"] = [];
    const names: string[] = [];
    for (const entry of manifest.plugins.slice(0, MAX_ENTRIES)) {
      if (!isObject(entry)) continue;
      const pluginName = str(entry.name);
      const source = this.source(entry.source);
      if (!pluginName || !PLUGIN_NAME.test(pluginName) || source === null) {
        this.refuse(file, "plugin entry not accepted", id);
        continue;
      }
      names.push(pluginName);
      if (plugins.length < MAX_LIST_ITEMS) {
        const description = typeof entry.description === "string" ? cleanText(entry.description, MAX_TEXT) : null;
        plugins.push({ name: pluginName, source, description });
      }
    }
    const install: Install[] = [];
    if (name && PLUGIN_NAME.test(name) && names.length > 0) {
      install.push(
        this.instruction(id, {
          harness: "claude-code",
          kind: "marketplace",
          command: `/plugin marketplace add ${id}`,
          env: [],
          from: file,
        }),
      );
      for (const plugin of [...new Set(names)].slice(0, MAX_INSTRUCTIONS - 1)) {
        install.push(
          this.instruction(id, {
            harness: "claude-code",
            kind: "plugin",
            command: `/plugin install ${plugin}@${name}`,
            env: [],
            from: file,
          }),
        );
      }
    } else if (!name || !PLUGIN_NAME.test(name)) this.refuse(file, "marketplace name not accepted", id);
    return { plugins, count, install };
  }

  /** A plugin source as text: `./local/path`, `owner/repo` (github), or an https repository address. */
  private source(source: unknown): string | null {
    if (typeof source === "string") {
      const clean = cleanText(source, 300);
      return clean === source && /^\.\/?[A-Za-z0-9._/-]*$/.test(source) && !source.includes("..") ? source : null;
    }
    if (!isObject(source)) return null;
    if (source.source === "github" && isRepoId(source.repo)) return source.repo as string;
    const url = str(source.url);
    if ((source.source === "url" || source.source === "git") && url && /^https:\/\/[A-Za-z0-9./_-]+$/.test(url))
      return url.length <= 300 && !url.includes("..") ? url : null;
    return null;
  }

  /** An MCP registry server.json: its name, status and install instructions. */
  private server(manifest: Json, id: string): ServerReading | null {
    const file = MANIFEST_FILES.server;
    const schema = str(manifest.$schema);
    if (!schema?.includes(MCP_SCHEMA)) return null;
    const full = str(manifest.name);
    const short = full && MCP_NAME.test(full) ? full.split("/")[1]! : null;
    if (!full || !short || !PLUGIN_NAME.test(short)) return this.refuse(file, "name not accepted", id);
    const deprecated = manifest.status === "deprecated";
    const install: Install[] = [];
    const repository = isObject(manifest.repository) ? str(manifest.repository.url) : null;
    const named = repository ? /^https:\/\/github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/i.exec(repository)?.[1] : null;
    if (repository && named?.toLowerCase() !== id.toLowerCase()) {
      this.refuse(file, "names another repository", id);
      return { name: short, deprecated, install, registry: null };
    }
    const packages = Array.isArray(manifest.packages) ? manifest.packages.slice(0, 10) : [];
    for (const pkg of packages) if (isObject(pkg)) install.push(...this.mcpPackage(pkg, short, id));
    const remotes = Array.isArray(manifest.remotes) ? manifest.remotes.slice(0, 10) : [];
    for (const remote of remotes) if (isObject(remote)) install.push(...this.mcpRemote(remote, short, id));
    return { name: short, deprecated, install, registry: { name: full, version: exactVersion(manifest.version) } };
  }

  /** The package's environment variables, every one checked; null when one is not acceptable. */
  private env(pkg: Json, id: string): Install["env"] | null {
    const list = pkg.environmentVariables;
    if (list === undefined) return [];
    if (!Array.isArray(list) || list.length > 50)
      return this.refuse(MANIFEST_FILES.server, "environment not accepted", id);
    const env: Install["env"] = [];
    for (const v of list) {
      if (!isObject(v) || !str(v.name) || !ENV_NAME.test(v.name as string))
        return this.refuse(MANIFEST_FILES.server, "environment variable name not accepted", id);
      env.push({ name: v.name as string, secret: v.isSecret === true, required: v.isRequired === true });
    }
    return env;
  }

  /** `claude mcp add` and the `mcpServers` entry for an npm, PyPI or OCI package, or nothing. */
  private mcpPackage(pkg: Json, name: string, id: string): Install[] {
    const file = MANIFEST_FILES.server;
    const type = str(pkg.registryType);
    const transport = isObject(pkg.transport) ? pkg.transport.type : "stdio";
    if (transport !== "stdio") return this.none(file, "package transport not stdio", id);
    const hasArgs = (key: string) => Array.isArray(pkg[key]) && (pkg[key] as unknown[]).length > 0;
    if (hasArgs("runtimeArguments") || hasArgs("packageArguments")) {
      this.refuse(file, "package needs arguments", id);
      return [];
    }
    const env = this.env(pkg, id);
    if (env === null) return [];
    const identifier = str(pkg.identifier) ?? "";
    const version = str(pkg.version);
    let run: { command: string; args: string[] } | null = null;
    let kind: Install["kind"];
    const hint = pkg.runtimeHint;
    if (type === "npm") {
      kind = "npm";
      const base = str(pkg.registryBaseUrl);
      if (base !== null && base !== "https://registry.npmjs.org")
        return this.none(file, "registry not the public one", id);
      if (!NPM_NAME.test(identifier)) return this.none(file, "package name not accepted", id);
      if (!version || !SEMVER.test(version)) return this.none(file, "version not pinned", id);
      if (hint !== undefined && hint !== "npx") return this.none(file, "runtime hint not accepted", id);
      run = { command: "npx", args: ["-y", `${identifier}@${version}`] };
    } else if (type === "pypi") {
      kind = "pypi";
      const base = str(pkg.registryBaseUrl);
      if (base !== null && base !== "https://pypi.org") return this.none(file, "registry not the public one", id);
      if (!PYPI_NAME.test(identifier)) return this.none(file, "package name not accepted", id);
      if (!version || !PEP440.test(version)) return this.none(file, "version not pinned", id);
      if (hint !== undefined && hint !== "uvx") return this.none(file, "runtime hint not accepted", id);
      run = { command: "uvx", args: [`${identifier}==${version}`] };
    } else if (type === "oci") {
      kind = "oci";
      const image = this.ociImage(identifier, version);
      if (image === null) return this.none(file, "image not pinned or not accepted", id);
      if (hint !== undefined && hint !== "docker") return this.none(file, "runtime hint not accepted", id);
      const passEnv = env.filter((e) => e.required).flatMap((e) => ["-e", e.name]);
      run = { command: "docker", args: ["run", "-i", "--rm", ...passEnv, image] };
    } else {
      return this.none(file, "package type not installable", id);
    }
    const required = env.filter((e) => e.required);
    const envFlags = required.map((e) => `--env ${e.name}=<${e.name}>`);
    const command = ["claude mcp add", name, ...envFlags, "--", run.command, ...run.args].join(" ");
    const server: Json = { command: run.command, args: run.args };
    if (required.length) server.env = Object.fromEntries(required.map((e) => [e.name, `<${e.name}>`]));
    return [
      this.instruction(id, { harness: "claude-code", kind, command, env, from: file }),
      this.instruction(id, { harness: "mcp", kind, config: { mcpServers: { [name]: server } }, env, from: file }),
    ].filter((i) => i.command !== "");
  }

  private none(file: string, reason: string, id: string): Install[] {
    this.refuse(file, reason, id);
    return [];
  }

  /** `registry/image:tag` or `@sha256:…`, never `latest`; the tag from `version` when the identifier has none. */
  private ociImage(identifier: string, version: string | null): string | null {
    const at = identifier.indexOf("@");
    if (at > 0) {
      const repo = identifier.slice(0, at);
      return OCI_REPO.test(repo) && OCI_DIGEST.test(identifier.slice(at + 1)) ? identifier : null;
    }
    const slash = identifier.lastIndexOf("/");
    const colon = identifier.lastIndexOf(":");
    const hasTag = colon > slash;
    const repo = hasTag ? identifier.slice(0, colon) : identifier;
    const tag = hasTag ? identifier.slice(colon + 1) : version;
    if (!OCI_REPO.test(repo) || !tag || !OCI_TAG.test(tag) || tag.toLowerCase() === "latest") return null;
    if (!/\d/.test(tag)) return null;
    return `${repo}:${tag}`;
  }

  /** A remote server: https only, no template variables, no header the user must supply. */
  private mcpRemote(remote: Json, name: string, id: string): Install[] {
    const file = MANIFEST_FILES.server;
    const type = remote.type;
    const url = str(remote.url);
    if (type !== "streamable-http" && type !== "sse") return this.none(file, "remote type not accepted", id);
    if (!url || !REMOTE_URL.test(url)) return this.none(file, "remote not an https address", id);
    const headers = Array.isArray(remote.headers) ? remote.headers : [];
    if (headers.some((h) => isObject(h) && h.isRequired === true)) return this.none(file, "remote needs headers", id);
    const transport = type === "sse" ? "sse" : "http";
    return [
      this.instruction(id, {
        harness: "claude-code",
        kind: "remote",
        command: `claude mcp add --transport ${transport} ${name} ${url}`,
        env: [],
        from: file,
      }),
      this.instruction(id, {
        harness: "mcp",
        kind: "remote",
        config: { mcpServers: { [name]: { type: transport, url } } },
        env: [],
        from: file,
      }),
    ].filter((i) => i.command !== "");
  }

  /** The instruction if its command passes the last check; otherwise one with an empty command (dropped, counted). */
  private instruction(id: string, instruction: Install): Install {
    if (instruction.command !== undefined && !SAFE_COMMAND.test(instruction.command)) {
      this.refuse(instruction.from, "instruction not safe", id);
      return { ...instruction, command: "" };
    }
    return instruction;
  }

  /** `name` and `description` from a SKILL.md's YAML front matter; the name must be a skill name. */
  private frontMatter(text: string, file: string, id: string): { name: string; description: string | null } | null {
    const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text.slice(0, MAX_FRONT_MATTER + 8));
    if (!match) return this.refuse(file, "no front matter", id);
    let data: unknown;
    try {
      const doc = parseDocument(match[1]!, { uniqueKeys: true, prettyErrors: false });
      if (doc.errors.length > 0) return this.refuse(file, "invalid front matter", id);
      data = doc.toJS({ maxAliasCount: 0 });
    } catch {
      return this.refuse(file, "invalid front matter", id);
    }
    if (!isObject(data)) return this.refuse(file, "invalid front matter", id);
    const name = str(data.name);
    if (!name || !SKILL_NAME.test(name)) return this.refuse(file, "skill name not accepted", id);
    const description = typeof data.description === "string" ? cleanText(data.description, MAX_TEXT) : null;
    return { name, description };
  }

  /** Dependencies named by the package files, as `{file, name}` (PyPI names normalised as pip compares them). */
  private dependencies(
    node: Json,
    id: string,
  ): { dependencies: Array<{ file: string; name: string }>; names: Map<string, string> } {
    const out: Array<{ file: string; name: string }> = [];
    const names = new Map<string, string>();
    /** A package's own name as a server name: the part after any scope or path, if it is one. */
    const own = (file: string, value: unknown) => {
      const name = typeof value === "string" ? value.slice(value.lastIndexOf("/") + 1) : "";
      if (ENTRY_NAME.test(name) && !name.includes(" ")) names.set(file, name);
    };
    const pep503 = (n: string) => n.toLowerCase().replace(/[-_.]+/g, "-");
    const pkg = this.json(node, "package", id);
    if (pkg) own("package.json", pkg.name);
    if (pkg && isObject(pkg.dependencies))
      for (const name of Object.keys(pkg.dependencies).slice(0, MAX_ENTRIES)) out.push({ file: "package.json", name });
    const pyproject = this.toml(node, "pyproject", id);
    if (pyproject) {
      const project = isObject(pyproject.project) ? pyproject.project : {};
      own("pyproject.toml", project.name);
      const listed = Array.isArray(project.dependencies) ? project.dependencies : [];
      for (const spec of listed.slice(0, MAX_ENTRIES)) {
        const name = typeof spec === "string" ? /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1] : undefined;
        if (name) out.push({ file: "pyproject.toml", name: pep503(name) });
      }
      const tool = isObject(pyproject.tool) ? pyproject.tool : {};
      const poetry = isObject(tool.poetry) && isObject(tool.poetry.dependencies) ? tool.poetry.dependencies : {};
      for (const name of Object.keys(poetry).slice(0, MAX_ENTRIES))
        out.push({ file: "pyproject.toml", name: pep503(name) });
    }
    const requirements = this.text(node, "requirements", id);
    if (requirements !== null) {
      for (const line of requirements.split(/\r?\n/).slice(0, MAX_ENTRIES)) {
        const name = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:[=<>!~;[ ]|$)/.exec(line)?.[1];
        if (name) out.push({ file: "requirements.txt", name: pep503(name) });
      }
    }
    const gomod = this.text(node, "gomod", id);
    if (gomod !== null) {
      own("go.mod", /^module\s+(\S+)/m.exec(gomod)?.[1]);
      for (const line of gomod.split(/\r?\n/).slice(0, MAX_ENTRIES * 2)) {
        const name = /^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]{2,}\/[A-Za-z0-9._/-]+)\s+v\d/.exec(line)?.[1];
        if (name) out.push({ file: "go.mod", name: name.replace(/\/v\d+$/, "") });
      }
    }
    const cargo = this.toml(node, "cargo", id);
    if (cargo && isObject(cargo.package)) own("Cargo.toml", cargo.package.name);
    if (cargo && isObject(cargo.dependencies))
      for (const name of Object.keys(cargo.dependencies).slice(0, MAX_ENTRIES)) out.push({ file: "Cargo.toml", name });
    return { dependencies: out, names };
  }

  private toml(node: Json, key: FileKey, id: string): Json | null {
    const text = this.text(node, key, id);
    if (text === null) return null;
    try {
      return parseToml(text) as Json;
    } catch {
      return this.refuse(MANIFEST_FILES[key], "invalid TOML", id);
    }
  }
}
