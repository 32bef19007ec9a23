/**
 * Packages that belong to the repository, end to end: a hostile world on the fake platform and the
 * fake npm registry and PyPI (real HTTP servers on 127.0.0.1). A real refresh marks each npm and
 * PyPI line by what the registry says, derives pinned lines from package files the registry
 * confirms, caches what it learned, and publishes on time with the fields unknown when the
 * registries fail in any way.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { PackageOptions } from "../../src/refresh/checks/packages/package-verifier";
import { formatResult } from "../../src/refresh/report";
import { moreServers, world } from "../fakes/package-world";
import { FakeRegistries, type Mode } from "../fakes/registries";
import { Env, published } from "./support";

const TOPIC = "mcp-server";

let env: Env;
let registries: FakeRegistries;
afterEach(() => {
  env.stop();
  registries.stop();
});

function options(limits: Partial<PackageOptions["limits"]> = {}): { registries: PackageOptions } {
  return {
    registries: {
      npm: registries.url,
      pypi: registries.url,
      limits: { maxRequests: 500, timeoutMs: 2000, budgetMs: 10_000, ...limits },
    },
  };
}

async function setUp(mode: Mode = "ok") {
  env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
  env.github.setRemaining("search", 1000);
  registries = new FakeRegistries();
  registries.mode = mode;
  world(env.github, registries);
}

interface Line {
  [field: string]: unknown;
  kind: string;
  command?: string;
  config?: unknown;
  package_verified?: boolean | null;
  package_note?: string;
  package_proof?: string;
}
interface Item {
  id: string;
  install: Line[];
  works_with: string[];
}

async function installOf(url: string, id: string): Promise<Line[]> {
  const response = await fetch(`${url}/api/v1/plugins/${id}?include=install`);
  return ((await response.json()) as { data: { plugin: Item } }).data.plugin.install;
}

async function items(url: string): Promise<Item[]> {
  return ((await (await fetch(url)).json()) as { data: { items: Item[] } }).data.items;
}

/** The share of MCP servers (works_with has `mcp`) with an install line that is the repository's own. */
async function mcpShare(url: string): Promise<{ servers: number; withLine: number }> {
  const servers = (await items(`${url}/api/v1/plugins?pageSize=100&include=install,works_with`)).filter((p) =>
    p.works_with.includes("mcp"),
  );
  const withLine = servers.filter((p) => p.install.some((i) => i.package_verified !== false));
  return { servers: servers.length, withLine: withLine.length };
}

