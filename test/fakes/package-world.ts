/**
 * A hostile world of MCP servers for the package checks (test/refresh/packages.test.ts): on the
 * fake platform, genuine servers, a look-alike naming the original's package, a package built from
 * another repository, servers without server.json whose package files name published packages
 * (tied back, or a package of that name pointing elsewhere); and what the fake registries say.
 */
import type { FakeGitHub } from "./github";
import type { FakeRegistries } from "./registries";

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json";
const TOPIC = "mcp-server";
const SDK = { "@modelcontextprotocol/sdk": "^1.0.0" };

function serverJson(id: string, pkg: Record<string, unknown>, name = `io.github.${id}`): string {
  return JSON.stringify({
    $schema: SCHEMA,
    name,
    description: "An MCP server",
    version: "1.0.0",
    repository: { url: `https://github.com/${id}`, source: "github" },
    packages: [{ transport: { type: "stdio" }, ...pkg }],
  });
}

/** The world: genuine servers, a look-alike, an impostor, provenance from elsewhere, servers without server.json. */
export function world(github: FakeGitHub, registries: FakeRegistries): void {
  const add = (full_name: string, stars: number, files: Record<string, string>) =>
    github.add({ full_name, stars, topics: [TOPIC], files });
  add("acme/fs-server", 5000, {
    "server.json": serverJson("acme/fs-server", {
      registryType: "npm",
      identifier: "@acme/fs-server",
      version: "1.0.0",
    }),
  });
  add("acme-tools/fs-server", 10, {
    "server.json": serverJson("acme-tools/fs-server", {
      registryType: "npm",
      identifier: "@acme/fs-server",
      version: "1.0.0",
    }),
  });
  add("prov/tool", 50, {
    "server.json": serverJson("prov/tool", { registryType: "npm", identifier: "prov-tool", version: "2.0.0" }),
  });
  add("mcpname/pyname", 40, {
    "server.json": serverJson("mcpname/pyname", { registryType: "pypi", identifier: "pyname-mcp", version: "1.0.0" }),
  });
  add("solo/weather-mcp", 30, {
    "package.json": JSON.stringify({ name: "weather-mcp", version: "0.1.0", dependencies: SDK }),
  });
  add("imposter/notes-mcp", 20, {
    "package.json": JSON.stringify({ name: "notes-mcp", version: "1.0.0", dependencies: SDK }),
  });
  add("pyco/py-server", 25, {
    "pyproject.toml": '[project]\nname = "py-server"\nversion = "0.1.0"\ndependencies = ["mcp>=1.2"]\n',
  });
  const image = (id: string, identifier: string) =>
    add(id, 12, { "server.json": serverJson(id, { registryType: "oci", identifier }) });
  image("dock/er", "ghcr.io/dock/er:1.0.0");
  image("copy/er", "ghcr.io/dock/er:1.0.0");
  image("hub/img", "docker.io/hub/img:1.0.0");
  add("plain/lib", 15, { "package.json": JSON.stringify({ name: "plain-lib", version: "1.0.0" }) });
  // Its server.json's name is not the one the package carries: the owner's MCP name alone, unproven.
  add("loose/claim", 11, {
    "server.json": serverJson(
      "loose/claim",
      { registryType: "npm", identifier: "loose-claim", version: "1.0.0" },
      "io.github.loose/claim",
    ),
  });
  registries.npm.set("loose-claim", {
    latest: "1.0.0",
    versions: { "1.0.0": { mcpName: "io.github.loose/other", bin: "c.js" } },
  });

  registries.npm.set("@acme/fs-server", {
    latest: "1.0.0",
    versions: {
      "1.0.0": { repository: { type: "git", url: "git+https://github.com/acme/fs-server.git" }, bin: { fs: "x.js" } },
    },
  });
  registries.npm.set("prov-tool", {
    latest: "2.0.0",
    versions: { "2.0.0": { repository: "github:prov/tool", provenance: "evil/fork", bin: "x.js" } },
  });
  registries.npm.set("weather-mcp", {
    latest: "0.3.0",
    versions: {
      "0.1.0": { repository: "solo/weather-mcp", bin: "a.js" },
      "0.3.0": {
        repository: "https://github.com/solo/weather-mcp",
        mcpName: "io.github.solo/weather-mcp",
        bin: "a.js",
        provenance: "solo/weather-mcp",
      },
    },
  });
  registries.npm.set("notes-mcp", {
    latest: "4.0.0",
    versions: { "4.0.0": { repository: "git+https://github.com/real/notes-mcp.git", bin: "n.js" } },
  });
  registries.pypi.set("py-server", {
    latest: "2.1.0",
    versions: {
      "2.1.0": {
        project_urls: { Source: "https://github.com/pyco/py-server/tree/main", Docs: "https://py.example" },
        provenance: "pyco/py-server",
      },
    },
  });
  registries.pypi.set("pyname-mcp", {
    latest: "1.0.0",
    versions: { "1.0.0": { description: "# pyname\n\n<!-- mcp-name: io.github.mcpname/pyname -->\n" } },
  });
}

