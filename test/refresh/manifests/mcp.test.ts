/** `.mcp.json` in both forms Claude Code loads: the `mcpServers` wrapper and the plugin form's top-level entries. */
import { describe, expect, test } from "bun:test";
import { json, readRepo } from "./read";

const names = (files: Record<string, string>) => readRepo(files).details!.contents?.mcp_servers ?? [];

describe(".mcp.json", () => {
  test("the wrapper form names its servers", () => {
    const file = json({
      mcpServers: { db: { command: "node", args: ["server.js"] }, web: { type: "http", url: "https://x.example/mcp" } },
    });
    expect(names({ ".mcp.json": file })).toEqual(["db", "web"]);
  });

  test("the plugin form, servers at the top level, names them too", () => {
    const file = json({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's own template text
      db: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/server.js"] },
      web: { type: "sse", url: "https://x.example/sse" },
    });
    expect(names({ ".mcp.json": file })).toEqual(["db", "web"]);
  });

  test("an object of neither form is counted, and names nothing", () => {
    const read = readRepo({ ".mcp.json": json({ version: 2, servers: ["db"] }) });
    expect(read.refused).toEqual({ "manifest .mcp.json: neither mcpServers nor server entries": 1 });
    expect(read.details!.contents).toBeNull();
  });
});
