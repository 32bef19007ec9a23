/**
 * The packages and remotes of a registry entry, as an MCP client installs them: each package from
 * the catalog's own `mcpServers` instruction (the words it runs, split into the runtime's and the
 * package's arguments around the package itself; npx's `-y` and docker's `run -i --rm` are the
 * client's own), each value the user gives as an input the client prompts for. An environment variable, a `<NAME>` placeholder of an argument and a remote's header
 * keep the words server.json gave (description, default, choices, format, stored by the refresh);
 * one it gave none gets one written in (`Value for NAME`), so a client that prompts only for an
 * input with a description (VS Code) prompts for every one. A record stored before the words were
 * kept reads the same, with the written-in description.
 */
import type { Install } from "../../catalog/model/details";
import type { McpInput, McpPackageInputs, McpRegistryDetails } from "../../catalog/model/registry-inputs";

interface McpConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
}

export type Json = Record<string, unknown>;
export type Package = Json & { registryType: string; identifier: string; version?: string };
export type Remote = Json & { type: string; url: string };

/** A `<NAME>` placeholder in a word the catalog wrote. */
const PLACEHOLDER = /<([A-Za-z_][A-Za-z0-9_]{0,63})>/g;
const WHOLE_PLACEHOLDER = /^<([A-Za-z_][A-Za-z0-9_]{0,63})>$/;
const HAS_PLACEHOLDER = /<[A-Za-z_][A-Za-z0-9_]{0,63}>/;
/** The package words of a record stored before the package was (an npm spec, a PyPI pin, an image). */
const NPM_SPEC = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@\d[0-9A-Za-z.+-]*$/;
const PYPI_SPEC = /^[A-Za-z0-9][A-Za-z0-9._-]*==\d[0-9A-Za-z.!+-]*$/;
const OCI_IMAGE = /^[a-z0-9][a-z0-9._/:-]*(?::[A-Za-z0-9_][A-Za-z0-9._-]*|@sha256:[a-f0-9]{64})$/;
const REGISTRY_BASE: Record<string, string> = { npm: "https://registry.npmjs.org", pypi: "https://pypi.org" };
const RUNTIME: Record<string, string> = { npm: "npx", pypi: "uvx", oci: "docker" };

/** The description an input gets when server.json gave none. */
export const writtenDescription = (name: string) => `Value for ${name}`;

/** The one server of an install instruction's `mcpServers` config. */
function configOf(install: Install): McpConfig | null {
  const servers = (install.config as { mcpServers?: Record<string, McpConfig> } | undefined)?.mcpServers;
  const first = servers ? Object.values(servers)[0] : undefined;
  return first ?? null;
}

/** The words a package is run by: npm `name@version`, PyPI `name==version`, the OCI image. */
function packageWord(p: McpPackageInputs): string {
  if (p.kind === "npm") return `${p.identifier}@${p.version}`;
  if (p.kind === "pypi") return `${p.identifier}==${p.version}`;
  return p.identifier;
}

/** Where the package sits among the arguments, and its name and version; null when it is not there. */
function locate(
  install: Install,
  args: string[],
  stored: McpPackageInputs | undefined,
): { at: number; identifier: string; version?: string } | null {
  if (stored) {
    const at = args.indexOf(packageWord(stored), install.kind === "oci" ? 3 : 0);
    if (at !== -1) return { at, identifier: stored.identifier, ...(stored.version ? { version: stored.version } : {}) };
  }
  if (install.kind === "npm") {
    const at = args.findIndex((a, i) => i > 0 && NPM_SPEC.test(a));
    if (at === -1) return null;
    const spec = args[at]!;
    const sep = spec.lastIndexOf("@");
    return { at, identifier: spec.slice(0, sep), version: spec.slice(sep + 1) };
  }
  if (install.kind === "pypi") {
    const at = args.findIndex((a) => PYPI_SPEC.test(a));
    if (at === -1) return null;
    const [identifier, version] = args[at]!.split("==") as [string, string];
    return { at, identifier, version };
  }
  // An image: the last word after `run -i --rm` that is one (the old reading took the last word).
  for (let at = args.length - 1; at >= 3; at--) {
    if (OCI_IMAGE.test(args[at]!) && args[at - 1] !== "-e") return { at, identifier: args[at]! };
  }
  return null;
}

/** An input's words for a person: server.json's, or a description written in. */
function promptOf(input: McpInput | undefined, name: string): Json {
  const out: Json = { description: input?.description ?? writtenDescription(name) };
  if (input?.format !== undefined) out.format = input.format;
  if (input?.default !== undefined) out.default = input.default;
  if (input?.choices !== undefined) out.choices = input.choices;
  return out;
}

/**
 * One word of the catalog's instruction as a positional argument: as it is, or, when it holds
 * `<NAME>` placeholders, a value whose `{NAME}` variables the client asks the user for.
 */
