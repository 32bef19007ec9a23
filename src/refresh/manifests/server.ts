/**
 * An MCP registry `server.json`, every published schema version (2025-07-09 snake_case and the
 * camelCase ones since 2025-09-16): its name, status, and install instructions for its npm, PyPI
 * and OCI packages (`claude mcp add …` and the `mcpServers` entry) and its remote endpoints; and,
 * for the MCP registry API, its title, icons and the words of every input it asks a user for
 * (the title, icons and headers read in server-details.ts).
 */
import type { Install } from "../../catalog/model/details";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "../../catalog/model/mcp-identity";
import { allowedImage, imageRegistry, publicHttpsUrl } from "../../catalog/model/public-hosts";
import type { McpPackageInputs, McpRegistryDetails } from "../../catalog/model/registry-inputs";
import { type Gate, isObject, type Json, PLUGIN_NAME, str } from "./manifest-gate";
import { MANIFEST_FILES } from "./selection";
import { argumentWords, camelCased, environment } from "./server-args";
import { registryDetails, remoteHeaders } from "./server-details";

const MCP_SCHEMA = "modelcontextprotocol.io/schemas";
export const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]{0,100}\/)?[a-z0-9][a-z0-9._-]{0,100}$/;
const SEMVER = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,40})?(?:\+[0-9A-Za-z.-]{1,40})?$/;
export const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?$/;
const PEP440 = /^\d{1,9}(?:\.\d{1,9}){0,4}(?:(?:a|b|rc)\d{1,4})?(?:\.post\d{1,4})?(?:\.dev\d{1,4})?$/;
const OCI_REPO = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::\d{1,5})?(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+$/;
const OCI_TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const OCI_DIGEST = /^sha256:[a-f0-9]{64}$/;
const REMOTE_URL = /^https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]*)*$/;
const FILE = MANIFEST_FILES.server;
const MCP_NAME = new RegExp(MCP_SERVER_NAME);
const MCP_VERSION = new RegExp(MCP_SERVER_VERSION);
/** A version component that stands for many: `1.x`, `1.*`. */
const WILDCARD = /(?:^|\.)[xX*](?:\.|$)/;

/** server.json's `version` when it names one exact version, else null. */
function exactVersion(value: unknown): string | null {
  if (typeof value !== "string" || !MCP_VERSION.test(value)) return null;
  return value.toLowerCase() === "latest" || WILDCARD.test(value) ? null : value;
}

export interface ServerRead {
  name: string;
  deprecated: boolean;
  install: Install[];
  /**
   * The name and exact version the MCP registry API serves it under, with its title, icons and
   * inputs; null when the file names another repository.
   */
  registry: McpRegistryDetails | null;
}

/** The server's short name, status and instructions; null when it is no registry server.json or its name is refused. */
export function readServer(gate: Gate, raw: Json, id: string): ServerRead | null {
  const schema = str(raw.$schema);
  if (!schema?.includes(MCP_SCHEMA)) return null;
  const manifest = camelCased(raw, 1);
  const full = str(manifest.name);
  const short = full && MCP_NAME.test(full) ? full.split("/")[1]! : null;
  if (!full || !short || !PLUGIN_NAME.test(short)) return gate.refuse(FILE, "name not accepted", id);
  const deprecated = manifest.status === "deprecated";
  const read: ServerRead = { name: short, deprecated, install: [], registry: null };
  const repository = isObject(manifest.repository) ? str(manifest.repository.url) : null;
  const named = repository ? /^https:\/\/github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/i.exec(repository)?.[1] : null;
  if (repository && named?.toLowerCase() !== id.toLowerCase()) {
    gate.refuse(FILE, "names another repository", id);
    return read;
  }
  const identity = { name: full, version: exactVersion(manifest.version) };
  const inputs: McpPackageInputs[] = [];
  const packages = Array.isArray(manifest.packages) ? manifest.packages.slice(0, 10) : [];
  for (const pkg of packages) {
    if (!isObject(pkg)) continue;
    const one = packageRead(gate, camelCased(pkg, 1), short, id);
    read.install.push(...one.installs);
    if (one.inputs) inputs.push(one.inputs);
  }
  const headers: NonNullable<McpRegistryDetails["remotes"]> = [];
  const remotes = Array.isArray(manifest.remotes) ? manifest.remotes.slice(0, 10) : [];
  for (const remote of remotes) {
    if (!isObject(remote)) continue;
    const installs = mcpRemote(gate, remote, short, id);
    read.install.push(...installs);
    const url = str(remote.url);
    const asked = url && installs.length > 0 ? remoteHeaders(remote) : [];
    if (url && asked.length > 0) headers.push({ url, headers: asked });
  }
  read.registry = registryDetails(gate, id, identity, manifest, inputs, headers);
  return read;
}

