/**
 * The official MCP registry's record as proof of a package (a fake registry, fake npm, both on
 * 127.0.0.1): a record in the repository owner's own `io.github.` namespace (which only that
 * account can publish in) listing the package its package.json names gives the derived lines,
 * `package_proof: "mcp-registry"`; a record in another account's namespace pointing at a
 * victim's repository proves nothing. A later run, which reads only what changed, keeps the proof.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { McpRegistryOptions } from "../../src/refresh/discover/mcp-registry-source";
import { FakeMcpRegistry } from "../fakes/mcp-registry";
import { FakeRegistries } from "../fakes/registries";
import { Env, published } from "./support";

let env: Env | undefined;
let registry: FakeMcpRegistry | undefined;
let npm: FakeRegistries | undefined;
afterEach(async () => {
  registry?.stop();
  npm?.stop();
  await env?.stop();
  env = registry = npm = undefined;
});

const NOW = new Date("2026-11-22T12:00:00.000Z");
const LATER = new Date("2026-11-23T12:00:00.000Z");
const SDK = { "@modelcontextprotocol/sdk": "^1.0.0" };
const packageJson = (name: string, version = "0.1.0") => JSON.stringify({ name, version, dependencies: SDK });

function options() {
  const mcpRegistry: McpRegistryOptions = {
    url: registry!.url,
    limits: { maxRequests: 50, timeoutMs: 1000, budgetMs: 5000 },
  };
  const limits = { maxRequests: 100, timeoutMs: 2000, budgetMs: 10_000 };
  return { mcpRegistry, registries: { npm: npm!.url, pypi: null, limits } };
}

async function installOf(url: string, id: string): Promise<Array<Record<string, unknown>>> {
  const body = (await (await fetch(`${url}/api/v1/plugins/${id}?include=install`)).json()) as {
    data: { plugin: { install: Array<Record<string, unknown>> } };
  };
  return body.data.plugin.install;
}

describe("the MCP registry's record as a package's proof", () => {
  test("the owner's own namespace listing the package proves it; another account's proves nothing", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    registry = new FakeMcpRegistry();
    npm = new FakeRegistries();
    env.github.add({
      full_name: "reg/srv",
      topics: ["mcp-server"],
      files: { "package.json": packageJson("reg-srv-mcp") },
    });
    env.github.add({
      full_name: "victim/notes",
      topics: ["mcp-server"],
      files: { "package.json": packageJson("notes-x") },
    });
    npm.npm.set("reg-srv-mcp", { latest: "2.0.0", versions: { "2.0.0": { repository: "reg/srv", bin: "s.js" } } });
    npm.npm.set("notes-x", { latest: "6.6.6", versions: { "6.6.6": { repository: "victim/notes", bin: "e.js" } } });
    const at = "2026-11-01T10:00:00.000Z";
    registry.add(
      {
        name: "io.github.reg/srv",
        repository: "https://github.com/reg/srv",
        updatedAt: at,
        packages: [{ registryType: "npm", identifier: "reg-srv-mcp" }],
      },
      {
        name: "io.github.mallory/notes",
        repository: "https://github.com/victim/notes",
        updatedAt: at,
        packages: [{ registryType: "npm", identifier: "notes-x" }],
      },
    );
    const report = published(await env.refresh({ ...options(), now: () => NOW }));
    let url = env.serve().url;
    const proven = {
      command: "claude mcp add reg-srv-mcp -- npx -y reg-srv-mcp@2.0.0",
      from: "package.json",
      package_verified: true,
      package_proof: "mcp-registry",
      package_note: "the MCP registry lists it under this owner's namespace, which it verified",
    };
    expect((await installOf(url, "reg/srv"))[0]).toMatchObject(proven);
    expect(await installOf(url, "victim/notes")).toEqual([]);
    expect(report.packages?.proven_servers["mcp-registry"]).toBe(1);

    // Read again (it changed), by a run that reads only the registry's entries changed since: still proven.
    env.github.repos.update("reg/srv", {
      pushed_at: "2026-11-23T00:00:00Z",
      files: { "package.json": packageJson("reg-srv-mcp", "0.2.0") },
    });
    published(await env.refresh({ ...options(), now: () => LATER }));
    expect(registry.asked.at(-1)?.get("updated_since")).not.toBeNull();
    url = env.serve().url;
    expect((await installOf(url, "reg/srv"))[0]).toMatchObject(proven);
    expect(await installOf(url, "victim/notes")).toEqual([]);
  });
});
