/**
 * One catalog plugin as an entry of the MCP registry API (`ServerResponse`): only MCP servers with
 * an installable package (npm, PyPI, OCI) or an https remote, every field from what the refresh's
 * gate accepted, each within the limits of the registry's server schema. A server keeps the name
 * its server.json states, unless that name claims a GitHub namespace of another owner or another
 * plugin holds it already; then it is named in the operator's own namespace (BASE_URL's host,
 * reversed). The catalog's facts go under `_meta` with the catalog's own key.
 */
import type { Install } from "../../catalog/model/details";
import type { McpRegistryIdentity } from "../../catalog/model/mcp-identity";
import type { PluginCatalogView } from "../../catalog/model/wire";
import { pluginPath } from "../../http/paths";

/** The server schema the entries follow. */
export const SERVER_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The `_meta` key of the registry-managed facts the API document defines. */
export const OFFICIAL_META = "io.modelcontextprotocol.registry/official";
/** The registry schema's bound on `description`, in characters. */
export const MAX_DESCRIPTION = 100;

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,99}$/;

/** The operator's namespace: BASE_URL's host in reverse-DNS order (`plugins.example.org` → `org.example.plugins`). */
export function operatorNamespace(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").replace(/[^A-Za-z0-9.-]/g, "-");
  return host.split(".").filter(Boolean).reverse().join(".") || "localhost";
}

/** A name in the operator's namespace for a plugin: `<namespace>/<owner>-<repo>`. */
export function operatorName(namespace: string, id: string): string {
  return `${namespace}/${id.replace("/", "-")}`;
}

