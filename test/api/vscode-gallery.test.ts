/**
 * The MCP registry API as VS Code's MCP gallery reads it (vscode-gallery.ts re-implements its
 * parsing, paging and install configuration), replayed over every page served: of the embedded
 * default snapshot, and of a fixture of servers whose server.json the real refresh reader read
 * (descriptions hostile and long, secret defaults, choices, argument placeholders, optional
 * headers, titles and icons good and bad). Every answer is also checked against /openapi.json
 * (test/helpers.ts). Judged:
 *
 * - every required or secret value (environment variable, argument placeholder) is prompted for,
 *   with server.json's cleaned description or a written-in one; a secret is masked, never defaulted;
 * - what VS Code runs is what the catalog's own instruction runs, placeholders for prompts;
 * - `search=github` finds every name holding it, on every page, page 2 on asked with the cursor
 *   alone; the catalog's word search (`q`) pages the same way;
 * - cards have a title, the repository's facts, and only the icons that are https at a public host;
 * - `updated_since` with `include_deleted=false` is the official registry's 400; CORS headers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Install, PluginDetails } from "../../src/catalog/model/details";
import type { PluginRecord } from "../../src/catalog/model/types";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { DELETED_SINCE } from "../../src/market/mcp-api/mcp-api-params";
import { cleanText } from "../../src/refresh/upstream/gate";
import { plugin, snapshotInput, startServer, type TestServer } from "../helpers";
import { json, readRepo } from "../refresh/manifests/read";
import {
  defaultPackageType,
  Gallery,
  type GalleryServer,
  type Installed,
  installConfiguration,
  type Json,
  type RawPackage,
} from "./vscode-gallery";

const BASE_URL = "https://plugins.example.org";
const CATALOG_META = "org.example.plugins/catalog";

/** A gallery over a test server: every request through `server.get`, so each answer is checked against /openapi.json. */
function galleryOf(server: TestServer, pageSize = 50): Gallery {
  return new Gallery(`${server.url}/`, (url) => server.get(url.slice(server.url.length)), pageSize);
}

/** Every server of every page of a query, with the pages' sizes. */
async function everyPage(gallery: Gallery, text?: string): Promise<{ servers: GalleryServer[]; pages: number[] }> {
  const servers: GalleryServer[] = [];
  const pages: number[] = [];
  for await (const page of gallery.query(text)) {
    servers.push(...page.servers);
    pages.push(page.servers.length);
    if (pages.length > 500) throw new Error("paging did not end");
  }
  return { servers, pages };
}

/** VS Code's arguments with each `${input:X}` written as the catalog writes it, `<X>`. */
const asPlaceholders = (words: readonly string[]) => words.map((w) => w.replace(/\$\{input:([^}]+)\}/g, "<$1>"));

/** An OCI command without the `-e NAME` pairs of its variables (VS Code passes each; the catalog the required ones). */
function withoutPassedEnv(words: readonly string[], names: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "-e" && names.has(words[i + 1] ?? "")) i++;
    else out.push(words[i]!);
  }
  return out;
}

interface Tally {
  variables: number;
  prompted: number;
  requiredOrSecret: number;
  requiredOrSecretPrompted: number;
  placeholders: number;
  placeholdersPrompted: number;
}

/**
 * Installs every package and remote of `server` as VS Code would and checks the result against
 * the catalog's own instruction (`installs`): the same command, each value the user gives a prompt.
 */
