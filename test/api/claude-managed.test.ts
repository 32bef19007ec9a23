/**
 * The managed settings a policy's catalog serves, judged by the real Claude Code client offline:
 * given them as its policy tier (`--managed-settings <json>`, the form a spawning parent passes;
 * deployed, the same JSON is /etc/claude-code/managed-settings.json), it adds the catalog's own
 * marketplace and refuses any other, and adds the MCP server the catalog admits and no other.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Install, noDetails } from "../../src/catalog/model/details";
import { parsePolicy } from "../../src/catalog/model/policy-file";
import { withPolicy } from "../../src/catalog/snapshot/policy-apply";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { claude } from "../claude-cli";
import {
  CATEGORY_IDS,
  marketplacePlugin,
  plugin,
  snapshotInput,
  startServer,
  type TestServer,
  tempDir,
} from "../helpers";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const npm = (pkg: string): Install => ({
  harness: "mcp",
  kind: "npm",
  config: { mcpServers: { srv: { command: "npx", args: ["-y", pkg] } } },
  env: [],
  from: "server.json",
});
let held: TestServer;
let other: TestServer;
let root: string;
let cleanup: () => void;

beforeAll(() => {
  const temp = tempDir();
  cleanup = temp.cleanup;
  const path = join(temp.dir, "catalog.sqlite");
  const records = [
    marketplacePlugin("acme/market", [["tool", "./plugins/tool"]], { stars: 50, license: "MIT" }, SHA),
    marketplacePlugin("other/market", [["thing", "./"]], { stars: 40, license: "MIT" }, SHA),
    plugin("acme/srv", { details: { ...noDetails(), works_with: ["mcp"], install: [npm("@acme/srv@1.0.0")] } }),
    plugin("other/srv", { details: { ...noDetails(), works_with: ["mcp"], install: [npm("@other/srv@1.0.0")] } }),
  ];
  const policy = parsePolicy("allow:\n  - owner: acme\n", "policy.yml", CATEGORY_IDS);
  publishSnapshot(path, withPolicy(snapshotInput(records), policy));
  held = startServer(null, { path });
  other = startServer(snapshotInput(records));
  root = mkdtempSync(join(tmpdir(), "claude-managed-"));
});
afterAll(async () => {
  await held.stop();
  await other.stop();
  cleanup();
  rmSync(root, { recursive: true, force: true });
});

describe("Claude Code held to the catalog's managed settings", () => {
  test("adds the catalog's own marketplace and refuses another", async () => {
    const settings = await held.json("/market/claude/managed-settings.json");
    // The settings name BASE_URL, where a deployment serves; here the test server's own address.
    const flag = ["--managed-settings", JSON.stringify(settings).replaceAll("http://catalog.test", held.url)];
    const own = await claude(root, [
      ...flag,
      "plugin",
      "marketplace",
      "add",
      `${held.url}/market/claude/marketplace.json`,
    ]);
    const elsewhere = await claude(root, [
      ...flag,
      "plugin",
      "marketplace",
      "add",
      `${other.url}/market/claude/marketplace.json`,
    ]);
    expect(own).toMatchObject({ code: 0 });
    expect(own.out).toContain("Successfully added marketplace: plugin-catalog");
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.out).toContain(
      `${other.url}/market/claude/marketplace.json' (127.0.0.1) is blocked by enterprise policy`,
    );
  }, 60_000);

  test("lets the MCP server the catalog admits be added, exactly as its install line runs it, and no other", async () => {
    const settings = await held.json("/market/claude/managed-settings.json");
    const flag = ["--managed-settings", JSON.stringify(settings)];
    const home = mkdtempSync(join(root, "home-"));
    const admitted = await claude(root, [...flag, "mcp", "add", "srv", "--", "npx", "-y", "@acme/srv@1.0.0"], home);
    // other/srv is in the public catalog, not in this one: its command is refused.
    const stranger = await claude(root, [...flag, "mcp", "add", "other", "--", "npx", "-y", "@other/srv@1.0.0"], home);
    expect(settings.allowedMcpServers).toEqual([{ serverCommand: ["npx", "-y", "@acme/srv@1.0.0"] }]);
    expect(admitted.code).toBe(0);
    expect(admitted.out).toContain("Added stdio MCP server srv");
    expect(stranger.code).toBe(1);
    expect(stranger.out).toContain('Cannot add MCP server "other": not allowed by enterprise policy');
  }, 60_000);
});