/**
 * Twenty MCP servers without server.json, as most are: 14 publish the package their package.json
 * names and point back (by repository, or only by mcpName), 4 of them with signed provenance from
 * the repository; 2 packages of that name point elsewhere, 2 name no repository at all, 2 are not published.
 */
export function moreServers(github: FakeGitHub, registries: FakeRegistries): void {
  for (let i = 0; i < 20; i++) {
    const name = `srv-${i}-mcp`;
    const id = `owner${i}/${name}`;
    github.add({
      full_name: id,
      stars: 5 + i,
      topics: [TOPIC],
      files: { "package.json": JSON.stringify({ name, version: "0.0.1", dependencies: SDK }) },
    });
    if (i >= 18) continue;
    const points = i < 14 ? id : `someone/${name}`;
    const marks = i % 3 === 0 ? { mcpName: `io.github.${points}` } : { repository: `https://github.com/${points}` };
    const built = i < 4 ? { provenance: id } : {};
    registries.npm.set(name, {
      latest: "1.0.0",
      versions: { "1.0.0": { ...(i < 16 ? marks : {}), ...built, bin: "s.js" } },
    });
  }
}

/**
 * The attack: a victim's package.json and pyproject.toml name packages the victim never published;
 * an attacker publishes those names pointing at the victim's repository, by repository field,
 * project URLs and MCP registry name, everything a publisher writes.
 */
export function attack(github: FakeGitHub, registries: FakeRegistries): void {
  github.add({
    full_name: "victim/weather-mcp-server",
    stars: 900,
    topics: [TOPIC],
    files: { "package.json": JSON.stringify({ name: "weather-mcp-server", version: "0.1.0", dependencies: SDK }) },
  });
  github.add({
    full_name: "victim/py-notes",
    stars: 800,
    topics: [TOPIC],
    files: { "pyproject.toml": '[project]\nname = "py-notes-mcp"\nversion = "0.1.0"\ndependencies = ["mcp>=1.2"]\n' },
  });
  registries.npm.set("weather-mcp-server", {
    latest: "6.6.6",
    versions: {
      "6.6.6": {
        repository: { type: "git", url: "git+https://github.com/victim/weather-mcp-server.git" },
        mcpName: "io.github.victim/weather-mcp-server",
        bin: "evil.js",
      },
    },
  });
  registries.pypi.set("py-notes-mcp", {
    latest: "9.9.9",
    versions: {
      "9.9.9": {
        project_urls: { Source: "https://github.com/victim/py-notes", Homepage: "https://github.com/victim/py-notes" },
        home_page: "https://github.com/victim/py-notes",
        description: "# notes\n\nmcp-name: io.github.victim/py-notes\n",
      },
    },
  });
}
