/**
 * A plugin approved at a commit no snapshot read: the refresh reads its manifests at that commit
 * from the fake platform (which keeps a repository's earlier commits) and serves that reading;
 * the newer head waits in the review list with what it adds; a commit the platform does not know
 * is refused with the reason, the plugin not served.
 */
import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_COMMIT_READS } from "../../src/refresh/pinned-reads";
import { headOf } from "../fakes/github-repos";
import { ROOT } from "../reliability/support/process";
import { Env, published } from "./support";

let env: Env;
afterEach(() => env.stop());

const policyPath = () => join(env.dir, "policy.yml");
const refresh = () => env.refresh({ policyPath: policyPath() });
const json = (value: unknown) => JSON.stringify(value, null, 2);

async function get(url: string, path: string) {
  const response = await fetch(url + path);
  return { status: response.status, body: (await response.json()) as any };
}

async function review(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, "run", "jobs/review.ts", ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_PATH: env.databasePath,
      POLICY_FILE: policyPath(),
      REFRESH_DATA_DIR: env.dataDir,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out, err };
}

function servedDetails(id: string): { contents: { commit?: string; hooks: string[]; mcp_servers: string[] } } | null {
  const db = new Database(env.databasePath, { readonly: true });
  try {
    const row = db.query<{ c: string }, [string]>("SELECT x_contents AS c FROM plugins WHERE id = ?").get(id);
    return row ? JSON.parse(`{${row.c}}`) : null;
  } finally {
    db.close();
  }
}

/** The first commit: a plugin with one command, listed by its own marketplace. */
const FIRST = {
  ".claude-plugin/plugin.json": json({ name: "pinned" }),
  ".claude-plugin/marketplace.json": json({
    name: "pinned-market",
    owner: { name: "acme" },
    plugins: [{ name: "pinned", source: "./", description: "A plugin" }],
  }),
  "commands/hello.md": "---\ndescription: Says hello\n---\nHello",
};
/** The second commit adds a hook and an MCP server. */
const SECOND = {
  ...FIRST,
  "hooks/hooks.json": json({
    hooks: { SessionStart: [{ hooks: [{ type: "command", command: "./start.sh" }] }] },
  }),
  ".mcp.json": json({ mcpServers: { "pinned-db": { command: "npx", args: ["-y", "@acme/pinned-db@1.0.0"] } } }),
};

/** acme/pinned with two commits, its head at the second; the policy approves `commit`. */
function seed(commit: string): void {
  env = new Env({ repositories: ["acme/pinned"] });
  env.github.add({ full_name: "acme/pinned", stars: 10, files: FIRST });
  env.github.repos.update("acme/pinned", { files: SECOND });
  writeFileSync(policyPath(), `allow:\n  - repo: acme/pinned # reviewed\n    commit: ${commit}\n`);
}