function argumentOf(word: string, inputs: ReadonlyMap<string, McpInput>, env: ReadonlyMap<string, McpInput>): Json {
  const names = [...word.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  if (names.length === 0) return { type: "positional", value: word };
  const variables: Json = {};
  for (const name of names) {
    // A placeholder the refresh did not describe: an old record's, or an environment variable's own value.
    const input = inputs.get(name) ?? env.get(name);
    variables[name] = {
      ...promptOf(input, name),
      isRequired: input?.required ?? true,
      isSecret: input?.secret ?? false,
    };
  }
  const whole = WHOLE_PLACEHOLDER.exec(word)?.[1];
  return {
    type: "positional",
    ...(whole ? { valueHint: whole } : {}),
    value: word.replace(PLACEHOLDER, "{$1}"),
    variables,
  };
}

/** An environment variable as the registry's `KeyValueInput`, with its prompt. */
function envOf(e: Install["env"][number], stored: McpInput | undefined, config: McpConfig): Json {
  const input: McpInput | undefined = stored ?? fromConfig(e, config);
  return { name: e.name, ...promptOf(input, e.name), isRequired: e.required, isSecret: e.secret };
}

/** An old record's variable: the value the catalog fills in itself (never a secret's) as the default. */
function fromConfig(e: Install["env"][number], config: McpConfig): McpInput | undefined {
  const value = e.secret ? undefined : config.env?.[e.name];
  if (value === undefined || value === "" || HAS_PLACEHOLDER.test(value)) return undefined;
  return { name: e.name, secret: e.secret, required: e.required, default: value };
}

/** The words of an OCI instruction after `run -i --rm` and the `-e NAME` it passes (a client passes every variable itself). */
function ociRuntimeStart(args: string[], names: ReadonlySet<string>): number {
  let i = 3;
  while (args[i] === "-e" && names.has(args[i + 1] ?? "")) i += 2;
  return i;
}

/** The package an npm, PyPI or OCI instruction runs, with its arguments and variables; null when it names none. */
function packageOf(install: Install, identity: McpRegistryDetails | null): Package | null {
  const config = configOf(install);
  const args = config?.args ?? [];
  if (config === null || args.length === 0) return null;
  const stored = identity?.packages?.find((p) => p.kind === install.kind && args.includes(packageWord(p)));
  const found = locate(install, args, stored);
  if (found === null) return null;
  const pkg: Package = {
    registryType: install.kind,
    ...(REGISTRY_BASE[install.kind] ? { registryBaseUrl: REGISTRY_BASE[install.kind] } : {}),
    identifier: found.identifier,
    ...(found.version ? { version: found.version } : {}),
  };
  const envNames = new Set(install.env.map((e) => e.name));
  // The catalog's own words before the runtime's: npx's `-y` (a client runs npx answering yes itself), docker's `run -i --rm`.
  const start =
    install.kind === "oci" ? ociRuntimeStart(args, envNames) : install.kind === "npm" && args[0] === "-y" ? 1 : 0;
  const inputs = new Map((stored?.arguments ?? []).map((i) => [i.name, i]));
  const storedEnv = new Map((stored?.env ?? []).map((i) => [i.name, i]));
  const runtime = args.slice(start, found.at).map((w) => argumentOf(w, inputs, storedEnv));
  const after = args.slice(found.at + 1).map((w) => argumentOf(w, inputs, storedEnv));
  if (runtime.length > 0) pkg.runtimeHint = RUNTIME[install.kind];
  pkg.transport = { type: "stdio" };
  if (runtime.length > 0) pkg.runtimeArguments = runtime;
  if (after.length > 0) pkg.packageArguments = after;
  if (install.env.length > 0) {
    pkg.environmentVariables = install.env.map((e) => envOf(e, storedEnv.get(e.name), config));
  }
  return pkg;
}

/** The remote an https instruction connects to, with the optional headers server.json names. */
function remoteOf(install: Install, identity: McpRegistryDetails | null): Remote | null {
  const config = configOf(install);
  if (!config?.url) return null;
  const remote: Remote = { type: config.type === "sse" ? "sse" : "streamable-http", url: config.url };
  const headers = identity?.remotes?.find((r) => r.url === config.url)?.headers ?? [];
  if (headers.length > 0) {
    remote.headers = headers.map((h) => ({
      name: h.name,
      ...promptOf(h, h.name),
      isRequired: h.required,
      isSecret: h.secret,
    }));
  }
  return remote;
}

/** The packages (by registry and name, first kept) and remotes (by address) of a plugin's MCP instructions. */
export function packagesAndRemotes(
  install: readonly Install[],
  identity: McpRegistryDetails | null,
): { packages: Package[]; remotes: Remote[] } {
  const packages = new Map<string, Package>();
  const remotes = new Map<string, Remote>();
  for (const i of install) {
    // A package not proven this server's own (another's, or only claimed: `unproven`) is never served as its own.
    if (i.harness !== "mcp" || i.package_verified === false) continue;
    if (i.kind === "npm" || i.kind === "pypi" || i.kind === "oci") {
      const pkg = packageOf(i, identity);
      const key = pkg ? `${pkg.registryType}:${pkg.identifier}` : "";
      if (pkg && !packages.has(key)) packages.set(key, pkg);
    }
    const remote = i.kind === "remote" ? remoteOf(i, identity) : null;
    if (remote && !remotes.has(remote.url)) remotes.set(remote.url, remote);
  }
  return { packages: [...packages.values()], remotes: [...remotes.values()] };
}

/** Words shown in their own spelling in a title made from a repository name. */
const SPELLED: Record<string, string> = {
  mcp: "MCP",
  ai: "AI",
  api: "API",
  apis: "APIs",
  cli: "CLI",
  sdk: "SDK",
  llm: "LLM",
  ui: "UI",
  db: "DB",
  sql: "SQL",
  aws: "AWS",
  gcp: "GCP",
  http: "HTTP",
  https: "HTTPS",
  url: "URL",
  pdf: "PDF",
  json: "JSON",
  yaml: "YAML",
  js: "JS",
  ts: "TS",
  ide: "IDE",
  github: "GitHub",
  gitlab: "GitLab",
  openai: "OpenAI",
  postgresql: "PostgreSQL",
  mysql: "MySQL",
  mongodb: "MongoDB",
};

/** A readable title from a repository name: `mcp-server-github` → `MCP Server GitHub`; a name already in capitals kept. */
export function readableTitle(name: string): string {
  return name
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((word) => {
      const known = SPELLED[word.toLowerCase()];
      if (known) return known;
      return /[A-Z]/.test(word) ? word : word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(" ");
}
