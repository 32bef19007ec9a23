/**
 * The bodies of the MCP registry API as this service sends them, as TypeBox schemas for
 * /openapi.json: the subset of the registry's `ServerList` and `ServerResponse` (API version
 * 2025-12-01, server schema 2025-12-11) that the entries use, with the same names and bounds.
 */
import { Type as t } from "@sinclair/typebox";
import { MCP_SERVER_NAME } from "../../catalog/model/mcp-identity";
import { MAX_DESCRIPTION, OFFICIAL_META } from "./server-entry";

const uri = (description: string) => t.String({ format: "uri", description });

const EnvSchema = t.Object({
  name: t.String({ description: "The variable's name." }),
  isRequired: t.Boolean(),
  isSecret: t.Boolean(),
});

const PackageSchema = t.Object(
  {
    registryType: t.String({ enum: ["npm", "pypi", "oci"], description: "Where the package is published." }),
    registryBaseUrl: t.Optional(uri("The public registry (npm and PyPI).")),
    identifier: t.String({ description: "The package name, or the OCI image reference with its tag or digest." }),
    version: t.Optional(t.String({ minLength: 1, description: "The exact version (npm, PyPI)." })),
    transport: t.Object({ type: t.Literal("stdio") }),
    environmentVariables: t.Optional(t.Array(EnvSchema)),
  },
  { description: "An installable package, as the repository's server.json names it." },
);

const RemoteSchema = t.Object(
  {
    type: t.String({ enum: ["streamable-http", "sse"] }),
    url: t.String({ pattern: "^https://[^\\s]+$", description: "The https endpoint." }),
  },
  { description: "A remote server the repository's server.json names." },
);

export const ServerDetailSchema = t.Object(
  {
    $schema: uri("The server schema the entry follows."),
    name: t.String({
      minLength: 3,
      maxLength: 200,
      pattern: MCP_SERVER_NAME.replace(/\{1,100\}/g, "+"),
      description:
        "The name server.json states, or `<operator namespace>/<owner>-<repo>` (BASE_URL's host reversed) when " +
        "it states none the catalog can keep.",
    }),
    description: t.String({ minLength: 1, maxLength: MAX_DESCRIPTION, description: "The repository's description." }),
    version: t.String({ maxLength: 255, description: "An exact version: server.json's, else the package's." }),
    repository: t.Object({ url: uri("The repository."), source: t.Literal("github"), id: t.Optional(t.String()) }),
    websiteUrl: t.Optional(uri("The repository's https homepage.")),
    packages: t.Optional(t.Array(PackageSchema)),
    remotes: t.Optional(t.Array(RemoteSchema)),
  },
  { description: "A server as the registry's `ServerDetail` describes it." },
);

const date = (description: string) => t.String({ format: "date-time", description });

export const ServerResponseSchema = t.Object(
  {
    server: ServerDetailSchema,
    _meta: t.Object(
      {
        [OFFICIAL_META]: t.Object(
          {
            status: t.String({ enum: ["active", "deprecated", "deleted"] }),
            statusMessage: t.Optional(t.String({ maxLength: 500 })),
            publishedAt: date("When the catalog first listed it."),
            updatedAt: date("When its catalog entry last changed."),
            isLatest: t.Literal(true, { description: "One version per server: always the latest." }),
          },
          { additionalProperties: false },
        ),
      },
      {
        additionalProperties: true,
        description:
          "Registry metadata; the catalog's own facts (stars, flags, categories, plugin page, listing) under " +
          "`<operator namespace>/catalog`.",
      },
    ),
  },
  { description: "One server with the registry's metadata (`ServerResponse`)." },
);

export const ServerListSchema = t.Object(
  {
    servers: t.Array(ServerResponseSchema),
    metadata: t.Object({
      nextCursor: t.Optional(t.String({ description: "Absent on the last page." })),
      count: t.Integer({ minimum: 0, description: "Servers in this page." }),
    }),
  },
  { description: "A page of servers (`ServerList`)." },
);
