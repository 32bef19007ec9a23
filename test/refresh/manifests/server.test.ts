/**
 * server.json of every published schema version: 2025-07-09 (snake_case) and 2025-09-16 on
 * (camelCase). Package and runtime arguments fill in values and defaults; a required value nobody
 * gave is a `<NAME>` placeholder; a secret is never filled in. Expectations follow the MCP
 * registry's server.json schemas and its rules for arguments.
 */
import { describe, expect, test } from "bun:test";
import { commands, json, readRepo } from "./read";

const ID = "acme/weather";
const at = (version: string) => `https://static.modelcontextprotocol.io/schemas/${version}/server.schema.json`;
const server = (version: string, fields: Record<string, unknown>) => ({
  "server.json": json({
    $schema: at(version),
    name: "io.github.acme/weather",
    description: "Weather",
    version: "1.0.0",
    repository: { url: "https://github.com/acme/weather", source: "github" },
    ...fields,
  }),
});

describe("server.json schema versions", () => {
  test("2025-07-09 snake_case: registry_type, registry_base_url, environment_variables, is_required, is_secret", () => {
    const read = readRepo(
      server("2025-07-09", {
        packages: [
          {
            registry_type: "npm",
            registry_base_url: "https://registry.npmjs.org",
            identifier: "weather-mcp",
            version: "2.9.4",
            runtime_hint: "npx",
            transport: { type: "stdio" },
            environment_variables: [
              { name: "WEATHER_KEY", is_required: true, is_secret: true, default: "sk-never-shown" },
              { name: "UNITS", is_required: true, default: "metric" },
              { name: "VERBOSE", is_required: false },
            ],
          },
        ],
      }),
      ID,
    );
    expect(read.refused).toEqual({});
    expect(commands(read)).toEqual([
      "claude mcp add weather --env WEATHER_KEY=YOUR_WEATHER_KEY --env UNITS=metric -- npx -y weather-mcp@2.9.4",
    ]);
    expect(read.details!.install[0]!.env).toEqual([
      { name: "WEATHER_KEY", secret: true, required: true },
      { name: "UNITS", secret: false, required: true },
      { name: "VERBOSE", secret: false, required: false },
    ]);
    expect(read.details!.install[1]!.config).toEqual({
      mcpServers: {
        weather: {
          command: "npx",
          args: ["-y", "weather-mcp@2.9.4"],
          env: { WEATHER_KEY: "<WEATHER_KEY>", UNITS: "metric" },
        },
      },
    });
    expect(JSON.stringify(read.details)).not.toContain("sk-never-shown");
  });

  test("camelCase with package and runtime arguments: values, defaults, placeholders, optional ones left out", () => {
    const read = readRepo(
      server("2025-12-11", {
        packages: [
          {
            registryType: "pypi",
            identifier: "weather-server",
            version: "1.5.3",
            runtimeHint: "uvx",
            transport: { type: "stdio" },
            runtimeArguments: [{ type: "named", name: "-p", value: "3.13" }],
            packageArguments: [
              { type: "positional", value: "serve" },
              { type: "positional", valueHint: "data_dir", isRequired: true },
              { type: "named", name: "--port", default: "8080" },
              { type: "named", name: "--token", isRequired: true, isSecret: true },
              { type: "named", name: "--region", isRequired: false },
              { type: "named", name: "--verbose", format: "boolean" },
              {
                type: "named",
                name: "--endpoint",
                value: "https://{host}/v1",
                variables: { host: { isRequired: true, default: "api.weather.example" } },
              },
              { type: "named", name: "--api", value: "KEY={key}", variables: { key: { isSecret: true } } },
              // An optional argument with a template its author left unfilled is left out.
              { type: "named", name: "--storage", value: "{STORAGE_PATH}" },
            ],
          },
        ],
      }),
      ID,
    );
    expect(read.refused).toEqual({});
    expect(commands(read)).toEqual([
      "claude mcp add weather -- uvx -p 3.13 weather-server==1.5.3 serve YOUR_DATA_DIR --port 8080 --token YOUR_TOKEN " +
        "--endpoint https://api.weather.example/v1",
    ]);
  });

  test("a remote endpoint and an OCI image with runtime arguments", () => {
    const read = readRepo(
      server("2025-10-17", {
        packages: [
          {
            registryType: "oci",
            identifier: "ghcr.io/acme/weather:1.2.0",
            transport: { type: "stdio" },
            runtimeArguments: [
              {
                type: "named",
                name: "-e",
                value: "REGION={region}",
                variables: { region: { isRequired: true } },
              },
            ],
          },
        ],
        remotes: [{ type: "streamable-http", url: "https://weather.example.com/mcp" }],
      }),
      ID,
    );
    expect(commands(read)).toEqual([
      "claude mcp add weather -- docker run -i --rm -e REGION=YOUR_REGION ghcr.io/acme/weather:1.2.0",
      "claude mcp add --transport http weather https://weather.example.com/mcp",
    ]);
  });
});

describe("what server.json cannot install, and why", () => {
  const refusedFor = (pkg: Record<string, unknown>) =>
    readRepo(server("2025-12-11", { packages: [{ transport: { type: "stdio" }, ...pkg }] }), ID);

  test("each refusal names its reason and offers no command", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ registryType: "npm", identifier: "weather-mcp", version: "^1.0.0" }, "version not pinned"],
      [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the manifest's own template text
        { registryType: "oci", identifier: "ghcr.io/acme/weather:${VERSION}" },
        "image reference is a template the author left unfilled",
      ],
      [{ registryType: "oci", identifier: "ghcr.io/acme/weather:latest" }, "image not pinned or not accepted"],
      [{ registryType: "nuget", identifier: "Acme.Weather", version: "1.0.0" }, "package type not installable"],
      [
        {
          registryType: "npm",
          identifier: "weather-mcp",
          version: "1.0.0",
          packageArguments: [{ type: "named", name: "--host", value: "{host}", isRequired: true }],
        },
        "package argument names a variable it does not define",
      ],
      [
        { registryType: "npm", identifier: "weather-mcp", version: "1.0.0", packageArguments: [{ type: "flag" }] },
        "package argument type unknown",
      ],
    ];
    for (const [pkg, reason] of cases) {
      const read = refusedFor(pkg);
      expect({ reason, refused: read.refused }).toEqual({
        reason,
        refused: { [`manifest server.json: ${reason}`]: 1 },
      });
      expect(commands(read)).toEqual([]);
    }
  });
});
