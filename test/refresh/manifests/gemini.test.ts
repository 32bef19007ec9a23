/** `gemini-extension.json`: the `gemini extensions install` line and the extension's servers. */
import { describe, expect, test } from "bun:test";
import { commands, json, readRepo } from "./read";

describe("gemini-extension.json", () => {
  test("an extension installs from its repository and names its servers", () => {
    const read = readRepo({
      "gemini-extension.json": json({
        name: "weather",
        version: "1.0.0",
        mcpServers: { forecast: { command: "node" } },
      }),
    });
    expect(commands(read)).toEqual(["gemini extensions install https://github.com/acme/repo"]);
    expect(read.details!.works_with).toEqual(["gemini-cli"]);
    expect(read.details!.contents!.mcp_servers).toEqual(["forecast"]);
  });

  test("a name the format forbids is counted, and nothing is offered", () => {
    const read = readRepo({ "gemini-extension.json": json({ name: "my extension", version: "1.0.0" }) });
    expect(read.refused).toEqual({ "manifest gemini-extension.json: name not accepted": 1 });
    expect(commands(read)).toEqual([]);
  });
});