describe("a plugin approved at a commit no snapshot read", () => {
  test("is read at that commit and served so; the head waits with what it adds; approving it serves it", async () => {
    const [first, second] = [headOf(FIRST), headOf(SECOND)];
    seed(first);
    published(await refresh());
    expect(servedDetails("acme/pinned")?.contents).toMatchObject({ commit: first, hooks: [], mcp_servers: [] });
    const { url } = env.serve();
    const plugin = (await get(url, "/api/v1/plugins/acme/pinned?include=contents,install")).body.data.plugin;
    expect(plugin.contents.commit).toBe(first);
    expect(plugin.contents.commands).toEqual(["hello"]);
    expect(JSON.stringify(plugin.install)).not.toContain("pinned-db");
    const market = (await get(url, "/market/claude/marketplace.json")).body;
    expect(JSON.stringify(market.plugins)).toContain(first);
    expect(JSON.stringify(market.plugins)).not.toContain(second);

    const listed = await review();
    expect(listed.code).toBe(0);
    expect(listed.out.split("\n").filter(Boolean)).toEqual([
      `waiting   acme/pinned  ${first} → ${second}`,
      "  Hook events added: SessionStart",
      "  MCP servers added: pinned-db",
      "  Same version: the content changed while the declared version (none) did not move",
      `1 to review (policy ${policyPath()})`,
    ]);
    const page = await (await fetch(`${url}/review`)).text();
    expect(page).toContain("Hook events added: <code>SessionStart</code>");
    expect(page).toContain("MCP servers added: <code>pinned-db</code>");
    expect(page).toContain("same version");

    const approving = await review("approve", `acme/pinned@${second}`);
    expect([approving.code, approving.err]).toEqual([0, ""]);
    expect(servedDetails("acme/pinned")?.contents).toMatchObject({
      commit: second,
      hooks: ["SessionStart"],
      mcp_servers: ["pinned-db"],
    });
    expect((await review()).out).not.toContain("waiting");

    // A commit no snapshot read: approving it keeps the plugin out until a refresh reads it there.
    const third = "e".repeat(40);
    const later = await review("approve", `acme/pinned@${third}`);
    expect(later.out).toContain(`acme/pinned stays out until a refresh reads it at ${third}: allow repo acme/pinned`);
    expect(servedDetails("acme/pinned")).toBeNull();
  });

  test("a first approval of an older commit than the one the last snapshot read is read at that commit", async () => {
    const [first, second] = [headOf(FIRST), headOf(SECOND)];
    seed(first);
    writeFileSync(policyPath(), "allow:\n  - owner: acme\n");
    published(await refresh());
    expect(servedDetails("acme/pinned")?.contents.commit).toBe(second);
    writeFileSync(policyPath(), `allow:\n  - repo: acme/pinned\n    commit: ${first}\n`);
    published(await refresh());
    expect(servedDetails("acme/pinned")?.contents).toMatchObject({ commit: first, hooks: [], mcp_servers: [] });
    // Read once: with the platform no longer answering that commit, the next run still serves
    // the snapshot's reading of it, never asking again.
    env.github.repos.get("acme/pinned").commits = {};
    published(await refresh());
    expect(servedDetails("acme/pinned")?.contents.commit).toBe(first);
  });

  test("an MCP server approved at its first commit is served with that commit's package line and version", async () => {
    const server = (version: string) => ({
      "server.json": json({
        $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
        name: "io.github.acme/srv",
        description: "An MCP server",
        version,
        repository: { url: "https://github.com/acme/srv", source: "github" },
        packages: [
          {
            registryType: "npm",
            registryBaseUrl: "https://registry.npmjs.org",
            identifier: "@acme/srv",
            version,
            transport: { type: "stdio" },
          },
        ],
      }),
    });
    env = new Env({ repositories: ["acme/srv"] });
    env.github.add({ full_name: "acme/srv", stars: 10, files: server("1.0.0") });
    env.github.repos.update("acme/srv", { files: server("1.1.0") });
    writeFileSync(policyPath(), `allow:\n  - repo: acme/srv\n    commit: ${headOf(server("1.0.0"))}\n`);
    published(await refresh());
    const { url } = env.serve();
    const plugin = (await get(url, "/api/v1/plugins/acme/srv?include=install")).body.data.plugin;
    const lines = JSON.stringify(plugin.install);
    expect(lines).toContain("@acme/srv@1.0.0");
    expect(lines).not.toContain("1.1.0");
    const servers = (await get(url, "/v0.1/servers")).body.servers;
    expect(servers.map((s: { server: { version: string } }) => s.server.version)).toEqual(["1.0.0"]);
  });

  test("a run reads at most MAX_COMMIT_READS approved commits; the next run reads the rest", async () => {
    const ids = Array.from({ length: MAX_COMMIT_READS + 1 }, (_, i) => `acme/p${i}`);
    env = new Env({ repositories: ids });
    const files = (id: string, n: number) => ({
      ".claude-plugin/plugin.json": json({ name: id.slice(5) }),
      [`commands/c${n}.md`]: "---\ndescription: A command\n---\nHi",
    });
    for (const id of ids) {
      env.github.add({ full_name: id, stars: 10, files: files(id, 1) });
      env.github.repos.update(id, { files: files(id, 2) });
    }
    const entries = ids.map((id) => `  - repo: ${id}\n    commit: ${headOf(files(id, 1))}\n`);
    writeFileSync(policyPath(), `allow:\n${entries.join("")}`);
    const served = () => ids.filter((id) => servedDetails(id)?.contents.commit === headOf(files(id, 1)));
    published(await refresh());
    expect(served()).toHaveLength(MAX_COMMIT_READS);
    published(await refresh());
    expect(served()).toEqual(ids);
  });

  test("without a token the commit is not read, and the rule says why", async () => {
    const first = headOf(FIRST);
    seed(first);
    published(await env.refresh({ policyPath: policyPath(), token: undefined }));
    expect(servedDetails("acme/pinned")).toBeNull();
    const { url } = env.serve();
    expect((await get(url, "/api/v1/listing/acme/pinned")).body.data.policy_rule).toBe(
      `allow repo acme/pinned commit ${first}: not read, reading at a commit needs a token (GITHUB_TOKEN)`,
    );
  });

  test("a read at the commit that fails keeps the plugin out this run without failing it; the next run reads it", async () => {
    const first = headOf(FIRST);
    seed(first);
    env.github.failQueriesHolding = `"${first}:`;
    published(await refresh());
    const { url } = env.serve();
    expect((await get(url, "/api/v1/listing/acme/pinned")).body.data.policy_rule).toBe(
      `allow repo acme/pinned commit ${first}: not read, reading at ${first} failed; it is tried again at the next run`,
    );
    env.github.failQueriesHolding = null;
    published(await refresh());
    expect(servedDetails("acme/pinned")?.contents.commit).toBe(first);
  });

  test("a commit the platform does not know is refused with the reason, and the plugin is not served", async () => {
    const unknown = "f".repeat(40);
    seed(unknown);
    published(await refresh());
    expect(servedDetails("acme/pinned")).toBeNull();
    const { url } = env.serve();
    const listing = (await get(url, "/api/v1/listing/acme/pinned")).body.data;
    const rule = `allow repo acme/pinned commit ${unknown}: not read, the platform does not know commit ${unknown}`;
    expect([listing.status, listing.reason, listing.policy_rule]).toEqual(["rejected", "policy", rule]);
    const listed = await review();
    expect(listed.out).toContain(`kept out  acme/pinned  ${rule}`);
    // Re-applied without fetching, the refusal still says why.
    expect((await review("apply")).code).toBe(0);
    expect((await review()).out).toContain(`kept out  acme/pinned  ${rule}`);
  });
});

