/**
 * The shape of one install instruction: its harness, kind, command or configuration, the
 * environment it asks for, the file it came from and, for a package, whether the package is
 * proven the repository's own. The rules every stored line obeys are install-rules.ts'.
 */
import { type Static, Type } from "@sinclair/typebox";
import { ENV_NAME_PATTERN, SAFE_COMMAND_PATTERN } from "./install-rules";

/** Harness ids of `works_with`, `install[].harness` and the `harness=` filter. */
export const HARNESSES = ["claude-code", "mcp", "gemini-cli", "agent-skills", "codex", "cursor"] as const;
export type Harness = (typeof HARNESSES)[number];

/** What `package_proof` may say: the kinds of proof, and `unproven`. */
export const PACKAGE_PROOFS = ["provenance", "mcp-registry", "server-json", "ghcr", "unproven"] as const;

export const EnvSchema = Type.Object(
  {
    name: Type.String({ pattern: ENV_NAME_PATTERN }),
    secret: Type.Boolean(),
    required: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const InstallSchema = Type.Object(
  {
    harness: Type.Union(HARNESSES.map((h) => Type.Literal(h))),
    kind: Type.Union(
      ["marketplace", "plugin", "npm", "pypi", "oci", "remote", "skill", "extension"].map((k) => Type.Literal(k)),
    ),
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, pattern: SAFE_COMMAND_PATTERN })),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    env: Type.Array(EnvSchema, { maxItems: 50 }),
    from: Type.String({ minLength: 1, maxLength: 100 }),
    package_verified: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], {
        description:
          "npm, PyPI and OCI lines: whether the package is proven this repository's own (true: see `package_proof`), " +
          "is not (false: never this repository's own; it names another repository or none, or only claims this one: " +
          "`package_proof` `unproven`), or its registry did not answer (null). Absent when the registries were not asked.",
      }),
    ),
    package_note: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Why `package_verified` is what it is: the proof, or why there is none, in words.",
      }),
    ),
    package_proof: Type.Optional(
      Type.Union(
        PACKAGE_PROOFS.map((p) => Type.Literal(p)),
        {
          description:
            "What proves a `package_verified: true` line, each something a stranger publishing a package cannot write: " +
            "`provenance` (signed build provenance, npm's or PyPI's, naming this repository), `mcp-registry` (the official " +
            "MCP registry's record of a namespace it verified for this repository's owner lists the package), `server-json` " +
            "(this repository's server.json names the package and the package's metadata names this repository back, or " +
            "carries server.json's name), `ghcr` (a ghcr.io image under this repository's owner). `unproven` (with " +
            "`package_verified: false`): the package's metadata names this repository, which whoever publishes it may " +
            "write, and nothing proves it. Absent on lines that name another repository or none, or were not checked.",
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Install = Static<typeof InstallSchema>;
