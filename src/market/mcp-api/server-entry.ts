/**
 * One catalog plugin as an entry of the MCP registry API (`ServerResponse`): only MCP servers with
 * an installable package (npm, PyPI, OCI) or an https remote, every field from what the refresh's
 * gate accepted, each within the limits of the registry's server schema. A server keeps the name
 * its server.json states when that name is in the repository's own namespace (`io.github.<owner>`),
 * or the official MCP registry lists that name with this repository's URL (`registry_listed`: it
 * verified the namespace for the publisher), and no other plugin holds it; any other (a domain
 * nothing proves, another owner's account, a taken one) is named in the operator's own namespace (BASE_URL's host, reversed). A package the
 * refresh found is another repository's is never served. Its `title` is server.json's, else one made from the repository name; its icons are
 * server.json's; the repository's facts a gallery shows (stars, licence, topics, last push) are
 * under the server's `_meta` publisher-provided `github` block, in the keys VS Code reads. The
 * catalog's facts go under `_meta` with the catalog's own key.
 */
import type { McpRegistryDetails } from "../../catalog/model/registry-inputs";
import type { PluginCatalogView } from "../../catalog/model/wire";
import { pluginPath } from "../../http/paths";
import { packagesAndRemotes, readableTitle } from "./entry-packages";

/** The server schema the entries follow. */
export const SERVER_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/** The `_meta` key of the registry-managed facts the API document defines. */
export const OFFICIAL_META = "io.modelcontextprotocol.registry/official";
/** The `_meta` key of what the server's publisher provides, where VS Code reads the repository's facts. */
export const PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided";
/** The registry schema's bound on `description`, in characters. */
export const MAX_DESCRIPTION = 100;
/** The registry schema's bound on `title`, in characters. */
export const MAX_TITLE = 100;

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
  identity: McpRegistryDetails | null,
  context: EntryContext,
): string | null {
  const owner = plugin.id.slice(0, plugin.id.indexOf("/")).toLowerCase();
  const claimed = identity?.name ?? null;
  const namespace = claimed?.slice(0, claimed.indexOf("/")).toLowerCase();
  // Only a namespace proven the repository's is kept: its own account's, or one the official MCP registry
  // verified for the publisher that listed this name with this repository's URL. A domain (`com.stripe/…`)
  // is otherwise the name anyone may write in a server.json.
  const proven = namespace === `io.github.${owner}` || identity?.registry_listed === true;
  for (const name of [proven ? claimed : null, operatorName(context.namespace, plugin.id)]) {
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

/** The repository's facts VS Code's gallery shows, in the keys its parser reads (`IGitHubInfo`). */
function githubFacts(plugin: PluginCatalogView): Record<string, unknown> {
  return {
    name: plugin.name,
    nameWithOwner: plugin.full_name,
    stargazerCount: plugin.stars,
    ...(plugin.license ? { license: plugin.license } : {}),
    ...(plugin.language ? { primaryLanguage: plugin.language } : {}),
    topics: plugin.topics,
    pushedAt: plugin.pushed_at,
  };
}

/** The registry entry of a plugin in catalog form, or null when it is no installable MCP server. */
export function registryEntry(
  plugin: PluginCatalogView,
  identity: McpRegistryDetails | null,
  updatedAt: string,
  context: EntryContext,
): Entry | null {
  const { packages, remotes } = packagesAndRemotes(plugin.install ?? [], identity);
  if (packages.length === 0 && remotes.length === 0) return null;
  const first = packages[0];
  const release = plugin.latest_release?.tag ?? null;
  const version = [identity?.version, first?.version, first && imageTag(first.identifier), release].find(
    (v): v is string => typeof v === "string" && VERSION.test(v) && v.toLowerCase() !== "latest",
  );
  if (version === undefined) return null;
  const name = entryName(plugin, identity, context);
  if (name === null) return null;
  const description = boundedText(plugin.description || `MCP server from ${plugin.id}`, MAX_DESCRIPTION);
  const title = boundedText(identity?.title || readableTitle(plugin.name) || plugin.id, MAX_TITLE);
  const server: Record<string, unknown> = {
    $schema: SERVER_SCHEMA_URL,
    name,
    title,
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
  if (identity?.icons?.length) {
    server.icons = identity.icons.map(({ src, mime_type, sizes, theme }) => ({
      src,
      ...(mime_type ? { mimeType: mime_type } : {}),
      ...(sizes ? { sizes } : {}),
      ...(theme ? { theme } : {}),
    }));
  }
  if (packages.length > 0) server.packages = packages;
  if (remotes.length > 0) server.remotes = remotes;
  server._meta = { [PUBLISHER_META]: { github: githubFacts(plugin) } };
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