describe("every follow-up round of a reading at an approved commit", () => {
  test("reads that commit: a marketplace plugin's listed folder as it was, not as the head holds it", async () => {
    const kit = (command: string) => ({
      ".claude-plugin/marketplace.json": json({
        name: "kit-market",
        owner: { name: "acme" },
        plugins: [{ name: "kit", source: "./plugins/kit", description: "A kit" }],
      }),
      "plugins/kit/.claude-plugin/plugin.json": json({ name: "kit", commands: ["./extra"] }),
      [`plugins/kit/extra/${command}.md`]: `---\ndescription: The ${command} command\n---\nBody`,
    });
    const [first, second] = [kit("old"), kit("new")];
    env = new Env({ repositories: ["acme/kit"] });
    env.github.add({ full_name: "acme/kit", stars: 10, files: first });
    env.github.repos.update("acme/kit", { files: second });
    writeFileSync(policyPath(), `allow:\n  - repo: acme/kit\n    commit: ${headOf(first)}\n`);
    published(await refresh());
    const { url } = env.serve();
    const plugin = (await get(url, "/api/v1/plugins/acme/kit?include=contents")).body.data.plugin;
    expect(plugin.contents.commit).toBe(headOf(first));
    expect(plugin.contents.plugins[0].contents.commands).toEqual(["old"]);
    expect(plugin.contents.commands).toEqual(["old"]);
  });
});