type Run =
  | { kind: Install["kind"]; command: string; args: string[]; identifier: string; version?: string }
  | { refused: string };

/** How a package runs: `npx`, `uvx` or `docker`, with the pinned package and its runtime arguments. */
function runner(pkg: Json, runtime: string[], passEnv: string[]): Run {
  const type = str(pkg.registryType);
  const identifier = str(pkg.identifier) ?? "";
  const version = str(pkg.version);
  const base = str(pkg.registryBaseUrl);
  const hint = pkg.runtimeHint;
  if (type === "npm") {
    if (base !== null && base.replace(/\/$/, "") !== "https://registry.npmjs.org")
      return { refused: "registry not the public one" };
    if (!NPM_NAME.test(identifier)) return { refused: "package name not accepted" };
    if (!version || !SEMVER.test(version)) return { refused: "version not pinned" };
    if (hint !== undefined && hint !== "npx") return { refused: "runtime hint not accepted" };
    return { kind: "npm", command: "npx", args: ["-y", ...runtime, `${identifier}@${version}`], identifier, version };
  }
  if (type === "pypi") {
    if (base !== null && base.replace(/\/$/, "") !== "https://pypi.org")
      return { refused: "registry not the public one" };
    if (!PYPI_NAME.test(identifier)) return { refused: "package name not accepted" };
    if (!version || !PEP440.test(version)) return { refused: "version not pinned" };
    if (hint !== undefined && hint !== "uvx") return { refused: "runtime hint not accepted" };
    return { kind: "pypi", command: "uvx", args: [...runtime, `${identifier}==${version}`], identifier, version };
  }
  if (type === "oci") {
    if (/[{}$]/.test(identifier)) return { refused: "image reference is a template the author left unfilled" };
    const image = ociImage(identifier, version);
    if (image === null) return { refused: "image not pinned or not accepted" };
    if (!allowedImage(image)) return { refused: "image registry not accepted" };
    // The MCP registry wants no base URL for an image; one naming another registry than the image's is a contradiction.
    if (base !== null && registryHost(base) !== imageRegistry(image))
      return { refused: "registry not the image's own" };
    if (hint !== undefined && hint !== "docker") return { refused: "runtime hint not accepted" };
    const args = ["run", "-i", "--rm", ...passEnv, ...runtime, image];
    return { kind: "oci", command: "docker", args, identifier: image };
  }
  return { refused: "package type not installable" };
}

/** `claude mcp add` and the `mcpServers` entry for an npm, PyPI or OCI package, or nothing (counted). */
function mcpPackage(gate: Gate, pkg: Json, name: string, id: string): Install[] {
  return packageRead(gate, pkg, name, id).installs;
}

