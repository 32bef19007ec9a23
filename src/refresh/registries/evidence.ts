/** What a registry says about one package version, reduced to the facts the ownership check needs. */
import { type Static, Type } from "@sinclair/typebox";

export const EvidenceSchema = Type.Object(
  {
    version: Type.String({ maxLength: 100 }),
    /** Repositories the metadata names (`owner/name`, from its repository field or project URLs). */
    repositories: Type.Array(Type.String({ maxLength: 140 }), { maxItems: 20 }),
    /** The GitHub owner of the MCP registry name the package carries (`mcpName`, `mcp-name:`). */
    mcpOwner: Type.Union([Type.String({ maxLength: 39 }), Type.Null()]),
    /** The repository a signed build provenance names (npm attestations); null when none is published. */
    provenance: Type.Union([Type.String({ maxLength: 140 }), Type.Null()]),
    /** Whether the package can be run as a command (npm: it declares `bin`). */
    runnable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type Evidence = Static<typeof EvidenceSchema>;

export type Lookup = { kind: "found"; evidence: Evidence } | { kind: "missing" } | { kind: "unknown"; reason: string };

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