describe("packages that belong to the repository", () => {
  test("lines are marked by their proof; package files with signed provenance give pinned lines", async () => {
    await setUp();
    const report = published(await env.refresh(options()));
    const { url } = env.serve();
    const genuine = await installOf(url, "acme/fs-server");
    const agreed = "server.json names it and npm names this repository back";
    expect(genuine.map((i) => [i.package_verified, i.package_proof, i.package_note])).toEqual([
      [true, "server-json", agreed],
      [true, "server-json", agreed],
    ]);
    const lookalike = await installOf(url, "acme-tools/fs-server");
    expect(lookalike).toHaveLength(2);
    for (const line of lookalike) {
      expect(line.package_verified).toBe(false);
      expect(line.package_note).toBe("npm names another repository: acme/fs-server");
      expect(line.package_proof).toBeUndefined();
    }
    const prov = await installOf(url, "prov/tool");
    expect(prov[0]!.package_verified).toBe(false);
    expect(prov[0]!.package_note).toBe("npm provenance: built from evil/fork, not this repository");
    const py = await installOf(url, "mcpname/pyname");
    expect(py[0]!).toMatchObject({
      package_verified: true,
      package_proof: "server-json",
      package_note: "server.json names it and PyPI carries its MCP registry name",
    });
    // The owner's MCP name, but not the one server.json states: only what the publisher wrote.
    const loose = await installOf(url, "loose/claim");
    expect(loose.map((i) => [i.package_verified, i.package_proof])).toEqual([
      [false, "unproven"],
      [false, "unproven"],
    ]);
    expect(loose[0]!.package_note).toStartWith("Unproven: npm carries this owner's MCP registry name");

    const weather = await installOf(url, "solo/weather-mcp");
    expect(weather[0]!).toEqual({
      harness: "claude-code",
      kind: "npm",
      command: "claude mcp add weather-mcp -- npx -y weather-mcp@0.3.0",
      env: [],
      from: "package.json",
      package_verified: true,
      package_note: "npm provenance: built from this repository",
      package_proof: "provenance",
    });
    expect(weather[1]!.config).toEqual({
      mcpServers: { "weather-mcp": { command: "npx", args: ["-y", "weather-mcp@0.3.0"] } },
    });
    const pyServer = await installOf(url, "pyco/py-server");
    expect(pyServer[0]!.command).toBe("claude mcp add py-server -- uvx py-server==2.1.0");
    expect(pyServer[0]!).toMatchObject({
      package_proof: "provenance",
      package_note: "PyPI provenance: built from this repository",
    });
    expect(registries.asked).toContain("/integrity/py-server/2.1.0/py_server-2.1.0-py3-none-any.whl/provenance");
    // ghcr.io namespaces are GitHub accounts: read from the reference, no request.
    expect((await installOf(url, "dock/er")).map((l) => [l.package_verified, l.package_proof, l.package_note])).toEqual(
      [
        [true, "ghcr", "ghcr.io image under this repository's owner"],
        [true, "ghcr", "ghcr.io image under this repository's owner"],
      ],
    );
    expect(await installOf(url, "copy/er")).toMatchObject([
      { package_verified: false, package_note: "ghcr.io image under another owner: dock" },
      { package_verified: false },
    ]);
    expect((await installOf(url, "hub/img"))[0]!.package_verified).toBeNull();
    expect(await installOf(url, "imposter/notes-mcp")).toEqual([]);
    expect(await installOf(url, "plain/lib")).toEqual([]);
    expect(registries.asked.some((p) => p.includes("plain-lib"))).toBe(false);
    // Counted by line (a server.json package gives two) and by derived package; MCP servers by the proof of their lines.
    expect(report.packages).toEqual({
      verified: 6,
      unverified: 8,
      unknown: 2,
      unproven: 2,
      derived: 2,
      mcp_servers: 11,
      proven_servers: { provenance: 2, "server-json": 2, ghcr: 1, "mcp-registry": 0 },
      unproven_servers: 1,
    });
    const lines = formatResult({ status: "published", report });
    expect(lines).toContain(
      "  package lines verified 6, not verified 8 (unproven 2), unknown 2; derived from package files 2",
    );
    expect(lines).toContain(
      "  MCP servers checked 11, with a line proven by provenance 2 (18%), server-json 2 (18%), ghcr 1 (9%), " +
        "mcp-registry 0 (0%); only unproven lines 1 (9%)",
    );

    // The look-alike's line is not an install line of its own: not under has=install, not copy-ready on its page.
    const ids = (await items(`${url}/api/v1/plugins?has=install&pageSize=100`)).map((p) => p.id);
    expect(ids).toContain("acme/fs-server");
    expect(ids).not.toContain("acme-tools/fs-server");
    expect(ids).not.toContain("loose/claim");
    const unprovenPage = await (await fetch(`${url}/plugin/loose/claim`)).text();
    expect(unprovenPage).toContain("Unproven: nothing shows this package is this repository's own.");
    expect(unprovenPage).not.toContain("data-copy=");
    const page = await (await fetch(`${url}/plugin/acme-tools/fs-server`)).text();
    expect(page).toContain("Not this repository's package.");
    expect(page).toContain("npm names another repository: acme/fs-server");
    expect(page).not.toContain('data-copy="the claude-code install command"');
    const own = await (await fetch(`${url}/plugin/acme/fs-server`)).text();
    expect(own).toContain("data-copy=");
  });

  test("the share of MCP servers with an install line of their own rises, and none names a foreign package", async () => {
    await setUp();
    moreServers(env.github, registries);
    published(await env.refresh());
    const before = await mcpShare(env.serve().url);
    published(await env.refresh(options()));
    const { url } = env.serve();
    const after = await mcpShare(url);
    // Before: the eight servers with a server.json (a look-alike's, one built elsewhere, a copy naming another
    // owner's image, one only claimed among them). After: those four no longer count; the two package files of
    // world() with signed provenance and the 4 of the 20 added ones with it do; the 10 only pointing back do not.
    expect(before).toEqual({ servers: 31, withLine: 8 });
    expect(after).toEqual({ servers: 31, withLine: 10 });
    for (const plugin of await items(`${url}/api/v1/plugins?pageSize=100&include=install`))
      for (const line of plugin.install)
        if (line.package_verified !== false && (line.kind === "npm" || line.kind === "pypi"))
          expect({ id: plugin.id, verified: line.package_verified }).toEqual({ id: plugin.id, verified: true });
  });

  test("one request per package version: a second refresh asks the registries nothing", async () => {
    await setUp();
    published(await env.refresh(options()));
    const first = registries.asked.length;
    expect(first).toBeGreaterThan(0);
    published(await env.refresh(options()));
    expect(registries.asked.length).toBe(first);
    const again = await installOf(env.serve().url, "solo/weather-mcp");
    expect(again[0]!.command).toBe("claude mcp add weather-mcp -- npx -y weather-mcp@0.3.0");
  });

  test("a renamed repository keeps its package: the registry names it by its former id", async () => {
    await setUp();
    published(await env.refresh(options()));
    env.github.repos.rename("solo/weather-mcp", "team/weather-mcp");
    const report = published(await env.refresh(options()));
    expect(report.summary!.renamed).toEqual([{ from: "solo/weather-mcp", to: "team/weather-mcp" }]);
    const lines = await installOf(env.serve().url, "team/weather-mcp");
    expect(lines[0]!).toMatchObject({
      command: "claude mcp add weather-mcp -- npx -y weather-mcp@0.3.0",
      package_verified: true,
    });
  });

  for (const mode of ["down", "429", "malformed", "hang"] as const) {
    test(`registries ${mode}: the refresh publishes on time with the checks unknown and nothing derived`, async () => {
      await setUp(mode);
      const started = Date.now();
      const report = published(await env.refresh(options({ timeoutMs: 300, budgetMs: 1500 })));
      expect(Date.now() - started).toBeLessThan(8000);
      const { url } = env.serve();
      const lines = await installOf(url, "acme-tools/fs-server");
      expect(lines.map((l) => l.package_verified)).toEqual([null, null]);
      expect(lines[0]!.package_note).toMatch(/^npm not checked: /);
      expect(await installOf(url, "solo/weather-mcp")).toEqual([]);
      // Only the ghcr.io image, which needs no request, is verified.
      expect(report.packages?.verified).toBe(2);
      expect(report.packages?.unknown).toBe(12);
    });
  }
});
