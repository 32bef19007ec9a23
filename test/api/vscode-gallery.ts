/**
 * VS Code's MCP gallery as it reads an MCP registry, re-implemented from microsoft/vscode
 * `src/vs/platform/mcp/common/mcpGalleryService.ts` (the v0.1 serializer, `toGalleryMcpServer`, the
 * query pager), `mcpGalleryManifestService.ts` (the version probe and the resource URLs) and
 * `mcpManagementService.ts` (`getMcpServerConfigurationFromManifest`: the server configuration an
 * install writes and the inputs it prompts for). Behaviour, not code, is what is reproduced, with
 * VS Code's quirks kept where they decide an outcome:
 *
 * - page 2 and on are asked with `cursor` alone, the search text dropped, the cursor unencoded;
 * - a page is refused whole when its first server does not parse; a later bad one is skipped;
 * - an environment variable or header becomes a prompt only when it has no `value` and has a
 *   `description`, `choices` or a `default` (even `""`); otherwise its value (or `""`) is written;
 * - a positional argument without `value` becomes a prompt only when it has a `valueHint` and a
 *   `description` or `default`, else the `valueHint` is written literally; a named one without
 *   `value` only when it has a `description` or `default`; such argument prompts are never masked;
 * - every entry of an input's `variables` is a prompt (masked when `isSecret`);
 * - the display name is `title`, else made from the GitHub name, else from the server name.
 */

export type Json = Record<string, unknown>;

/** An input as the registry writes it (`Input`, `KeyValueInput`, `PositionalArgument`, `NamedArgument`). */
export interface RawInput {
  name?: string;
  type?: string;
  value?: string;
  valueHint?: string;
  description?: string;
  default?: string;
  choices?: string[];
  isRequired?: boolean;
  isSecret?: boolean;
  format?: string;
  variables?: Record<string, RawInput>;
}

export interface RawPackage {
  registryType: string;
  identifier: string;
  version?: string;
  registryBaseUrl?: string;
  transport?: { type: string };
  runtimeHint?: string;
  runtimeArguments?: RawInput[];
  packageArguments?: RawInput[];
  environmentVariables?: RawInput[];
}

export interface RawRemote {
  type: string;
  url: string;
  headers?: RawInput[];
}

interface GitHubInfo {
  name?: string;
  nameWithOwner?: string;
  displayName?: string;
  license?: string;
  ownerAvatarUrl?: string;
  preferredImage?: string;
  pushedAt?: string;
  stargazerCount?: number;
  topics?: string[];
  readme?: string;
}

/** What the v0.1 serializer keeps of one `ServerResponse`. */
export interface RawServer {
  name: string;
  description: string;
  version: string;
  title?: string;
  repository?: { url: string; source: string; id?: string };
  readme?: string;
  icons?: Array<{ src: string; theme?: string }>;
  websiteUrl?: string;
  packages?: RawPackage[];
  remotes?: RawRemote[];
  status?: string;
  registryInfo?: { status?: string; isLatest?: boolean; publishedAt?: string; updatedAt?: string };
  githubInfo?: GitHubInfo;
  apicInfo: Json;
}

/** A server as the gallery shows and installs it (`IGalleryMcpServer`). */
export interface GalleryServer {
  name: string;
  displayName: string;
  description: string;
  version: string;
  status: string;
  isLatest: boolean;
  publishDate?: number;
  lastUpdated?: number;
  repositoryUrl?: string;
  icon?: { light: string; dark: string };
  publisher: string;
  license?: string;
  starsCount?: number;
  topics?: string[];
  configuration: { packages?: RawPackage[]; remotes?: RawRemote[] };
}

