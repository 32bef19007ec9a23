/**
 * Codex's and Cursor's plugin manifests read into the same contents and `works_with`: a plugin
 * manifest that names itself, a marketplace with a name and named plugins; a broken one refused
 * with its reason. No install line is written for them.
 */
import { describe, expect, test } from "bun:test";
import { commands, json, readRepo } from "./read";

describe("other harnesses' manifests", () => {
  test("a Codex plugin and a Cursor marketplace give their harnesses and servers, and no install line", () => {
    const read = readRepo({
      ".codex-plugin/plugin.json": json({
        name: "acme-codex",
        version: "1.0.0",
        mcpServers: { "acme-db": { command: "npx", args: ["acme-db"] } },
      }),
      ".cursor-plugin/marketplace.json": json({
        name: "acme-cursor",
        owner: { name: "Acme" },
        plugins: [{ name: "acme-rules", source: "./plugins/acme-rules" }],
      }),
    });
    expect(read.details!.works_with.sort()).toEqual(["codex", "cursor"]);
    expect(read.details!.contents!.mcp_servers).toEqual(["acme-db"]);
    expect(commands(read)).toEqual([]);
    expect(read.refused).toEqual({});
  });

  test("a Codex marketplace and a Cursor plugin; broken ones are refused with the reason and give nothing", () => {
    const good = readRepo({
      ".agents/plugins/marketplace.json": json({
        name: "acme-codex-market",
        plugins: [{ name: "note-taker", source: { source: "local", path: "./plugins/note-taker" } }],
      }),
      ".cursor-plugin/plugin.json": json({ name: "acme-cursor" }),
    });
    expect(good.details!.works_with.sort()).toEqual(["codex", "cursor"]);
    const bad = readRepo({
      ".agents/plugins/marketplace.json": json({ name: "no-list" }),
      ".cursor-plugin/plugin.json": json({ name: "has spaces" }),
      ".codex-plugin/plugin.json": "{ not json",
    });
    expect(bad.details?.works_with ?? []).toEqual([]);
    expect(bad.refused).toEqual({
      "manifest .agents/plugins/marketplace.json: no plugin list": 1,
      "manifest .cursor-plugin/plugin.json: name not accepted": 1,
      "manifest .codex-plugin/plugin.json: invalid JSON": 1,
    });
  });
});
