/**
 * A catalog held to a policy: built from records the project has not seen, under a policy that
 * mixes every rule, each surface serves exactly what the policy admits, and each plugin it keeps
 * out has a listing decision naming its rule.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Install, PluginDetails } from "../../src/catalog/model/details";
import { noDetails } from "../../src/catalog/model/details";
import { parsePolicy } from "../../src/catalog/model/policy-file";
import type { PluginRecord } from "../../src/catalog/model/types";
import { withPolicy } from "../../src/catalog/snapshot/policy-apply";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import {
  CATEGORY_IDS,
  marketplacePlugin,
  plugin,
  SNAPSHOT_AT,
  snapshotInput,
  startServer,
  type TestServer,
  tempDir,
} from "../helpers";

const APPROVED = "a".repeat(40);
const NEWER = "b".repeat(40);

export const POLICY = `# the organization's catalog
allow:
  - owner: acme
  - repo: solo/picked-srv
  - repo: solo/pinned-srv
    commit: ${APPROVED}
  - repo: solo/moved-srv
    commit: ${APPROVED}
  - repo: evil/banned-srv
deny:
  - owner: evil
  - repo: acme/denied-one
require:
  licences: [MIT, Apache-2.0]
  packages_verified: true
  scorecard_min: 5
  advisories: none
  risk_rules_absent: [pipe-to-shell]
  context_max: 5000
  archived: false
  harnesses: [claude-code, mcp]
categories: [mcp, commands]
`;

const npm = (name: string, fields: Partial<Install> = {}): Install => ({
  harness: "mcp",
  kind: "npm",
  config: { mcpServers: { [name]: { command: "npx", args: ["-y", `@acme/${name}@1.0.0`] } } },
  env: [],
  from: "server.json",
  ...fields,
});

const scored = (score: number) => ({
  scorecard: { score, date: "2026-08-01" },
  scorecard_status: "scored" as const,
  advisories: null,
  provenance: null,
  packages: [],
  checked_at: null,
});

/** An MCP server with an npm line, MIT, a Scorecard of 7, in the `mcp` category, read at `commit`. */
function server(id: string, fields: Partial<PluginRecord> = {}, details: Partial<PluginDetails> = {}, commit?: string) {
  const name = id.split("/")[1]!;
  const contents = commit
    ? {
        skills: [],
        commands: [],
        agents: [],
        hooks: [],
        mcp_servers: [],
        plugins: [],
        commit,
        counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, plugins: 0 },
      }
    : null;
  return plugin(id, {
    stars: 100,
    license: "MIT",
    categories: ["mcp"],
    category: "mcp",
    details: { ...noDetails(), works_with: ["mcp"], install: [npm(name)], security: scored(7), contents, ...details },
    ...fields,
  });
}

/** The served plugins and the rule each kept-out one breaks. */
export const SERVED = ["acme/alpha-srv", "acme/beta-market", "solo/picked-srv", "solo/pinned-srv"];
export const KEPT_OUT: Record<string, string> = {
  "acme/denied-one": "deny repo acme/denied-one",
  "evil/banned-srv": "deny owner evil",
  "other/outside-srv": "not in allow",
  "acme/gpl-srv": "require.licences MIT, Apache-2.0: licence GPL-3.0",
  "acme/stale-arch": "require.archived false: archived",
  "acme/risky-srv": "require.risk_rules_absent pipe-to-shell: risk pipe-to-shell",
  "acme/low-score": "require.scorecard_min 5: scorecard 3.1",
  "acme/bad-pkg": "require.packages_verified true: package not the repository's: npm",
  "acme/gemini-ext": "require.harnesses claude-code, mcp: works with gemini-cli",
  "acme/wrong-cat": "categories mcp, commands: other",
  "acme/advised-srv": "require.advisories none: advisories GHSA-xxxx-yyyy-zzzz",
  "solo/moved-srv": `allow repo solo/moved-srv commit ${APPROVED}: read at ${NEWER}`,
};