export interface Page {
  servers: GalleryServer[];
  metadata: { count?: number; nextCursor?: string };
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === "string" && v !== "";

/** One `ServerResponse` as the v0.1 serializer reads it, or undefined when it lacks a name, description or version. */
export function toRawServer(input: unknown): RawServer | undefined {
  if (!isObject(input)) return undefined;
  const server = input.server;
  if (!isObject(server) || !isText(server.name) || !isText(server.description) || !isText(server.version)) {
    return undefined;
  }
  // VS Code destructures the response's `_meta` without a guard: a response without one throws.
  const meta = input._meta as Json;
  const { "io.modelcontextprotocol.registry/official": official, ...apicInfo } = meta;
  const serverMeta = server._meta as Json | undefined;
  const provided = serverMeta?.["io.modelcontextprotocol.registry/publisher-provided"] as Json | undefined;
  const githubInfo = provided?.github as GitHubInfo | undefined;
  const registryInfo = official as RawServer["registryInfo"];
  return {
    name: server.name,
    description: server.description,
    version: server.version,
    title: server.title as string | undefined,
    repository: isObject(server.repository)
      ? (server.repository as { url: string; source: string; id?: string })
      : undefined,
    readme: githubInfo?.readme,
    icons: server.icons as RawServer["icons"],
    websiteUrl: server.websiteUrl as string | undefined,
    packages: server.packages as RawPackage[] | undefined,
    remotes: server.remotes as RawRemote[] | undefined,
    status: registryInfo?.status,
    registryInfo,
    githubInfo,
    apicInfo,
  };
}

/** A page as the v0.1 serializer reads it: undefined when it has no server list or its first server fails. */
export function toRawPage(input: unknown): { servers: RawServer[]; metadata: Page["metadata"] } | undefined {
  if (!isObject(input) || !Array.isArray(input.servers)) return undefined;
  const servers: RawServer[] = [];
  for (const item of input.servers) {
    const raw = toRawServer(item);
    if (raw === undefined) {
      if (servers.length === 0) return undefined;
      continue;
    }
    servers.push(raw);
  }
  return { servers, metadata: input.metadata as Page["metadata"] };
}

const upperFirst = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** The gallery's view of a raw server (`toGalleryMcpServer`). */
export function toGalleryServer(server: RawServer): GalleryServer {
  let publisher = "";
  let displayName = server.title;
  const nameParts = server.name.split("/");
  if (server.githubInfo?.name) {
    if (!displayName) {
      displayName = server.githubInfo.name
        .split("-")
        .map((s) => (s.toLowerCase() === "mcp" ? "MCP" : s.toLowerCase() === "github" ? "GitHub" : upperFirst(s)))
        .join(" ");
    }
    // VS Code reads nameWithOwner without a guard once a GitHub name is there.
    publisher = server.githubInfo.nameWithOwner!.split("/")[0]!;
  } else {
    const domain = nameParts[0]!.split(".");
    publisher = domain[domain.length - 1]!;
    if (!displayName) displayName = nameParts[nameParts.length - 1]!.split("-").map(upperFirst).join(" ");
  }
  if (server.githubInfo?.displayName) displayName = server.githubInfo.displayName;
  let icon: GalleryServer["icon"];
  const image = server.githubInfo?.preferredImage ?? server.githubInfo?.ownerAvatarUrl;
  const msIcon = server.apicInfo["x-ms-icon"] as string | undefined;
  if (image) icon = { light: image, dark: image };
  else if (msIcon) icon = { light: msIcon, dark: msIcon };
  else if (server.icons && server.icons.length > 0) {
    const light = server.icons.find((i) => i.theme === "light") ?? server.icons[0]!;
    const dark = server.icons.find((i) => i.theme === "dark") ?? light;
    icon = { light: light.src, dark: dark.src };
  }
  const pushed = server.githubInfo?.pushedAt;
  const updated = server.registryInfo?.updatedAt;
  return {
    name: server.name,
    displayName: displayName!,
    description: server.description,
    status: server.status ?? "active",
    version: server.version,
    isLatest: server.registryInfo?.isLatest ?? true,
    publishDate: server.registryInfo?.publishedAt ? Date.parse(server.registryInfo.publishedAt) : undefined,
    lastUpdated: pushed ? Date.parse(pushed) : updated ? Date.parse(updated) : undefined,
    repositoryUrl: server.repository?.url,
    icon,
    publisher,
    license: server.githubInfo?.license,
    starsCount: server.githubInfo?.stargazerCount,
    topics: server.githubInfo?.topics,
    configuration: { packages: server.packages, remotes: server.remotes },
  };
}

/** A variable of the configuration an install writes (`IMcpServerVariable`). */
export interface Variable {
  id: string;
  type: "promptString" | "pickString";
  description: string;
  password: boolean;
  default?: string;
  options?: string[];
}

export interface Installed {
  config:
    | { type: "stdio"; command: string; args?: string[]; env?: Record<string, string> }
    | { type: "http"; url: string; headers?: Record<string, string> };
  inputs?: Variable[];
  notices: string[];
}

function variablesOf(map: Record<string, RawInput>): Variable[] {
  return Object.entries(map).map(([id, v]) => ({
    id,
    type: v.choices ? "pickString" : "promptString",
    description: v.description ?? "",
    password: !!v.isSecret,
    default: v.default,
    options: v.choices,
  }));
}

/** `{id}` replaced by `${input:id}` for each variable, the first occurrence only (VS Code's `String.replace`). */
function substituted(value: string, variables: Variable[]): string {
  let out = value;
  for (const v of variables) out = out.replace(`{${v.id}}`, `\${input:${v.id}}`);
  return out;
}

function keyValues(list: readonly RawInput[]): { values: Record<string, string>; variables: Variable[] } {
  const values: Record<string, string> = {};
  const variables: Variable[] = [];
  for (const input of list) {
    const own = input.variables ? variablesOf(input.variables) : [];
    let value = input.value || "";
    if (own.length > 0) {
      value = substituted(value, own);
      variables.push(...own);
    } else if (!value && (input.description || input.choices || input.default !== undefined)) {
      variables.push({
        id: input.name!,
        type: input.choices ? "pickString" : "promptString",
        description: input.description ?? "",
        password: !!input.isSecret,
        default: input.default,
        options: input.choices,
      });
      value = `\${input:${input.name}}`;
    }
    values[input.name!] = value;
  }
  return { values, variables };
}

function argumentsOf(list: readonly RawInput[]): { args: string[]; variables: Variable[]; notices: string[] } {
  const args: string[] = [];
  const variables: Variable[] = [];
  const notices: string[] = [];
  for (const arg of list) {
    const own = arg.variables ? variablesOf(arg.variables) : [];
    if (arg.type === "positional") {
      if (arg.value) {
        args.push(substituted(arg.value, own));
        variables.push(...own);
      } else if (arg.valueHint && (arg.description || arg.default !== undefined)) {
        variables.push({
          id: arg.valueHint,
          type: "promptString",
          description: arg.description ?? "",
          password: false,
          default: arg.default,
        });
        args.push(`\${input:${arg.valueHint}}`);
      } else {
        args.push(arg.valueHint ?? "");
      }
    } else if (arg.type === "named") {
      if (!arg.name) {
        notices.push(`Named argument is missing a name. ${JSON.stringify(arg)}`);
        continue;
      }
      args.push(arg.name);
      if (arg.value) {
        args.push(substituted(arg.value, own));
        variables.push(...own);
      } else if (arg.description || arg.default !== undefined) {
        const id = arg.name.replace(/^--?/, "");
        variables.push({
          id,
          type: "promptString",
          description: arg.description ?? "",
          password: false,
          default: arg.default,
        });
        args.push(`\${input:${id}}`);
      }
    }
  }
  return { args, variables, notices };
}

const COMMANDS: Record<string, string> = { npm: "npx", oci: "docker", pypi: "uvx", nuget: "dnx" };

/** The configuration VS Code writes when it installs `configuration` as `packageType` (`remote` or a registry type). */
export function installConfiguration(configuration: GalleryServer["configuration"], packageType: string): Installed {
  if (packageType === "remote" && configuration.remotes?.length) {
    const remote = configuration.remotes[0]!;
    const { values, variables } = keyValues(remote.headers ?? []);
    return {
      config: { type: "http", url: remote.url, ...(Object.keys(values).length ? { headers: values } : {}) },
      ...(variables.length ? { inputs: variables } : {}),
      notices: [],
    };
  }
  const pkg = configuration.packages?.find((p) => p.registryType === packageType) ?? configuration.packages?.[0];
  if (!pkg) throw new Error("No server package found");
  const args: string[] = [];
  const inputs: Variable[] = [];
  const env: Record<string, string> = {};
  const notices: string[] = [];
  if (pkg.registryType === "oci") args.push("run", "-i", "--rm");
  if (pkg.runtimeArguments?.length) {
    const read = argumentsOf(pkg.runtimeArguments);
    args.push(...read.args);
    inputs.push(...read.variables);
    notices.push(...read.notices);
  }
  if (pkg.environmentVariables?.length) {
    const { values, variables } = keyValues(pkg.environmentVariables);
    inputs.push(...variables);
    for (const [name, value] of Object.entries(values)) {
      env[name] = value;
      if (pkg.registryType === "oci") args.push("-e", name);
    }
  }
  const pinned = (sep: string) => (pkg.version ? `${pkg.identifier}${sep}${pkg.version}` : pkg.identifier);
  if (pkg.registryType === "npm") args.push(pinned("@"));
  else if (pkg.registryType === "pypi") args.push(pinned("=="));
  else if (pkg.registryType === "oci") args.push(pinned(":"));
  else if (pkg.registryType === "nuget") {
    args.push(pinned("@"), "--yes");
    if (pkg.packageArguments?.length) args.push("--");
  }
  if (pkg.packageArguments?.length) {
    const read = argumentsOf(pkg.packageArguments);
    args.push(...read.args);
    inputs.push(...read.variables);
    notices.push(...read.notices);
  }
  return {
    config: {
      type: "stdio",
      command: COMMANDS[pkg.registryType] ?? pkg.registryType,
      ...(args.length ? { args } : {}),
      ...(Object.keys(env).length ? { env } : {}),
    },
    ...(inputs.length ? { inputs } : {}),
    notices,
  };
}

/** The package type an install from the gallery picks: a remote when there is one, else the first package's. */
export function defaultPackageType(server: GalleryServer): string {
  return server.configuration.remotes?.length
    ? "remote"
    : (server.configuration.packages?.[0]?.registryType ?? "remote");
}

export type Fetch = (url: string) => Promise<Response>;

/**
 * The gallery of one service URL (`chat.mcp.gallery.serviceUrl`): the version probe, then queries
 * paged the way VS Code pages them.
 */
export class Gallery {
  readonly requests: string[] = [];
  private serversUrl: string | null = null;

