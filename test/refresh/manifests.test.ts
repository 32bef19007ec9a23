/**
 * Manifests read in the refresh's GraphQL batches, end to end: the fake platform holds a
 * repository of each kind, a real refresh reads them, and the real server answers `include=`,
 * `has=`, `harness=` and `original=` from the published snapshot. Hostile manifests yield no
 * unsafe instruction, are counted, and never fail the refresh.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { headOf } from "../fakes/github-repos";
import { FIXTURES, HOSTILE, SECRET_DEFAULT } from "../fakes/manifest-repos";
import { FULL_FIELDS } from "../helpers";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const INCLUDE = "include=contents,install,flags,works_with";
const TOPIC = "mcp-server";

async function get(url: string): Promise<{ status: number; text: string; body: any }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

/** Refreshes a catalog of the fixtures (and `extra` repositories), each found by the topic search. */
async function refreshed(extra = HOSTILE) {
  env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
  env.github.setRemaining("search", 1000);
  for (const fixture of Object.values(FIXTURES)) env.github.add({ ...fixture.seed, topics: [TOPIC] });
  for (const seed of extra) env.github.add({ ...seed, topics: [TOPIC] });
  const report = published(await env.refresh());
  return { report, server: env.serve() };
}

describe("manifests read in the refresh's GraphQL batches", () => {
  test("each kind's contents, install instructions, works_with and flags are served byte for byte", async () => {
    const { report, server } = await refreshed([]);
    for (const [kind, { seed, expected }] of Object.entries(FIXTURES)) {
      const { body, text } = await get(`${server.url}/api/v1/plugins/${seed.full_name}?${INCLUDE}`);
      const plugin = body.data.plugin;
      // The commit the manifests were read at comes with them: the fake's head of the seed's files.
      const { commit, ...contents } = plugin.contents ?? {};
      expect({ kind, contents: plugin.contents && contents }).toEqual({ kind, contents: expected.contents });
      expect({ kind, commit }).toEqual({ kind, commit: plugin.contents ? headOf(seed.files ?? {}) : undefined });
      // Byte-exact: the instructions' JSON text as served is the expected JSON text.
      expect(text).toContain(`"install":${JSON.stringify(expected.install)}`);
      expect({ kind, works_with: plugin.works_with }).toEqual({ kind, works_with: expected.works_with });
      expect(plugin.fork_of).toBe(expected.fork_of ?? null);
      expect(plugin.latest_release).toEqual(expected.latest_release ?? null);
      expect(plugin.deprecated).toBe(false);
    }
    // The skill folders' SKILL.md files cost one more query for the whole batch, and the marketplace
    // plugins' files it did not read one more; the other two are the batch of the catalog and the one
    // of the repository its marketplace names.
    expect(report.usage.skillQueries).toBe(1);
    expect(report.usage.pluginFileQueries).toBe(1);
    expect(report.usage.calls.graphql).toBe(4);
    expect(report.usage.callsText()).toContain("graphql 4 (4 points; follow-ups: 1 skill folders, 1 plugin files)");
    expect(report.usage.graphqlKinds()).toEqual({ batches: 2, skill: 1, plugin_files: 1, plugin_listed: 0, points: 4 });
  });

  test("a server.json's name and version are kept: the MCP registry API serves the server under them", async () => {
    const { server } = await refreshed([]);
    const { status, body } = await get(`${server.url}/v0.1/servers/io.github.mcpco%2Fnpm-server/versions/1.2.3`);
    expect(status).toBe(200);
    expect(body.server).toMatchObject({ name: "io.github.mcpco/npm-server", version: "1.2.3" });
    expect(body.server.packages).toEqual([
      {
        registryType: "npm",
        registryBaseUrl: "https://registry.npmjs.org",
        identifier: "@mcpco/npm-server",
        version: "1.2.3",
        transport: { type: "stdio" },
        environmentVariables: [
          { name: "MCPCO_TOKEN", isRequired: true, isSecret: true, description: "API token" },
          { name: "MCPCO_REGION", isRequired: false, isSecret: false, description: "Region", default: "eu" },
        ],
      },
    ]);
  });

  test("without include= a plugin and a list page are exactly the contract's fields", async () => {
    const { server } = await refreshed([]);
    const contract = FULL_FIELDS;
    const one = await get(`${server.url}/api/v1/plugins/mcpco/npm-server`);
    expect(Object.keys(one.body.data.plugin)).toEqual(contract);
    const withParts = await get(`${server.url}/api/v1/plugins/mcpco/npm-server?include=works_with`);
    expect(Object.keys(withParts.body.data.plugin)).toEqual([...contract, "works_with"]);
    // The parts follow the contract's fields, so the plain form is a prefix of the included one.
    expect(withParts.text.startsWith(one.text.slice(0, one.text.indexOf(',"topics"')))).toBe(true);
    const list = await get(`${server.url}/api/v1/plugins?pageSize=50`);
    for (const item of list.body.data.items) expect(Object.keys(item)).toEqual(contract);
    const listed = await get(`${server.url}/api/v1/plugins?pageSize=50&include=install,flags`);
    for (const item of listed.body.data.items)
      expect(Object.keys(item)).toEqual([
        ...contract,
        "install",
        "fork_of",
        "deprecated",
        "lookalike_of",
        "latest_release",
      ]);
    const bad = await get(`${server.url}/api/v1/plugins?include=contents,secrets`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("include");
  });

  test("has=, harness= and original= filter the list, and the categories count within them", async () => {
    const { server } = await refreshed([]);
    const ids = async (query: string) =>
      (await get(`${server.url}/api/v1/plugins?pageSize=50&sort=name&${query}`)).body.data.items.map(
        (p: { id: string }) => p.id,
      );
    expect(await ids("has=skills")).toEqual([
      "layouts/agent-folders",
      "skillco/folder-pack",
      "kit/full-plugin",
      "skillco/one-skill",
      "layouts/plugin-market",
      "layouts/root-folders",
      "layouts/rooted",
      "skillco/skill-pack",
      "layouts/twice",
    ]);
    // A marketplace holds what its plugins' folders hold.
    expect(await ids("has=hooks")).toEqual(["kit/full-plugin", "layouts/plugin-market"]);
    expect(await ids("has=commands,agents")).toEqual(["kit/full-plugin", "layouts/plugin-market"]);
    expect(await ids("harness=gemini-cli")).toEqual(["gemco/gem-ext"]);
    expect(await ids("has=install&harness=mcp")).toEqual([
      "mcpco/npm-server",
      "ocico/oci-server",
      "pyco/py-server",
      "remco/remote-server",
    ]);
    expect(await ids("q=server&has=mcp&original=1")).not.toContain("forker/npm-server");
    expect(await ids("q=server&has=mcp")).toContain("forker/npm-server");
    const facets = (await get(`${server.url}/api/v1/categories?has=mcp`)).body.data.items;
    const total = facets.reduce((sum: number, c: { count: number }) => sum + c.count, 0);
    expect(total).toBeGreaterThanOrEqual(6);
    const mcp = await get(`${server.url}/api/v1/plugins?has=mcp&pageSize=1`);
    expect(facets.find((c: { id: string }) => c.id === "mcp").count).toBeLessThanOrEqual(mcp.body.data.total);
    expect((await get(`${server.url}/api/v1/plugins?has=plugins`)).status).toBe(400);
    expect((await get(`${server.url}/api/v1/plugins?harness=vim`)).status).toBe(400);
    expect((await get(`${server.url}/api/v1/categories?harness=vim`)).status).toBe(400);
  });

  test("a fork ranks below its original in a search", async () => {
    const { server } = await refreshed([]);
    env.github.repos.update("forker/npm-server", { stars: 5000 });
    published(await env.refresh());
    const { body } = await get(`${server.url}/api/v1/plugins?q=npm-server`);
    const order = body.data.items.map((p: { id: string }) => p.id);
    expect(order).toEqual(["mcpco/npm-server", "forker/npm-server"]);
    // The list without a search, too: the default order counts the fork's stars just below its original's.
    const list = await get(`${server.url}/api/v1/plugins?pageSize=50`);
    const ids = list.body.data.items.map((p: { id: string }) => p.id);
    expect(ids.indexOf("mcpco/npm-server")).toBeLessThan(ids.indexOf("forker/npm-server"));
    const byStars = (await get(`${server.url}/api/v1/plugins?pageSize=50&sort=stars`)).body.data.items;
    expect(byStars[0].id).toBe("forker/npm-server");
  });
});

describe("hostile manifests", () => {
  test("yield no unsafe instruction, are counted, and the refresh publishes", async () => {
    const { report, server } = await refreshed();
    const leftOut = Object.fromEntries(report.gate.leftOut);
    expect(leftOut).toMatchObject({
      "manifest server.json: too large": 1,
      "manifest .claude-plugin/plugin.json: invalid JSON": 1,
      "manifest hooks/hooks.json: invalid JSON": 1,
      "manifest .claude-plugin/marketplace.json: more than 1000 plugins": 1,
      "manifest .claude-plugin/marketplace.json: marketplace name has spaces, which Claude Code refuses": 1,
      "manifest .claude-plugin/marketplace.json: plugin name has spaces, which Claude Code refuses": 1,
      'manifest .claude-plugin/marketplace.json: plugin source path contains "..", which Claude Code refuses': 1,
      "manifest server.json: name not accepted": 1,
      "manifest SKILL.md: skill name not accepted": 1,
      "manifest skills/Upper/SKILL.md: skill name not accepted": 1,
      "manifest gemini-extension.json: name not accepted": 1,
      "manifest server.json: environment variable name not accepted": 1,
      "manifest server.json: version not pinned": 2,
      "manifest server.json: image not pinned or not accepted": 1,
      "manifest server.json: remote not an https address": 1,
    });
    const catalog = await get(`${server.url}/market/v1/catalog.json`);
    const items: any[] = catalog.body.items;
    // Every fixture and every hostile repository is published.
    expect(items.length).toBe(Object.keys(FIXTURES).length + HOSTILE.length);
    for (const item of items) {
      for (const step of item.install) {
        if (step.command !== undefined) {
          expect(step.command).not.toMatch(/[;&|`$()\\\n\r'"*?!#~{}[\]]/);
          expect(step.command.replace(/=<[A-Za-z_][A-Za-z0-9_]*>/g, "")).not.toMatch(/[<>]/);
          expect(step.command).not.toMatch(/@latest\b|:latest\b|\^|>=/);
          expect(step.command).not.toContain("http:");
        }
      }
    }
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get("bad/huge").install).toEqual([]);
    expect(byId.get("bad/invalid").contents).toBeNull();
    expect(byId.get("bad/latest").install).toEqual([]);
    expect(byId.get("bad/http").install).toEqual([]);
    const many = byId.get("bad/many");
    expect(many.contents.counts.plugins).toBe(10_000);
    expect(many.contents.plugins).toHaveLength(500);
    expect(many.contents.truncated).toEqual(["plugins", "install"]);
    expect(many.install.length).toBe(520);
    expect(many.install[0].command).toBe("/plugin marketplace add bad/many");
    expect(byId.get("bad/meta").install).toEqual([]);
    // A skill folder whose name is not a skill name yields no instruction; its sound neighbour does. A
    // front-matter name that is no skill name is only a label: the folder names the skill, with no instruction.
    expect(byId.get("bad/skill-names").contents.skills.map((s: { name: string }) => s.name)).toContain("evil");
    expect(byId.get("bad/skill-names").install.map((i: { command: string }) => i.command)).toEqual([
      "npx -y skills@1.7.4 add bad/skill-names --skill fine --agent claude-code",
    ]);
    // A secret's default is never used: its value is a placeholder, and the value appears nowhere.
    const secret = byId.get("bad/secret");
    expect(secret.install[0].command).toBe(
      "claude mcp add secret --env API_KEY=YOUR_API_KEY --env OTHER=YOUR_OTHER -- npx -y secret-pkg@2.0.0",
    );
    expect(catalog.text).not.toContain(SECRET_DEFAULT);
    expect(readFileSync(env.databasePath).includes(SECRET_DEFAULT)).toBe(false);
    // A marketplace taking another owner's marketplace name is flagged as its look-alike; the genuine one is not.
    expect(byId.get("squat/tool-shelf").lookalike_of).toBe("mkt/market");
    expect(byId.get("mkt/market").lookalike_of).toBeNull();
    // A clone under a random suffix is flagged, filterable, and ranks below the original.
    expect(byId.get("cloner/superpowers-x7k2q").lookalike_of).toBe("obra/superpowers");
    expect(byId.get("obra/superpowers").lookalike_of).toBeNull();
    const originals = await get(`${server.url}/api/v1/plugins?q=superpowers&original=1`);
    expect(originals.body.data.items.map((p: { id: string }) => p.id)).toEqual(["obra/superpowers"]);
  });
});

describe("what the manifests say is evidence", () => {
  test("an MCP SDK dependency, skill folders or .claude/ commands publish a newcomer; look-alike files do not", async () => {
    env = new Env({ searches: [{ query: "topic:mcp" }] });
    const plugins: Record<string, Record<string, string>> = {
      "sdk/ts": {
        "package.json": JSON.stringify({ name: "ts", dependencies: { "@modelcontextprotocol/sdk": "^1.0.0" } }),
      },
      "sdk/py": { "pyproject.toml": '[project]\nname = "py"\ndependencies = ["mcp[cli]>=1.2", "httpx"]\n' },
      "sdk/req": { "requirements.txt": "# servers\nFastMCP==2.3.0\nrequests\n" },
      "sdk/go": { "go.mod": "module example.com/x\n\nrequire (\n\tgithub.com/mark3labs/mcp-go v0.32.0\n)\n" },
      "sdk/rs": {
        "Cargo.toml": '[package]\nname = "rs"\n\n[dependencies]\nrmcp = { version = "0.2", features = ["server"] }\n',
      },
      "sdk/skills": { "skills/review/SKILL.md": "---\nname: review\ndescription: Reviews\n---\n" },
      "sdk/claude": { ".claude/commands/ship.md": "Ship it." },
    };
    const distractors: Record<string, Record<string, string>> = {
      "no/pkg": { "package.json": JSON.stringify({ devDependencies: { "@modelcontextprotocol/sdk": "^1.0.0" } }) },
      "no/py": { "pyproject.toml": '[project]\ndependencies = ["mcpython>=1", "minecraft-mcp"]\n' },
      "no/resume": { "SKILLS.md": "# Skills\n- Negotiation\n" },
      "no/game": { "server.json": '{"motd": "A Minecraft server"}' },
      "no/settings": { ".claude/settings.json": "{}" },
      "no/skills": { "skills/README.md": "My skills" },
      "no/toml": { "Cargo.toml": "[dependencies\nrmcp = 1" },
    };
    for (const [full_name, files] of Object.entries({ ...plugins, ...distractors }))
      env.github.add({ full_name, topics: ["mcp"], files });
    const report = published(await env.refresh());
    expect(report.summary!.added.sort()).toEqual(Object.keys(plugins).sort());
    expect(report.discovery!.rules[0]).toEqual({
      rule: "search topic:mcp",
      found: 14,
      new: 14,
      rejected: Object.keys(distractors).length,
    });
    expect(Object.fromEntries(report.gate.leftOut)).toMatchObject({ "manifest Cargo.toml: invalid TOML": 1 });
    const server = env.serve();
    const works = async (id: string) =>
      (await get(`${server.url}/api/v1/plugins/${id}?include=works_with`)).body.data.plugin.works_with;
    expect(await works("sdk/ts")).toEqual(["mcp"]);
    // The package that depends on the SDK is the server: its own name is the server's.
    const ts = (await get(`${server.url}/api/v1/plugins/sdk/ts?include=contents`)).body.data.plugin;
    expect(ts.contents.mcp_servers).toEqual(["ts"]);
    expect(await works("sdk/go")).toEqual(["mcp"]);
    expect(await works("sdk/skills")).toEqual(["agent-skills"]);
    expect(await works("sdk/claude")).toEqual(["claude-code"]);
  });
});

describe("manifests across refreshes", () => {
  test("a run without a token keeps what the last run with one read", async () => {
    const { server } = await refreshed([]);
    const before = await get(`${server.url}/api/v1/plugins/mcpco/npm-server?${INCLUDE}`);
    env.github.setRemaining("core", 5000);
    published(await env.refresh({ token: undefined }));
    const after = await get(`${server.url}/api/v1/plugins/mcpco/npm-server?${INCLUDE}`);
    expect(after.body.data.plugin.install).toEqual(before.body.data.plugin.install);
    expect(after.body.data.plugin.contents).toEqual(before.body.data.plugin.contents);
  });

  test("a snapshot written before the manifests were read is refreshed: its plugins keep their history", async () => {
    env = new Env({ searches: [{ query: `topic:${TOPIC}` }] });
    env.github.add({ ...FIXTURES.npm!.seed, topics: [TOPIC] });
    env.publishFake();
    // The same file as the previous schema wrote it: no detail columns, schema version 6.
    const { Database } = await import("bun:sqlite");
    const db = new Database(env.databasePath);
    for (const column of ["x_contents", "x_install", "x_flags", "x_works_with"])
      db.run(`ALTER TABLE plugins DROP COLUMN ${column}`);
    db.run(`UPDATE meta SET value = '6' WHERE key = 'schema_version'`);
    db.close();
    const report = published(await env.refresh());
    expect(report.summary!.added).toEqual([]);
    expect(report.summary!.changed + report.summary!.unchanged).toBe(1);
    const server = env.serve();
    const plugin = (await get(`${server.url}/api/v1/plugins/mcpco/npm-server?include=install`)).body.data.plugin;
    expect(plugin.install).toEqual(FIXTURES.npm!.expected.install);
  });
});
