/** The offline job's shares: each MCP server of a depth file counted under the proof its lines could have. */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { proofShares, readCopies } from "../../jobs/proof-shares";
import { noDetails, type PluginDetails } from "../../src/catalog/model/details";

const line = (kind: string, args: string[]) => ({
  harness: "mcp",
  kind,
  config: { mcpServers: { s: { command: args[0], args: args.slice(1) } } },
  env: [],
  from: "server.json",
});

function server(install: unknown[]): { details: PluginDetails } {
  return { details: { ...noDetails(), works_with: ["mcp"], install: install as PluginDetails["install"] } };
}

test("ghcr under the owner, a server.json package, another image, a remote, nothing; non-servers and bad records left out", () => {
  const { servers, counts } = proofShares({
    plugins: {
      "dock/er": server([line("oci", ["docker", "run", "-i", "--rm", "ghcr.io/dock/er:1.0.0"])]),
      "copy/er": server([line("oci", ["docker", "run", "-i", "--rm", "ghcr.io/dock/er:1.0.0"])]),
      "acme/fs": server([line("npm", ["npx", "-y", "@acme/fs@1.0.0"])]),
      "py/co": server([line("pypi", ["uvx", "py-co==1.0.0"])]),
      "far/away": {
        details: {
          ...noDetails(),
          works_with: ["mcp"],
          install: [
            {
              harness: "mcp",
              kind: "remote",
              config: { mcpServers: { s: { type: "http", url: "https://mcp.example.com/x" } } },
              env: [],
              from: "server.json",
            },
          ],
        },
      },
      "bare/server": server([]),
      "a/plugin": { details: noDetails() },
      "bad/record": { details: { install: "no" } },
    },
  });
  expect(servers).toBe(6);
  expect(counts).toEqual({ ghcr: 1, "server-json": 2, "other image": 1, "remote only": 1, "no line": 1 });
});

test("local copies are read by the refresh's reader first: a server.json package, a ghcr image, a plugin that is no server", () => {
  const folder = mkdtempSync(join(tmpdir(), "proof-copies-"));
  const write = (path: string, body: unknown) => {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), typeof body === "string" ? body : JSON.stringify(body));
  };
  const schema = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";
  const serverJson = (name: string, pkg: Record<string, unknown>) => ({
    $schema: schema,
    name,
    description: "A server",
    version: "1.0.0",
    packages: [{ version: "1.0.0", transport: { type: "stdio" }, ...pkg }],
  });
  write("acme/fs/server.json", serverJson("io.github.acme/fs", { registryType: "npm", identifier: "@acme/fs" }));
  write(
    "dock/er/server.json",
    serverJson("io.github.dock/er", { registryType: "oci", identifier: "ghcr.io/dock/er:1.0.0" }),
  );
  write("some/plugin/.claude-plugin/plugin.json", { name: "plugin" });
  try {
    const { servers, counts } = proofShares(readCopies(folder));
    expect(servers).toBe(2);
    expect(counts).toEqual({ ghcr: 1, "server-json": 1, "other image": 0, "remote only": 0, "no line": 0 });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
