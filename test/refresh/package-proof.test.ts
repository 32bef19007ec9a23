/**
 * The attack a package line's proof stops: an attacker publishes, on the fake npm registry and
 * fake PyPI (real HTTP servers on 127.0.0.1), the names a victim's package.json and
 * pyproject.toml declare but the victim never published, pointing them at the victim's
 * repository by everything a publisher writes (repository field, project URLs, MCP registry
 * name). A real refresh gives the victim's entry no line anywhere: not on its page, not under
 * `has=install`, not in the MCP registry API; a package with signed provenance still gets its lines.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { attack, world } from "../fakes/package-world";
import { FakeRegistries } from "../fakes/registries";
import { Env, published } from "./support";

let env: Env;
let registries: FakeRegistries;
afterEach(() => {
  env.stop();
  registries.stop();
});

const json = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

interface Served {
  server: { name: string; packages?: Array<{ identifier: string; version?: string }> };
}

async function servedPackages(url: string): Promise<string[]> {
  const body = (await json(`${url}/v0.1/servers?limit=100`)) as { servers: Served[] };
  return body.servers.flatMap((s) => (s.server.packages ?? []).map((p) => `${p.identifier}@${p.version}`));
}

describe("a stranger's package naming a victim's repository", () => {
  test("gives the victim no line: not on its page, not under has=install, not in /v0.1/servers, the marketplaces or the clients' settings", async () => {
    env = new Env({ searches: [{ query: "topic:mcp-server" }] });
    env.github.setRemaining("search", 1000);
    registries = new FakeRegistries();
    world(env.github, registries);
    attack(env.github, registries);
    const limits = { maxRequests: 500, timeoutMs: 2000, budgetMs: 10_000 };
    const report = published(await env.refresh({ registries: { npm: registries.url, pypi: registries.url, limits } }));
    // The registries were asked and answered with the attacker's versions: the check saw them.
    expect(registries.asked).toContain("/weather-mcp-server/latest");
    expect(registries.asked).toContain("/pypi/py-notes-mcp/json");
    const { url } = env.serve();

    for (const id of ["victim/weather-mcp-server", "victim/py-notes"]) {
      const plugin = (await json(`${url}/api/v1/plugins/${id}?include=install`)) as {
        data: { plugin: { install: unknown[] } };
      };
      expect({ id, install: plugin.data.plugin.install }).toEqual({ id, install: [] });
      const page = await (await fetch(`${url}/plugin/${id}`)).text();
      expect(page).not.toContain("6.6.6");
      expect(page).not.toContain("9.9.9");
      expect(page).not.toContain("data-copy=");
    }
    const listed = (await json(`${url}/api/v1/plugins?has=install&pageSize=100`)) as {
      data: { items: Array<{ id: string }> };
    };
    const ids = listed.data.items.map((p) => p.id);
    expect(ids).not.toContain("victim/weather-mcp-server");
    expect(ids).not.toContain("victim/py-notes");
    // A package file whose package was built from the repository (signed provenance) keeps its lines.
    expect(ids).toContain("solo/weather-mcp");

    const served = await servedPackages(url);
    expect(served).toContain("weather-mcp@0.3.0");
    expect(served).not.toContain("weather-mcp-server@6.6.6");
    expect(served).not.toContain("py-notes-mcp@9.9.9");
    expect(served.some((p) => p.includes("weather-mcp-server") || p.includes("py-notes"))).toBe(false);
    // Nor in what the clients install from: the served marketplaces and the clients' settings.
    for (const path of [
      "/market/claude/marketplace.json",
      "/market/claude/managed-settings.json",
      "/market/vscode/settings.json",
    ]) {
      const body = await (await fetch(`${url}${path}`)).text();
      expect({ path, attacker: /6\.6\.6|9\.9\.9|weather-mcp-server@|py-notes-mcp==/.test(body) }).toEqual({
        path,
        attacker: false,
      });
    }
    const settings = (await json(`${url}/market/claude/managed-settings.json`)) as {
      allowedMcpServers?: Array<{ serverCommand?: string[] }>;
    };
    const commands = (settings.allowedMcpServers ?? []).map((s) => (s.serverCommand ?? []).join(" "));
    expect(commands.some((c) => c.includes("weather-mcp@0.3.0"))).toBe(true);
    // The refresh counts them as MCP servers with no proven line.
    expect(report.packages?.mcp_servers).toBe(13);
  });
});