/** A package's two instructions and, when they passed, the words of every input it asks for. */
function packageRead(
  gate: Gate,
  pkg: Json,
  name: string,
  id: string,
): { installs: Install[]; inputs: McpPackageInputs | null } {
  const none = (reason: string) => ({ installs: gate.none(FILE, reason, id), inputs: null });
  const transport = isObject(pkg.transport) ? pkg.transport.type : "stdio";
  if (transport !== "stdio") return none("package transport not stdio");
  const read = environment(pkg.environmentVariables);
  if ("refused" in read) return none(read.refused);
  const runtime = argumentWords(pkg.runtimeArguments);
  if ("refused" in runtime) return none(`runtime ${runtime.refused}`);
  const after = argumentWords(pkg.packageArguments);
  if ("refused" in after) return none(`package ${after.refused}`);
  const passEnv = read.set.flatMap((e) => ["-e", e.name]);
  const run = runner(pkg, runtime.words, passEnv);
  if ("refused" in run) return none(run.refused);
  const args = [...run.args, ...after.words];
  const envFlags = read.set.map((e) => `--env ${e.name}=${e.value}`);
  const command = shellSafe(["claude mcp add", name, ...envFlags, "--", run.command, ...args].join(" "));
  const server: Json = { command: run.command, args };
  if (read.set.length) server.env = Object.fromEntries(read.set.map((e) => [e.name, e.value]));
  const env = read.env;
  const installs = gate.instructions(id, [
    { harness: "claude-code", kind: run.kind, command, env, from: FILE },
    { harness: "mcp", kind: run.kind, config: { mcpServers: { [name]: server } }, env, from: FILE },
  ]);
  if (!installs.some((i) => i.harness === "mcp")) return { installs, inputs: null };
  const placeholders = new Map([...runtime.inputs, ...after.inputs].map((i) => [i.name, i]));
  const inputs: McpPackageInputs = {
    kind: run.kind as McpPackageInputs["kind"],
    identifier: run.identifier,
    ...(run.version === undefined ? {} : { version: run.version }),
    env: read.inputs,
    arguments: [...placeholders.values()].slice(0, 100),
  };
  return { installs, inputs };
}

/**
 * A command as a shell pastes it: each `<NAME>` placeholder (a redirection to a shell) written as
 * the plain word `YOUR_NAME`, which the shell passes on as it is. The JSON configs keep `<NAME>`.
 */
export function shellSafe(command: string): string {
  return command.replace(/<([A-Za-z_][A-Za-z0-9_]{0,63})>/g, "YOUR_$1");
}

/** The two lines for a package its registry confirmed (refresh/registries), built and checked like server.json's. */
export function packageInstalls(
  gate: Gate,
  kind: "npm" | "pypi",
  identifier: string,
  version: string,
  name: string,
  id: string,
) {
  return mcpPackage(gate, { registryType: kind, identifier, version }, name, id);
}

/** The registry host a base URL names (`docker.io` for Docker Hub under any of its names), or null. */
function registryHost(base: string): string | null {
  try {
    const url = new URL(base);
    const bare = url.protocol === "https:" && url.pathname.replace(/\/$/, "") === "" && url.host.includes(".");
    return bare ? imageRegistry(`${url.host}/x`) : null;
  } catch {
    return null;
  }
}

/** `registry/image:tag` or `@sha256:…`, never `latest`; the tag from `version` when the identifier has none. */
function ociImage(identifier: string, version: string | null): string | null {
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
function mcpRemote(gate: Gate, remote: Json, name: string, id: string): Install[] {
  const type = remote.type;
  const url = str(remote.url);
  if (type !== "streamable-http" && type !== "sse") return gate.none(FILE, "remote type not accepted", id);
  if (url && /[{}]/.test(url)) return gate.none(FILE, "remote address is a template to fill", id);
  if (!url || !REMOTE_URL.test(url)) return gate.none(FILE, "remote not an https address", id);
  // Loopback, private, link-local and internal names (the cloud metadata address among them) are no public endpoint.
  if (!publicHttpsUrl(url)) return gate.none(FILE, "remote not at a public host", id);
  const headers = Array.isArray(remote.headers) ? remote.headers : [];
  const needed = (h: unknown) => isObject(h) && (h.isRequired === true || h.is_required === true);
  if (headers.some(needed)) return gate.none(FILE, "remote needs headers", id);
  const transport = type === "sse" ? "sse" : "http";
  return gate.instructions(id, [
    {
      harness: "claude-code",
      kind: "remote",
      command: `claude mcp add --transport ${transport} ${name} ${url}`,
      env: [],
      from: FILE,
    },
    {
      harness: "mcp",
      kind: "remote",
      config: { mcpServers: { [name]: { type: transport, url } } },
      env: [],
      from: FILE,
    },
  ]);
}
