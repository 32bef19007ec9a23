/**
 * `.claude-plugin/plugin.json`: a name Claude Code loads (non-empty, no spaces; no reserved
 * prefixes in the CLI), and the hooks and servers it declares inline.
 */
import { describe, expect, test } from "bun:test";
import { json, readRepo } from "./read";

const plugin = (fields: Record<string, unknown>) => ({
  ".claude-plugin/plugin.json": json({ version: "1.0.0", ...fields }),
});

describe("plugin.json", () => {
  test("names the CLI accepts, prefixes included, make it a Claude Code plugin", () => {
    for (const name of ["claude-foo", "anthropic-foo", "cc-plugin-foo", "MyPlugin", "my_plugin.v2"]) {
      const read = readRepo(plugin({ name }));
      expect({ name, works: read.details!.works_with, refused: read.refused }).toEqual({
        name,
        works: ["claude-code"],
        refused: {},
      });
    }
  });

  test("a name with spaces or none is refused for that reason", () => {
    expect(readRepo(plugin({ name: "My Plugin" })).refused).toEqual({
      "manifest .claude-plugin/plugin.json: plugin name has spaces, which Claude Code refuses": 1,
    });
    expect(readRepo(plugin({ name: "" })).refused).toEqual({
      "manifest .claude-plugin/plugin.json: plugin has no name": 1,
    });
  });

  test("inline hooks and servers are listed", () => {
    const read = readRepo(
      plugin({
        name: "kit",
        hooks: { hooks: { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "fmt" }] }] } },
        mcpServers: { srv: { command: "node" } },
      }),
    );
    expect(read.details!.contents!.hooks).toEqual(["PostToolUse"]);
    expect(read.details!.contents!.mcp_servers).toEqual(["srv"]);
  });
});