function checkInstall(server: GalleryServer, installs: readonly Install[], tally: Tally): void {
  const where = server.name;
  for (const pkg of server.configuration.packages ?? []) {
    const installed = installConfiguration({ packages: [pkg] }, pkg.registryType);
    const config = installed.config;
    if (config.type !== "stdio") throw new Error(`${where}: a package installed as ${config.type}`);
    expect([where, installed.notices]).toEqual([where, []]);
    const inputs = new Map((installed.inputs ?? []).map((v) => [v.id, v]));
    for (const v of inputs.values()) expect([where, v.id, v.description.length > 0]).toEqual([where, v.id, true]);
    // Every `${input:X}` written has its input; none is left for the user to find.
    const written = [...(config.args ?? []), ...Object.values(config.env ?? {})].join(" ");
    for (const [, id] of written.matchAll(/\$\{input:([^}]+)\}/g))
      expect([where, id, inputs.has(id!)]).toEqual([where, id, true]);
    for (const e of pkg.environmentVariables ?? []) {
      tally.variables++;
      const prompt = inputs.get(e.name!);
      const prompted = config.env?.[e.name!] === `\${input:${e.name}}` && prompt !== undefined;
      if (prompted) tally.prompted++;
      if (e.isRequired || e.isSecret) {
        tally.requiredOrSecret++;
        if (prompted) tally.requiredOrSecretPrompted++;
        expect([where, e.name, prompted]).toEqual([where, e.name, true]);
      }
      if (e.isSecret)
        expect([where, e.name, prompt?.password, prompt?.default]).toEqual([where, e.name, true, undefined]);
    }
    const own = installs.find((i) => i.harness === "mcp" && i.kind === pkg.registryType && matches(i, pkg));
    if (!own) throw new Error(`${where}: no instruction of the catalog runs ${pkg.identifier}`);
    const ownServer = Object.values((own.config as { mcpServers: Record<string, Json> }).mcpServers)[0]!;
    const ownArgs = ownServer.args as string[];
    expect([where, config.command]).toEqual([where, ownServer.command as string]);
    const names = new Set(own.env.map((e) => e.name));
    const vscodeArgs = asPlaceholders(config.args ?? []);
    if (pkg.registryType === "oci") {
      expect([where, withoutPassedEnv(vscodeArgs, names)]).toEqual([where, withoutPassedEnv(ownArgs, names)]);
    } else if (pkg.registryType === "npm") {
      // VS Code runs npx without `-y`: npx answers yes itself when its input is no terminal.
      expect([where, ["-y", ...vscodeArgs]]).toEqual([where, ownArgs]);
    } else {
      expect([where, vscodeArgs]).toEqual([where, ownArgs]);
    }
    for (const word of ownArgs) {
      for (const [, name] of word.matchAll(/<([A-Za-z_][A-Za-z0-9_]*)>/g)) {
        tally.placeholders++;
        if (inputs.has(name!)) tally.placeholdersPrompted++;
        expect([where, name, inputs.has(name!)]).toEqual([where, name, true]);
      }
    }
    // A value the catalog fills in itself is the prompt's default; a placeholder is the user's to type.
    for (const [name, value] of Object.entries((ownServer.env ?? {}) as Record<string, string>)) {
      const prompt = inputs.get(name);
      if (!/^<.+>$/.test(value)) expect([where, name, prompt?.default]).toEqual([where, name, value]);
    }
  }
  for (const remote of server.configuration.remotes ?? []) {
    const installed = installConfiguration({ remotes: [remote] }, "remote");
    if (installed.config.type !== "http") throw new Error(`${where}: a remote installed as stdio`);
    expect(installed.config.url).toStartWith("https://");
    const inputs = new Map((installed.inputs ?? []).map((v) => [v.id, v]));
    for (const [name, value] of Object.entries(installed.config.headers ?? {})) {
      expect([where, name, value, (inputs.get(name)?.description.length ?? 0) > 0]).toEqual([
        where,
        name,
        `\${input:${name}}`,
        true,
      ]);
    }
  }
  // The install VS Code offers first works as well.
  const first: Installed = installConfiguration(server.configuration, defaultPackageType(server));
  expect(first.notices).toEqual([]);
}

/** Whether an instruction of the catalog runs this package. */
function matches(install: Install, pkg: RawPackage): boolean {
  const args = (Object.values((install.config as { mcpServers: Record<string, Json> }).mcpServers)[0]!.args ??
    []) as string[];
  const word =
    pkg.registryType === "npm"
      ? `${pkg.identifier}@${pkg.version}`
      : pkg.registryType === "pypi"
        ? `${pkg.identifier}==${pkg.version}`
        : pkg.identifier;
  return args.includes(word);
}

const emptyTally = (): Tally => ({
  variables: 0,
  prompted: 0,
  requiredOrSecret: 0,
  requiredOrSecretPrompted: 0,
  placeholders: 0,
  placeholdersPrompted: 0,
});

