/**
 * The MCP registry API's cost at catalog scale: a synthetic snapshot of N plugins (default
 * 100,000), a fifth of them installable MCP servers (half with a server.json identity), its
 * entries written once, then pages of each kind timed. `bun run bench/registry.ts [N]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { noDetails } from "../src/catalog/model/details";
import { publishSnapshot } from "../src/catalog/snapshot/publish";
import { Snapshot } from "../src/catalog/snapshot/snapshot";
import { RegistryServers } from "../src/market/mcp-api/servers";
import { syntheticInput } from "./synthetic";

const count = Number(process.argv[2] ?? 100_000);
const input = syntheticInput(count);
input.plugins.forEach((p, i) => {
  if (i % 5 !== 0) return;
  const name = p.name.replace(/[^A-Za-z0-9._-]/g, "-");
  const install = {
    harness: "mcp" as const,
    kind: "npm" as const,
    config: { mcpServers: { [name]: { command: "npx", args: ["-y", `${name.toLowerCase()}@1.${i}.0`] } } },
    env: [],
    from: "server.json",
  };
  const owner = p.id.split("/")[0]!;
  const identity = i % 10 === 0 ? { mcp_registry: { name: `io.github.${owner}/${name}`, version: `1.${i}.0` } } : {};
  p.details = { ...noDetails(), works_with: ["mcp"], install: [install], ...identity };
});
const dir = mkdtempSync(join(tmpdir(), "bench-registry-"));
const path = join(dir, "catalog.sqlite");
publishSnapshot(path, input);
const snapshot = Snapshot.open(path);

const time = <T>(label: string, work: () => T): T => {
  const started = performance.now();
  const value = work();
  console.log(`${label}: ${(performance.now() - started).toFixed(1)} ms`);
  return value;
};

const servers = time(`write the entries of ${count} plugins`, () => {
  const writing = RegistryServers.writing(snapshot, "https://plugins.example.org");
  let step = writing.next();
  let slices = 0;
  while (!step.done) {
    slices++;
    step = writing.next();
  }
  console.log(`  ${step.value.entries.length} entries, ${slices} pauses for the event loop`);
  return step.value;
});
const middle = servers.entries[servers.entries.length >> 1]!.name;
time("a page after a cursor (name order)", () =>
  servers.byNameOrder().positions.subarray(servers.position(middle) + 1, 101),
);
time("updated_since order", () => servers.updatedAfter("2000-01-01T00:00:00.000Z").positions.length);
time("a search, first time", () => servers.searched("mcp server").length);
time("the same search again", () => servers.searched("mcp server").length);
snapshot.close();
rmSync(dir, { recursive: true, force: true });
