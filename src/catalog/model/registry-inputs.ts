/**
 * What the MCP registry API shows of a plugin's server.json beyond its install instructions, as the
 * stored details keep it (details.ts `mcp_registry`): its identity, title and icons, and the words of
 * every input its packages and remotes ask a user for. The refresh reads them
 * (src/refresh/manifests/server-details.ts); src/market/mcp-api/ serves them.
 */
import { type Static, Type } from "@sinclair/typebox";
import { McpRegistrySchema } from "./mcp-identity";

/** The formats server.json gives an input (the MCP registry's `Input.format`). */
export const INPUT_FORMATS = ["string", "number", "boolean", "filepath"] as const;

/**
 * One value a user gives an MCP server, with the words server.json gave to ask for it, each
 * cleaned like any upstream text: an environment variable (`name`), a `<NAME>` placeholder of an
 * argument (`name` without the brackets) or a remote's header. `default` and `choices` are kept
 * only as server.json wrote them (never for a secret); 300 characters as the reader counts them
 * (code points), up to 600 UTF-16 units.
 */
export const McpInputSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$" }),
    secret: Type.Boolean(),
    required: Type.Boolean(),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 600 })),
    default: Type.Optional(Type.String({ maxLength: 600 })),
    choices: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 600 }), { maxItems: 50 })),
    format: Type.Optional(Type.Union(INPUT_FORMATS.map((f) => Type.Literal(f)))),
  },
  { additionalProperties: false },
);
export type McpInput = Static<typeof McpInputSchema>;

/** The inputs of one server.json package the gate accepted, known by the package its instructions run. */
export const McpPackageInputsSchema = Type.Object(
  {
    kind: Type.Union(["npm", "pypi", "oci"].map((k) => Type.Literal(k))),
    /** The package name (npm, PyPI) or the image with its tag or digest (OCI), as the instructions run it. */
    identifier: Type.String({ minLength: 1, maxLength: 300 }),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    env: Type.Array(McpInputSchema, { maxItems: 50 }),
    /** The `<NAME>` placeholders its arguments hold, in order. */
    arguments: Type.Array(McpInputSchema, { maxItems: 100 }),
  },
  { additionalProperties: false },
);
export type McpPackageInputs = Static<typeof McpPackageInputsSchema>;

/** The optional headers of one server.json remote (a required one refuses the remote). */
export const McpRemoteInputsSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 500, pattern: "^https://" }),
    headers: Type.Array(McpInputSchema, { maxItems: 50 }),
  },
  { additionalProperties: false },
);

/** An icon of server.json (the registry's `Icon`): an https address at a public host, at most 255 characters. */
export const McpIconSchema = Type.Object(
  {
    src: Type.String({ minLength: 9, maxLength: 255, pattern: "^https://" }),
    mime_type: Type.Optional(
      Type.Union(["image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"].map((m) => Type.Literal(m))),
    ),
    sizes: Type.Optional(Type.Array(Type.String({ pattern: "^(?:\\d{1,5}x\\d{1,5}|any)$" }), { maxItems: 10 })),
    theme: Type.Optional(Type.Union([Type.Literal("light"), Type.Literal("dark")])),
  },
  { additionalProperties: false },
);
export type McpIcon = Static<typeof McpIconSchema>;

/**
 * server.json's identity (name, version) and what the MCP registry API shows of it beyond the
 * install instructions: its title, icons, and the words of every input its packages and remotes
 * ask for. All but the identity are absent from a record read before they were kept.
 */
export const McpRegistryDetailsSchema = Type.Object(
  {
    ...McpRegistrySchema.properties,
    // 100 characters as the reader counts them (code points): up to 200 UTF-16 units.
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    icons: Type.Optional(Type.Array(McpIconSchema, { maxItems: 10 })),
    packages: Type.Optional(Type.Array(McpPackageInputsSchema, { maxItems: 10 })),
    remotes: Type.Optional(Type.Array(McpRemoteInputsSchema, { maxItems: 10 })),
    /**
     * The official MCP registry lists this name with this repository's URL: it verified the name's
     * namespace (a domain, an `io.github.` account) for its publisher, so the name is kept as it is
     * in `/v0.1/servers`. Absent when the refresh never saw it listed so.
     */
    registry_listed: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
export type McpRegistryDetails = Static<typeof McpRegistryDetailsSchema>;