/** Searching as VS Code does, with the cursor alone from page 2 on: every page filtered, every name holding the text found. */
async function checkSearch(server: TestServer, all: readonly string[], text: string, pageSize: number) {
  const gallery = galleryOf(server, pageSize);
  const { servers, pages } = await everyPage(gallery, text);
  // VS Code trims the text; the registry compares case aside.
  const wanted = text.trim().toLowerCase();
  const expected = all.filter((n) => n.toLowerCase().includes(wanted));
  for (const s of servers) expect([text, s.name.toLowerCase().includes(wanted)]).toEqual([text, true]);
  expect(servers.map((s) => s.name)).toEqual(expected);
  const pageRequests = gallery.requests.filter((r) => r.includes("version=latest"));
  expect(pageRequests.length).toBe(pages.length);
  for (const r of pageRequests.slice(1)) {
    expect(r).toContain("cursor=");
    expect(r).not.toContain("search=");
  }
  return { found: servers.length, expected: expected.length, pages: pages.length };
}

describe("VS Code's gallery over the embedded default snapshot", () => {
  let server: TestServer;
  const input = defaultSnapshotInput();
  const installsOf = new Map(input.plugins.map((p) => [p.id.toLowerCase(), p.details?.install ?? []]));
  beforeAll(() => {
    server = startServer(input, { baseUrl: BASE_URL });
  });
  afterAll(() => server.stop());

  test("every page parses; every required or secret variable is prompted; what it runs is the catalog's instruction", async () => {
    const gallery = galleryOf(server);
    const { servers, pages } = await everyPage(gallery);
    expect(gallery.requests[0]).toEndWith("/v0.1/servers?limit=1");
    expect(servers.length).toBeGreaterThan(40);
    expect(pages.length).toBe(1);
    const small = await everyPage(galleryOf(server, 7));
    expect(small.servers.map((s) => s.name)).toEqual(servers.map((s) => s.name));
    expect(small.pages.length).toBe(Math.ceil(servers.length / 7));
    const tally = emptyTally();
    for (const s of servers) {
      const entry = await server.json(`/v0.1/servers/${encodeURIComponent(s.name)}/versions/latest`);
      const id = (entry._meta[CATALOG_META] as { id: string }).id;
      const record = input.plugins.find((p) => p.id === id)!;
      checkInstall(s, installsOf.get(id.toLowerCase())!, tally);
      expect(s.displayName.length).toBeGreaterThan(0);
      expect(s.displayName).toBe(entry.server.title);
      expect(s.publisher).toBe(id.split("/")[0]!);
      expect([s.starsCount, s.topics, s.license ?? ""]).toEqual([record.stars, record.topics, record.license]);
      expect(s.lastUpdated).toBe(Date.parse(record.pushed_at));
      expect(s.repositoryUrl).toBe(record.url);
      // VS Code looks an installed server up by name and finds it.
      expect((await gallery.server(s.name))?.name).toBe(s.name);
    }
    expect(tally.requiredOrSecret).toBeGreaterThan(20);
    expect(tally.requiredOrSecretPrompted).toBe(tally.requiredOrSecret);
    expect(tally.prompted).toBe(tally.variables);
    console.log(
      `embedded default: ${servers.length} servers, variables prompted ${tally.prompted}/${tally.variables}, required or secret prompted ${tally.requiredOrSecretPrompted}/${tally.requiredOrSecret}`,
    );
  });

  test("search=github finds every name holding it on every page, page 2 on by the cursor alone", async () => {
    const all = (await everyPage(galleryOf(server, 100))).servers.map((s) => s.name);
    const holding = all.filter((n) => n.toLowerCase().includes("github"));
    expect(holding.length).toBeGreaterThan(30);
    for (const size of [50, 7, 1]) {
      const result = await checkSearch(server, all, "github", size);
      expect(result.found).toBe(holding.length);
      if (size === 7)
        console.log(
          `embedded default: search=github found ${result.found} of ${result.expected} names holding it, over ${result.pages} pages`,
        );
    }
    await checkSearch(server, all, "GitHub", 7);
    await checkSearch(server, all, "  MCP ", 5);
    expect((await everyPage(galleryOf(server), "no-name-holds-this")).servers).toEqual([]);
  });
});