export function records(): PluginRecord[] {
  const market = marketplacePlugin("acme/beta-market", [["tool", "./plugins/tool"]], {
    stars: 90,
    license: "Apache-2.0",
    categories: ["commands"],
  });
  market.details!.security = scored(8);
  return [
    server("acme/alpha-srv"),
    market,
    server("solo/picked-srv"),
    server("solo/pinned-srv", {}, {}, APPROVED),
    server("acme/denied-one"),
    server("evil/banned-srv"),
    server("other/outside-srv"),
    server("acme/gpl-srv", { license: "GPL-3.0" }),
    server("acme/stale-arch", { archived: true }),
    server(
      "acme/risky-srv",
      {},
      { risk: [{ rule: "pipe-to-shell", file: "install.sh", line: 3, excerpt: "curl x | sh" }] },
    ),
    server("acme/low-score", {}, { security: scored(3.1) }),
    server("acme/bad-pkg", {}, { install: [npm("bad-pkg", { package_verified: false, command: undefined })] }),
    server("acme/gemini-ext", {}, { works_with: ["gemini-cli"], install: [] }),
    server("acme/wrong-cat", { categories: ["other"], category: "other" }),
    server(
      "acme/advised-srv",
      {},
      {
        security: {
          ...scored(9),
          advisories: ["GHSA-xxxx-yyyy-zzzz"],
          packages: [
            {
              system: "npm",
              name: "@acme/advised-srv",
              version: "1.0.0",
              advisories: ["GHSA-xxxx-yyyy-zzzz"],
              provenance: null,
            },
          ],
        },
      },
    ),
    server("solo/moved-srv", {}, {}, NEWER),
  ];
}

let server_: TestServer;
let cleanup: () => void;

beforeAll(() => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  const path = join(temp.dir, "catalog.sqlite");
  const policy = parsePolicy(POLICY, "policy.yml", CATEGORY_IDS);
  publishSnapshot(path, withPolicy(snapshotInput(records()), policy));
  server_ = startServer(null, { path });
});
afterAll(async () => {
  await server_.stop();
  cleanup();
});

const held = Object.keys(KEPT_OUT);
const text = async (path: string) => {
  const response = await server_.get(path);
  expect(response.status).toBe(200);
  return response.text();
};
/** Every served id appears in `body` (unless `some`), and no kept-out one does. */
function servesExactly(body: string, expected = SERVED) {
  for (const id of expected) expect(body).toContain(id);
  for (const id of held) expect(body).not.toContain(id);
}

