/** Package files: an MCP SDK dependency is evidence, and the package's own name is the server's. */
import { describe, expect, test } from "bun:test";
import { json, readRepo } from "./read";

describe("package files", () => {
  test("a dependency on an MCP SDK names the package as a server", () => {
    const read = readRepo({
      "package.json": json({ name: "@acme/weather-mcp", dependencies: { "@modelcontextprotocol/sdk": "^1.0.0" } }),
    });
    expect(read.details!.works_with).toEqual(["mcp"]);
    expect(read.details!.contents!.mcp_servers).toEqual(["weather-mcp"]);
  });

  test("Python names are compared as pip compares them", () => {
    const read = readRepo({ "requirements.txt": "FastMCP==2.3.0\n", "pyproject.toml": '[project]\nname = "wx"\n' });
    expect(read.details!.works_with).toEqual(["mcp"]);
  });

  test("a broken TOML file is counted", () => {
    expect(readRepo({ "Cargo.toml": "[dependencies\nrmcp = 1" }).refused).toEqual({
      "manifest Cargo.toml: invalid TOML": 1,
    });
  });
});
