/** The offline job's shares: each MCP server of a depth file counted under the proof its lines could have. */
import { expect, test } from "bun:test";
import { proofShares } from "../../jobs/proof-shares";
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