describe("under a policy mixing every rule, every surface serves exactly what it admits", () => {
  test("the API's list, and each plugin's detail", async () => {
    const body = await server_.json("/api/v1/plugins?limit=100");
    expect(body.data.items.map((p: { id: string }) => p.id).sort()).toEqual([...SERVED].sort());
    expect(body.data.total).toBe(SERVED.length);
    for (const id of SERVED) expect((await server_.get(`/api/v1/plugins/${id}`)).status).toBe(200);
    for (const id of held) expect((await server_.get(`/api/v1/plugins/${id}`)).status).toBe(404);
  });

  test("catalog.json, the changes, the feeds and the client-sync list", async () => {
    const catalog = JSON.parse(await text("/market/v1/catalog.json"));
    expect(catalog.items.map((p: { id: string }) => p.id).sort()).toEqual([...SERVED].sort());
    servesExactly(await text("/market/v1/plugins?limit=100"));
    servesExactly(await text(`/market/v1/changes?since=${encodeURIComponent(SNAPSHOT_AT)}`), []);
    for (const feed of ["/plugins/feed.xml", "/plugins/feed.atom", "/plugins/feed.json"])
      servesExactly(await text(feed));
  });

  test("the pages, the badges and the lookup", async () => {
    servesExactly(await text("/browse"));
    for (const id of SERVED) expect((await server_.get(`/plugin/${id}`)).status).toBe(200);
    for (const id of held) expect((await server_.get(`/plugin/${id}`)).status).toBe(404);
    for (const id of held) expect(await text(`/badge/${id}.json`)).not.toContain('"listed"');
    const lookup = await server_.json(`/api/v1/lookup?ids=${[...SERVED, ...held].join(",")}`);
    const listed = lookup.data.items.filter((i: { status: string }) => i.status === "listed");
    expect(listed.map((i: { id: string }) => i.id).sort()).toEqual([...SERVED].sort());
  });

  test("the registry's /v0.1/servers and the Claude Code marketplace", async () => {
    const servers = await server_.json("/v0.1/servers?limit=100");
    const names = servers.servers.map((s: { server: { name: string } }) => s.server.name).sort();
    expect(names).toEqual([
      "test.catalog/acme-alpha-srv",
      "test.catalog/solo-picked-srv",
      "test.catalog/solo-pinned-srv",
    ]);
    servesExactly(await text("/market/claude/marketplace.json"), ["acme/beta-market"]);
  });

  test("each plugin kept out has a listing decision naming its rule", async () => {
    for (const [id, rule] of Object.entries(KEPT_OUT)) {
      const { data } = await server_.json(`/api/v1/listing/${id}`);
      expect({ id, status: data.status, reason: data.reason, rule: data.policy_rule }).toEqual({
        id,
        status: "rejected",
        reason: "policy",
        rule,
      });
      expect(data.advice).toContain(rule);
    }
    const { data } = await server_.json("/api/v1/listing/acme/alpha-srv");
    expect(data.status).toBe("listed");
    expect("policy_rule" in data).toBe(false);
  });

  test("the managed settings name only the catalog's marketplaces and the MCP servers it admits; the manifest lists them", async () => {
    const claude = await server_.json("/market/claude/managed-settings.json");
    expect(claude.strictKnownMarketplaces[0]).toEqual({
      source: "url",
      url: "http://catalog.test/market/claude/marketplace.json",
    });
    expect(claude.strictKnownMarketplaces).toHaveLength(2 + CATEGORY_IDS.length);
    expect(claude.allowedMcpServers).toEqual(
      ["alpha-srv", "picked-srv", "pinned-srv"].map((name) => ({
        serverCommand: ["npx", "-y", `@acme/${name}@1.0.0`],
      })),
    );
    expect(await server_.json("/market/vscode/settings.json")).toEqual({
      "chat.mcp.gallery.serviceUrl": "http://catalog.test/",
      "chat.mcp.access": "registry",
    });
    const manifest = await server_.json("/market/manifest.json");
    expect(manifest.endpoints.map((e: { id: string }) => e.id)).toEqual([
      "manifest",
      "plugins",
      "claude-managed-settings",
      "vscode-settings",
    ]);
  });
});

describe("the operator's review page", () => {
  test("lists each plugin the policy keeps out with its rule, and the newcomers it serves", async () => {
    const html = await text("/review");
    // Every served plugin is new in a catalog's first snapshot.
    expect(html).toContain(`${held.length + SERVED.length} to review`);
    for (const [id, rule] of Object.entries(KEPT_OUT)) {
      expect(html).toContain(id);
      expect(html).toContain(`<td>${id}</td><td>${rule}</td>`);
    }
  });
});

describe("without a policy", () => {
  test("nothing is kept out and the manifest lists what it always did", async () => {
    const open = startServer(snapshotInput(records()));
    try {
      expect((await open.json("/api/v1/plugins?limit=100")).data.total).toBe(records().length);
      const manifest = await open.json("/market/manifest.json");
      expect(manifest.endpoints.map((e: { id: string }) => e.id)).toEqual(["manifest", "plugins"]);
      expect(await (await open.get("/review")).text()).toContain("held to no policy");
    } finally {
      await open.stop();
    }
  });
});
