/**
 * The bodies of the MCP registry API as this service sends them, as TypeBox schemas for
 * /openapi.json: the subset of the registry's `ServerList` and `ServerResponse` (API version
 * 2025-12-01, server schema 2025-12-11) that the entries use, with the same names and bounds.
 */
import { Type as t } from "@sinclair/typebox";
import { MCP_SERVER_NAME } from "../../catalog/model/mcp-identity";
import { INPUT_FORMATS } from "../../catalog/model/registry-inputs";
import { MAX_DESCRIPTION, MAX_TITLE, OFFICIAL_META, PUBLISHER_META } from "./server-entry";

const uri = (description: string) => t.String({ format: "uri", description });

/** What a client asks a user for an input with: server.json's words, or a description written in. */
const promptFields = {
  description: t.String({
    minLength: 1,
    description:
      "What server.json says of the input (cleaned, at most 300 characters), or `Value for <NAME>` when it says " +
      "nothing: every input has one, so a client that prompts only for a described input prompts for each.",
  }),
  isRequired: t.Boolean(),
  isSecret: t.Boolean({ description: "A secret: never given a default or choices." }),
  default: t.Optional(
    t.String({ description: "server.json's default (or fixed value), as written; never a secret's." }),
  ),
  choices: t.Optional(t.Array(t.String(), { description: "The values server.json allows, as written." })),
  format: t.Optional(t.String({ enum: [...INPUT_FORMATS] })),
};

const InputSchema = t.Object(promptFields, { description: "A value the user gives (the registry's `Input`)." });

const KeyValueSchema = t.Object(
  { name: t.String({ description: "The variable's or header's name." }), ...promptFields },
  { description: "An environment variable or a header (the registry's `KeyValueInput`)." },
);

const ArgumentSchema = t.Object(
  {
    type: t.Literal("positional"),
    value: t.String({
      minLength: 1,
      description:
        "One word of the command as the catalog's instruction runs it; each `{NAME}` stands for the value of the " +
        "variable `NAME`, which the user gives.",
    }),
    valueHint: t.Optional(t.String({ description: "The variable's name, when the word is that one value." })),
    variables: t.Optional(t.Record(t.String(), InputSchema)),
  },
  { description: "An argument (the registry's `PositionalArgument`), one word of the command line." },
);

const PackageSchema = t.Object(
  {
    registryType: t.String({ enum: ["npm", "pypi", "oci"], description: "Where the package is published." }),
    registryBaseUrl: t.Optional(uri("The public registry (npm and PyPI).")),
    identifier: t.String({ description: "The package name, or the OCI image reference with its tag or digest." }),
    version: t.Optional(t.String({ minLength: 1, description: "The exact version (npm, PyPI)." })),
    runtimeHint: t.Optional(
      t.String({ enum: ["npx", "uvx", "docker"], description: "The runtime, given with its arguments." }),
    ),
    transport: t.Object({ type: t.Literal("stdio") }),
    runtimeArguments: t.Optional(
      t.Array(ArgumentSchema, {
        description: "The words before the package (docker's after `run -i --rm` and the `-e NAME` of its variables).",
      }),
    ),
    packageArguments: t.Optional(t.Array(ArgumentSchema, { description: "The words after the package." })),
    environmentVariables: t.Optional(t.Array(KeyValueSchema)),
  },
  { description: "An installable package, as the repository's server.json names it." },
);

const RemoteSchema = t.Object(
  {
    type: t.String({ enum: ["streamable-http", "sse"] }),
    url: t.String({ pattern: "^https://[^\\s]+$", description: "The https endpoint." }),
    headers: t.Optional(t.Array(KeyValueSchema, { description: "The optional headers server.json names." })),
  },
  { description: "A remote server the repository's server.json names." },
);

const IconSchema = t.Object(
  {
    src: t.String({
      format: "uri",
      maxLength: 255,
      pattern: "^https://",
      description: "An https address at a public host.",
    }),
    mimeType: t.Optional(t.String({ enum: ["image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"] })),
    sizes: t.Optional(t.Array(t.String({ pattern: "^(\\d+x\\d+|any)$" }))),
    theme: t.Optional(t.String({ enum: ["light", "dark"] })),
  },
  { description: "An icon server.json names (the registry's `Icon`)." },
);

const GithubSchema = t.Object(
  {
    name: t.String({ description: "The repository's name." }),
    nameWithOwner: t.String({ description: "`<owner>/<repo>`." }),
    stargazerCount: t.Integer({ minimum: 0, description: "Its stars." }),
    license: t.Optional(t.String({ description: "Its licence, when known." })),
    primaryLanguage: t.Optional(t.String({ description: "Its primary language, when known." })),
    topics: t.Array(t.String(), { description: "Its topics." }),
    pushedAt: t.String({ format: "date-time", description: "Its last push." }),
  },
  { description: "The repository's facts, in the keys VS Code's gallery reads (`IGitHubInfo`)." },
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
    title: t.String({
      minLength: 1,
      maxLength: MAX_TITLE,
      description:
        "server.json's title, else one made from the repository name (`mcp-server-github` → `MCP Server GitHub`).",
    }),
    description: t.String({ minLength: 1, maxLength: MAX_DESCRIPTION, description: "The repository's description." }),
    version: t.String({ maxLength: 255, description: "An exact version: server.json's, else the package's." }),
    repository: t.Object({ url: uri("The repository."), source: t.Literal("github"), id: t.Optional(t.String()) }),
    websiteUrl: t.Optional(uri("The repository's https homepage.")),
    icons: t.Optional(t.Array(IconSchema)),
    packages: t.Optional(t.Array(PackageSchema)),
    remotes: t.Optional(t.Array(RemoteSchema)),
    _meta: t.Object(
      { [PUBLISHER_META]: t.Object({ github: GithubSchema }, { additionalProperties: true }) },
      { additionalProperties: true, description: "Server metadata: the repository's facts a gallery shows." },
    ),
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