/** Text cut to the schema's bound on whole code points, an ellipsis marking a cut. */
export function boundedText(text: string, max: number): string {
  const points = Array.from(text.trim());
  if (points.length <= max) return points.join("");
  return `${points
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}

interface McpConfig {
  command?: string;
  args?: string[];
  type?: string;
  url?: string;
}

/** The one server of an install instruction's `mcpServers` config. */
function configOf(install: Install): McpConfig | null {
  const servers = (install.config as { mcpServers?: Record<string, McpConfig> } | undefined)?.mcpServers;
  const first = servers ? Object.values(servers)[0] : undefined;
  return first ?? null;
}

type Package = Record<string, unknown> & { registryType: string; identifier: string; version?: string };

/** The package an npm, PyPI or OCI instruction runs: name and exact version as the gate pinned them. */
function packageOf(install: Install): Package | null {
  const args = configOf(install)?.args ?? [];
  let pkg: Package | null = null;
  if (install.kind === "npm") {
    const spec = args[args.length - 1] ?? "";
    const at = spec.lastIndexOf("@");
    if (at > 0)
      pkg = {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: spec.slice(0, at),
        version: spec.slice(at + 1),
      };
  } else if (install.kind === "pypi") {
    const [identifier, version] = (args[0] ?? "").split("==");
    if (identifier && version) pkg = { registryType: "pypi", registryBaseUrl: "https://pypi.org", identifier, version };
  } else if (install.kind === "oci") {
    const image = args[args.length - 1];
    if (image) pkg = { registryType: "oci", identifier: image };
  }
  if (pkg === null) return null;
  pkg.transport = { type: "stdio" };
  if (install.env.length > 0) {
    pkg.environmentVariables = install.env.map((e) => ({ name: e.name, isRequired: e.required, isSecret: e.secret }));
  }
  return pkg;
}

/** The remote an https instruction connects to. */
function remoteOf(install: Install): { type: string; url: string } | null {
  const config = configOf(install);
  if (!config?.url) return null;
  return { type: config.type === "sse" ? "sse" : "streamable-http", url: config.url };
}

/** An OCI image's tag, when it names one. */
function imageTag(identifier: string): string | null {
  if (identifier.includes("@")) return null;
  const colon = identifier.lastIndexOf(":");
  return colon > identifier.lastIndexOf("/") ? identifier.slice(colon + 1) : null;
}

/** What the entries of a snapshot share: the operator's names and the names taken so far. */
export interface EntryContext {
  baseUrl: string;
  namespace: string;
  /** The catalog's `_meta` key. */
  metaKey: string;
  taken: Set<string>;
}

export interface Entry {
  name: string;
  version: string;
  updatedAt: string;
  id: string;
  json: string;
}

/** The name an entry is served under (see the module comment), or null when both are taken. */
function entryName(
  plugin: PluginCatalogView,
  identity: McpRegistryIdentity | null,
  context: EntryContext,
): string | null {
  const owner = plugin.id.slice(0, plugin.id.indexOf("/")).toLowerCase();
  const claimed = identity?.name ?? null;
  const namespace = claimed?.slice(0, claimed.indexOf("/")).toLowerCase();
  const foreign = namespace?.startsWith("io.github.") && namespace !== `io.github.${owner}`;
  for (const name of [foreign ? null : claimed, operatorName(context.namespace, plugin.id)]) {
    if (name === null || name.length > 200 || !NAME.test(name) || context.taken.has(name.toLowerCase())) continue;
    context.taken.add(name.toLowerCase());
    return name;
  }
  return null;
}

/** Why a deprecated entry is: the owner's own words first, with the replacement, within the schema's 500 characters. */
function statusMessage(plugin: PluginCatalogView): string {
  const owner = plugin.deprecation;
  if (owner) {
    const instead = owner.replacement ? ` Use ${owner.replacement} instead.` : "";
    return boundedText(`${owner.message ?? "Deprecated by its owner."}${instead}`, 500);
  }
  return plugin.archived ? "The repository is archived." : "server.json says deprecated.";
}

/** The registry entry of a plugin in catalog form, or null when it is no installable MCP server. */
export function registryEntry(
  plugin: PluginCatalogView,
  identity: McpRegistryIdentity | null,
  updatedAt: string,
  context: EntryContext,
): Entry | null {
  const install = (plugin.install ?? []).filter((i) => i.harness === "mcp");
  const packages = new Map<string, Package>();
  const remotes = new Map<string, { type: string; url: string }>();
  for (const i of install) {
    const pkg = packageOf(i);
    if (pkg) packages.set(`${pkg.registryType}:${pkg.identifier}`, pkg);
    const remote = i.kind === "remote" ? remoteOf(i) : null;
    if (remote) remotes.set(remote.url, remote);
  }
  if (packages.size === 0 && remotes.size === 0) return null;
  const first = [...packages.values()][0];
  const release = plugin.latest_release?.tag ?? null;
  const version = [identity?.version, first?.version, first && imageTag(first.identifier), release].find(
    (v): v is string => typeof v === "string" && VERSION.test(v) && v.toLowerCase() !== "latest",
  );
  if (version === undefined) return null;
  const name = entryName(plugin, identity, context);
  if (name === null) return null;
  const description = boundedText(plugin.description || `MCP server from ${plugin.id}`, MAX_DESCRIPTION);
  const server: Record<string, unknown> = {
    $schema: SERVER_SCHEMA_URL,
    name,
    description,
    version,
    repository: {
      url: plugin.url,
      source: "github",
      ...(plugin.repo_id === null ? {} : { id: String(plugin.repo_id) }),
    },
  };
  if (plugin.homepage && /^https:\/\/[^\s]+$/.test(plugin.homepage) && URL.canParse(plugin.homepage))
    server.websiteUrl = plugin.homepage;
  if (packages.size > 0) server.packages = [...packages.values()];
  if (remotes.size > 0) server.remotes = [...remotes.values()];
  const stopped = plugin.deprecated || plugin.archived;
  const official = {
    status: stopped ? "deprecated" : "active",
    ...(stopped ? { statusMessage: statusMessage(plugin) } : {}),
    publishedAt: plugin.first_seen_at,
    updatedAt,
    isLatest: true,
  };
  const catalog = {
    id: plugin.id,
    page: `${context.baseUrl}${pluginPath(plugin.id)}`,
    listing: "listed",
    stars: plugin.stars,
    category: plugin.category,
    categories: plugin.categories,
    curated: plugin.curated,
    archived: plugin.archived,
    deprecated: plugin.deprecated,
    fork_of: plugin.fork_of,
    lookalike_of: plugin.lookalike_of,
    ...(plugin.deprecation ? { deprecation: plugin.deprecation } : {}),
    ...(plugin.canonical ? { canonical: plugin.canonical } : {}),
    ...(plugin.owner_verified ? { owner_verified: true } : {}),
    pushed_at: plugin.pushed_at,
    latest_release: plugin.latest_release,
    context: plugin.context ?? null,
  };
  const json = JSON.stringify({ server, _meta: { [OFFICIAL_META]: official, [context.metaKey]: catalog } });
  return { name, version, updatedAt, id: plugin.id, json };
}