/** A server.json of the fixture: packages and remotes of every kind, words good and bad. */
function serverJson(i: number, owner: string, repo: string): Json {
  const env = [
    {
      name: `API_KEY_${i}`,
      isRequired: true,
      isSecret: true,
      default: "sk-never-shown",
      ...(i % 2 ? { description: "Your API key\u0000 \u202Efrom the\n dashboard" } : {}),
    },
    {
      name: "REGION_NAME",
      isRequired: true,
      default: "eu-west",
      choices: ["eu-west", "us-east"],
      format: "string",
      description: "Region",
    },
    { name: "VERBOSE", isRequired: false, format: "boolean" },
    { name: "LONG_ONE", isRequired: false, description: `Long ${"words ".repeat(80)}` },
    { name: "FIXED_MODE", isRequired: true, value: "on" },
    { name: "OPTIONAL_TOKEN", isSecret: true, description: "Only for private data" },
  ];
  const npm = {
    registryType: "npm",
    identifier: `@${owner}/tool-${i}`,
    version: `1.${i}.0`,
    transport: { type: "stdio" },
    environmentVariables: env,
    packageArguments: [
      { type: "positional", value: "serve" },
      { type: "positional", valueHint: "data_dir", isRequired: true, description: "Where the data lives" },
      { type: "named", name: "--token", isRequired: true, isSecret: true, description: "An access token" },
      { type: "named", name: "--port", default: "8080" },
      {
        type: "named",
        name: "--endpoint",
        value: "https://{host}/v1",
        variables: { host: { isRequired: true, default: "api.example.com" } },
      },
      {
        type: "named",
        name: "--api",
        value: "KEY={key}",
        variables: { key: { isRequired: true, isSecret: true, description: "The key" } },
      },
    ],
  };
  const pypi = {
    registryType: "pypi",
    identifier: `tool-${i}`,
    version: `0.${i}.1`,
    transport: { type: "stdio" },
    runtimeArguments: [{ type: "named", name: "-p", value: "3.13" }],
    environmentVariables: env.slice(0, 3),
  };
  const oci = {
    registryType: "oci",
    identifier: `ghcr.io/${owner}/tool-${i}:1.0.${i}`,
    transport: { type: "stdio" },
    runtimeArguments: [
      {
        type: "named",
        name: "-e",
        value: "ZONE={zone}",
        variables: { zone: { isRequired: true, description: "The zone" } },
      },
    ],
    environmentVariables: env.slice(0, 2),
  };
  const remote = {
    type: "streamable-http",
    url: `https://mcp.example.com/t${i}`,
    headers: [
      { name: "X-Api-Key", isSecret: true, description: "A key for higher limits" },
      { name: "X-Trace", description: "Trace\u0007 id" },
      { name: "X-Mode", choices: ["fast", "slow"], default: "fast" },
    ],
  };
  const kind = i % 4;
  const name =
    i % 3 === 0
      ? `io.github.${owner}/${repo}`
      : i % 3 === 1
        ? `io.github.someone-else/${repo}`
        : `com.example-${i}/${repo}`;
  const titles = [`Tool ${i}\u202E\u0007 reversed`, undefined, "T".repeat(150)];
  const icons = [
    { src: "https://cdn.example.com/icon.png", mimeType: "image/png", sizes: ["48x48", "huge"], theme: "dark" },
    { src: "http://cdn.example.com/plain.png" },
    { src: "https://127.0.0.1/local.png" },
    { src: "javascript:alert(1)" },
    { src: 'https://cdn.example.com/q"uote.png' },
  ];
  return {
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name,
    description: `Tool ${i}`,
    version: `2.${i}.0`,
    repository: { url: `https://github.com/${owner}/${repo}`, source: "github" },
    ...(titles[i % 3] === undefined ? {} : { title: titles[i % 3] }),
    ...(i % 5 === 0 ? { icons } : {}),
    ...(kind === 3 ? { remotes: [remote] } : { packages: [[npm, pypi, oci][kind]] }),
    ...(i % 8 === 0 ? { packages: [npm, oci] } : {}),
  };
}

/** Keys of server.json as the 2025-07-09 schema wrote them (snake_case), for every value below. */
function snake(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snake);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k === "variables" || k === "$schema" ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      k === "variables" ? Object.fromEntries(Object.entries(v as Json).map(([n, x]) => [n, snake(x)])) : snake(v),
    ]),
  );
}

const REPOS = ["tool", "github-tool", "mcp-server", "GitHubSync", "weather_kit"];
const COUNT = 120;

