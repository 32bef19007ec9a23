/**
 * What the refresh keeps of server.json for the MCP registry API beside the install instructions
 * (details.mcp_registry): the title, the icons that are https at a public host, and the words of
 * every input (environment variables, argument placeholders, a remote's optional headers), each
 * cleaned like any upstream text; never a secret's default. A record stored before they were kept
 * still reads.
 */
import { describe, expect, test } from "bun:test";
import { detailsProblem, noDetails } from "../../../src/catalog/model/details";
import { json, readRepo } from "./read";

const ID = "acme/weather";
const file = (fields: Record<string, unknown>, version = "2025-12-11") => ({
  "server.json": json({
    $schema: `https://static.modelcontextprotocol.io/schemas/${version}/server.schema.json`,
    name: "io.github.acme/weather",
    description: "Weather",
    version: "1.0.0",
    repository: { url: "https://github.com/acme/weather", source: "github" },
    ...fields,
  }),
});

describe("server.json's words for the registry API", () => {
  test("variables and placeholders keep their cleaned words; a secret keeps no default or choices", () => {
    const read = readRepo(
      file({
        title: "Weather\u202E \u0007Forecasts\n for agents",
        packages: [
          {
            registryType: "npm",
            identifier: "weather-mcp",
            version: "2.9.4",
            transport: { type: "stdio" },
            environmentVariables: [
              {
                name: "WEATHER_KEY",
                isRequired: true,
                isSecret: true,
                default: "sk-never-shown",
                choices: ["sk-a", "sk-b"],
                description: "Your key\u0000 from\tthe dashboard",
              },
              { name: "UNITS", isRequired: true, default: "metric", choices: ["metric", "imperial"], format: "string" },
              { name: "MODE", value: "fast" },
              { name: "TEMPLATE", value: "{x}-y" },
              { name: "BAD_DEFAULT", default: "two\nlines" },
              { name: "LONG", description: "x".repeat(400) },
            ],
            packageArguments: [
              { type: "positional", valueHint: "data_dir", isRequired: true, description: "Where data lives" },
              { type: "named", name: "--token", isRequired: true, isSecret: true, format: "string" },
              {
                type: "named",
                name: "--api",
                value: "KEY={key}",
                variables: { key: { isRequired: true, isSecret: true, description: "The key" } },
              },
            ],
          },
        ],
        remotes: [
          {
            type: "streamable-http",
            url: "https://weather.example.com/mcp",
            headers: [
              { name: "X-Key", isSecret: true, default: "never", description: "A key" },
              { name: "bad name", description: "dropped" },
              { name: "X-Mode", value: "on" },
            ],
          },
        ],
      }),
      ID,
    );
    expect(read.refused).toEqual({});
    const registry = read.details!.mcp_registry!;
    expect(registry.name).toBe("io.github.acme/weather");
    expect(registry.title).toBe("Weather Forecasts for agents");
    expect(registry.packages).toEqual([
      {
        kind: "npm",
        identifier: "weather-mcp",
        version: "2.9.4",
        env: [
          { name: "WEATHER_KEY", secret: true, required: true, description: "Your key from the dashboard" },
          {
            name: "UNITS",
            secret: false,
            required: true,
            default: "metric",
            choices: ["metric", "imperial"],
            format: "string",
          },
          { name: "MODE", secret: false, required: false, default: "fast" },
          { name: "TEMPLATE", secret: false, required: false },
          { name: "BAD_DEFAULT", secret: false, required: false },
          { name: "LONG", secret: false, required: false, description: "x".repeat(300) },
        ],
        arguments: [
          { name: "DATA_DIR", secret: false, required: true, description: "Where data lives" },
          { name: "TOKEN", secret: true, required: true, format: "string" },
          { name: "KEY", secret: true, required: true, description: "The key" },
        ],
      },
    ]);
    expect(registry.remotes).toEqual([
      {
        url: "https://weather.example.com/mcp",
        headers: [
          { name: "X-Key", secret: true, required: false, description: "A key" },
          { name: "X-Mode", secret: false, required: false, default: "on" },
        ],
      },
    ]);
    expect(JSON.stringify(read.details)).not.toContain("sk-");
    expect(JSON.stringify(read.details)).not.toContain("never");
    // The instructions are what they were: the words are kept beside them, not in them.
    expect(read.details!.install[0]!.env).toEqual([
      { name: "WEATHER_KEY", secret: true, required: true },
      { name: "UNITS", secret: false, required: true },
      { name: "MODE", secret: false, required: false },
      { name: "TEMPLATE", secret: false, required: false },
      { name: "BAD_DEFAULT", secret: false, required: false },
      { name: "LONG", secret: false, required: false },
    ]);
  });

  test("the snake_case schema reads the same; an OCI package is known by its image", () => {
    const read = readRepo(
      file(
        {
          packages: [
            {
              registry_type: "oci",
              identifier: "ghcr.io/acme/weather",
              version: "1.2.0",
              environment_variables: [{ name: "REGION", is_required: true, description: "The region" }],
            },
          ],
        },
        "2025-07-09",
      ),
      ID,
    );
    expect(read.details!.mcp_registry!.packages).toEqual([
      {
        kind: "oci",
        identifier: "ghcr.io/acme/weather:1.2.0",
        env: [{ name: "REGION", secret: false, required: true, description: "The region" }],
        arguments: [],
      },
    ]);
  });

  test("only https icons at a public host, with a valid type, sizes and theme", () => {
    const read = readRepo(
      file({
        packages: [{ registryType: "npm", identifier: "weather-mcp", version: "2.9.4" }],
        icons: [
          { src: "https://cdn.example.com/a.svg", mimeType: "image/svg+xml", sizes: ["any", "x"], theme: "light" },
          { src: "https://cdn.example.com/b.png", mimeType: "text/html", theme: "blue" },
          { src: "http://cdn.example.com/c.png" },
          { src: "https://10.0.0.1/d.png" },
          { src: "https://localhost/e.png" },
          { src: "https://user:pw@cdn.example.com/f.png" },
          { src: "https://cdn.example.com/g<script>.png" },
          { src: `https://cdn.example.com/${"h".repeat(260)}.png` },
          { src: "data:image/png;base64,AAAA" },
          "https://cdn.example.com/not-an-object.png",
        ],
      }),
      ID,
    );
    expect(read.details!.mcp_registry!.icons).toEqual([
      { src: "https://cdn.example.com/a.svg", mime_type: "image/svg+xml", sizes: ["any"], theme: "light" },
      { src: "https://cdn.example.com/b.png" },
    ]);
  });

  test("a record stored before the words were kept, and one with them, both read", () => {
    const old = { ...noDetails(), mcp_registry: { name: "io.github.acme/weather", version: "1.0.0" } };
    expect(detailsProblem(old)).toBeNull();
    const read = readRepo(
      file({ title: "Weather", packages: [{ registryType: "npm", identifier: "weather-mcp", version: "2.9.4" }] }),
      ID,
    );
    expect(detailsProblem(read.details)).toBeNull();
    expect(read.details!.mcp_registry).toEqual({
      name: "io.github.acme/weather",
      version: "1.0.0",
      title: "Weather",
      packages: [{ kind: "npm", identifier: "weather-mcp", version: "2.9.4", env: [], arguments: [] }],
    });
    // Anything else in the stored form is refused, as every stored field is.
    const extra = { ...old, mcp_registry: { ...old.mcp_registry, unknown: true } };
    expect(detailsProblem(extra)).toContain("mcp_registry");
  });
});