  constructor(
    private readonly serviceUrl: string,
    private readonly fetch: Fetch,
    readonly pageSize = 50,
  ) {}

  private async get(url: string): Promise<Response> {
    this.requests.push(url);
    return this.fetch(url);
  }

  /** `<service>/v0.1/servers`, once `?limit=1` answered 2xx (else v0, as VS Code falls back). */
  async servers(): Promise<string> {
    if (this.serversUrl !== null) return this.serversUrl;
    const base = this.serviceUrl.endsWith("/") ? this.serviceUrl.slice(0, -1) : this.serviceUrl;
    let version = "v0.1";
    for (const candidate of ["v0.1", "v0"]) {
      const response = await this.get(`${base}/${candidate}/servers?limit=1`);
      await response.body?.cancel();
      if (response.ok) {
        version = candidate;
        break;
      }
    }
    this.serversUrl = `${base}/${version}/servers`;
    return this.serversUrl;
  }

  private async page(cursor: string | undefined, searchText: string | undefined): Promise<Page> {
    let url = `${await this.servers()}?limit=${this.pageSize}&version=latest`;
    if (cursor) url += `&cursor=${cursor}`;
    if (searchText) url += `&search=${encodeURIComponent(searchText)}`;
    const response = await this.get(url);
    const data = (await response.json()) as unknown;
    if (!data) return { servers: [], metadata: { count: 0 } };
    const raw = toRawPage(data);
    if (!raw)
      throw new Error(`Failed to serialize MCP servers result from ${url}: ${JSON.stringify(data).slice(0, 300)}`);
    return { servers: raw.servers.map(toGalleryServer), metadata: raw.metadata };
  }

  /** Every page of a query: the first with the search text, the next ones with the cursor alone. */
  async *query(text?: string): AsyncGenerator<Page> {
    const searchText = text?.trim() || undefined;
    let page = await this.page(undefined, searchText);
    yield page;
    let cursor = page.metadata?.nextCursor;
    while (cursor) {
      page = await this.page(cursor, undefined);
      yield page;
      cursor = page.metadata?.nextCursor;
    }
  }

  /** One server by name, as VS Code looks up an installed one (`…/{name}/versions/latest`); undefined on a 4xx. */
  async server(name: string): Promise<GalleryServer | undefined> {
    const response = await this.get(`${await this.servers()}/${encodeURIComponent(name)}/versions/latest`);
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel();
      return undefined;
    }
    const raw = toRawServer(await response.json());
    if (!raw) throw new Error(`Failed to serialize MCP server ${name}`);
    return toGalleryServer(raw);
  }
}