describe("VS Code's gallery over servers the refresh read from their server.json", () => {
  let server: TestServer;
  const plugins: PluginRecord[] = [];
  const written = new Map<string, Json>();
  beforeAll(() => {
    for (let i = 0; i < COUNT; i++) {
      const owner = `org${i % 9}`;
      const repo = `${REPOS[i % REPOS.length]}-${i}`;
      const id = `${owner}/${repo}`;
      let file = serverJson(i, owner, repo);
      if (i % 6 === 5) {
        file = snake(file) as Json;
        file.$schema = "https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json";
      }
      written.set(id, file);
      const read = readRepo({ "server.json": json(file) }, id);
      if (!read.details) throw new Error(`${id}: ${JSON.stringify(read.refused)}`);
      const details: PluginDetails = read.details;
      plugins.push(
        plugin(id, {
          stars: 5000 - i,
          license: i % 2 ? "MIT" : "",
          topics: i % 3 ? ["mcp"] : [],
          description: `Tool number ${i}`,
          details,
        }),
      );
    }
    server = startServer(snapshotInput(plugins), { baseUrl: BASE_URL });
  });
  afterAll(() => server.stop());

  test("every value the user gives is prompted with server.json's words, cleaned, or written-in ones", async () => {
    const gallery = galleryOf(server, 11);
    const { servers } = await everyPage(gallery);
    expect(servers.length).toBe(COUNT);
    const tally = emptyTally();
    for (const s of servers) {
      const entry = await server.json(`/v0.1/servers/${encodeURIComponent(s.name)}/versions/latest`);
      const id = (entry._meta[CATALOG_META] as { id: string }).id;
      const record = plugins.find((p) => p.id === id)!;
      checkInstall(s, record.details!.install, tally);
      const file = written.get(id)!;
      // Every variable's prompt: server.json's description cleaned, or the written-in one.
      for (const pkg of s.configuration.packages ?? []) {
        for (const e of pkg.environmentVariables ?? []) {
          const given = describedIn(file, e.name!);
          const expected = given === undefined ? `Value for ${e.name}` : (cleanText(given, 300) ?? "");
          expect([s.name, e.name, e.description]).toEqual([s.name, e.name, expected]);
          if (e.name === "REGION_NAME")
            expect([e.default, e.choices, e.format]).toEqual(["eu-west", ["eu-west", "us-east"], "string"]);
          if (e.name === "FIXED_MODE") expect(e.default).toBe("on");
        }
      }
      for (const remote of s.configuration.remotes ?? []) {
        expect(remote.headers?.map((h) => [h.name, h.description, h.isSecret, h.default ?? null])).toEqual([
          ["X-Api-Key", "A key for higher limits", true, null],
          ["X-Trace", "Trace id", false, null],
          ["X-Mode", "Value for X-Mode", false, "fast"],
        ]);
      }
    }
    expect(JSON.stringify(await server.json("/v0.1/servers?limit=100"))).not.toContain("sk-never-shown");
    expect(tally.requiredOrSecretPrompted).toBe(tally.requiredOrSecret);
    expect(tally.placeholdersPrompted).toBe(tally.placeholders);
    expect(tally.placeholders).toBeGreaterThan(50);
    console.log(
      `fixture: variables prompted ${tally.prompted}/${tally.variables}, required or secret ${tally.requiredOrSecretPrompted}/${tally.requiredOrSecret}, placeholders ${tally.placeholdersPrompted}/${tally.placeholders}`,
    );
  });

  test("cards: a title, the repository's facts, and only https icons at a public host", async () => {
    const { servers } = await everyPage(galleryOf(server));
    for (const s of servers) {
      const entry = await server.json(`/v0.1/servers/${encodeURIComponent(s.name)}/versions/latest`);
      const id = (entry._meta[CATALOG_META] as { id: string }).id;
      const i = Number(id.split("-").pop());
      const repo = id.split("/")[1]!;
      const expectedTitle = [
        `Tool ${i} reversed`,
        repo
          .replace(/-/g, " ")
          .replace(/_/g, " ")
          .replace(/\b([a-z])/g, (c) => c.toUpperCase()),
        "T".repeat(100),
      ]
        [i % 3]!.replace("Github", "GitHub")
        .replace("Mcp", "MCP");
      expect([id, s.displayName]).toEqual([id, expectedTitle]);
      expect(s.icon).toEqual(
        i % 5 === 0
          ? { light: "https://cdn.example.com/icon.png", dark: "https://cdn.example.com/icon.png" }
          : undefined,
      );
      if (i % 5 === 0) {
        expect(entry.server.icons).toEqual([
          { src: "https://cdn.example.com/icon.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" },
        ]);
      }
      expect([s.starsCount, s.license, s.topics, s.publisher]).toEqual([
        5000 - i,
        i % 2 ? "MIT" : undefined,
        i % 3 ? ["mcp"] : [],
        id.split("/")[0],
      ]);
    }
  });

  test("search finds every name holding it, across pages asked with the cursor alone; q pages the same way", async () => {
    const all = (await everyPage(galleryOf(server, 100))).servers.map((s) => s.name);
    expect(all.length).toBe(COUNT);
    for (const [text, size] of [
      ["github", 7],
      ["GITHUB", 13],
      ["tool", 20],
      ["sync", 3],
      ["org.example", 9],
    ] as const) {
      const result = await checkSearch(server, all, text, size);
      expect(result.found).toBe(result.expected);
      expect(result.found).toBeGreaterThan(size);
    }
    // The catalog's word search under q: the cursor carries it too.
    const once = await server.json("/v0.1/servers?q=weather&limit=100");
    expect(once.servers.length).toBeGreaterThan(10);
    const paged: string[] = [];
    let next = "/v0.1/servers?q=weather&limit=4";
    for (let pages = 0; next && pages < 100; pages++) {
      const body = await server.json(next);
      paged.push(...body.servers.map((s: { server: { name: string } }) => s.server.name));
      next = body.metadata.nextCursor ? `/v0.1/servers?limit=4&cursor=${body.metadata.nextCursor}` : "";
    }
    expect(paged).toEqual(once.servers.map((s: { server: { name: string } }) => s.server.name));
    // Both: servers both find; a filter the request gives replaces the cursor's.
    const both = await server.json("/v0.1/servers?q=weather&search=kit-1&limit=100");
    for (const s of both.servers) expect(s.server.name).toContain("kit-1");
    const first = await server.json("/v0.1/servers?search=github&limit=2");
    const replaced = await server.json(`/v0.1/servers?search=sync&limit=100&cursor=${first.metadata.nextCursor}`);
    for (const s of replaced.servers) expect(s.server.name.toLowerCase()).toContain("sync");
  });

  test("updated_since with include_deleted=false is a 400, as the official registry answers; the cursor carries since", async () => {
    const bad = await server.get("/v0.1/servers?updated_since=2020-01-01T00:00:00Z&include_deleted=false");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: DELETED_SINCE });
    expect((await server.get("/v0.1/servers?updated_since=2020-01-01T00:00:00Z&include_deleted=true")).status).toBe(
      200,
    );
    expect((await server.get("/v0.1/servers?include_deleted=false")).status).toBe(200);
    const page = await server.json("/v0.1/servers?updated_since=2020-01-01T00:00:00Z&limit=5");
    const cursor = page.metadata.nextCursor as string;
    expect((await server.get(`/v0.1/servers?cursor=${cursor}&include_deleted=false`)).status).toBe(400);
    const rest: string[] = [];
    let next: string | undefined = cursor;
    while (next) {
      const body: { servers: Array<{ server: { name: string } }>; metadata: { nextCursor?: string } } =
        await server.json(`/v0.1/servers?limit=50&cursor=${next}`);
      rest.push(...body.servers.map((s) => s.server.name));
      next = body.metadata.nextCursor;
    }
    expect(page.servers.length + rest.length).toBe(COUNT);
  });

  test("answers and the preflight carry the CORS headers GitHub Copilot's registry documentation names", async () => {
    const expectCors = (response: Response) => {
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-methods")).toContain("GET");
      expect(response.headers.get("access-control-allow-methods")).toContain("OPTIONS");
      expect(response.headers.get("access-control-allow-headers")).toContain("Authorization");
      expect(response.headers.get("access-control-allow-headers")).toContain("Content-Type");
    };
    const ok = await server.get("/v0.1/servers?limit=3");
    expectCors(ok);
    expectCors(await server.get("/v0.1/servers?limit=3", { "If-None-Match": ok.headers.get("etag")! }));
    expectCors(await server.get("/v0.1/servers/nobody%2Fnothing/versions/latest"));
    expectCors(await server.get("/v0.1/servers?limit=0"));
    const name = encodeURIComponent((await ok.json()).servers[0].server.name);
    expectCors(await server.get(`/v0.1/servers/${name}/versions`));
    const preflight = await fetch(`${server.url}/v0.1/servers`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://vscode.dev",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
  });
});

/** The description server.json gave a variable, if any. */
function describedIn(file: Json, name: string): string | undefined {
  const packages = (file.packages ?? []) as Json[];
  for (const p of packages) {
    const list = (p.environmentVariables ?? p.environment_variables ?? []) as Json[];
    const found = list.find((e) => e.name === name);
    if (found) return found.description as string | undefined;
  }
  return undefined;
}
