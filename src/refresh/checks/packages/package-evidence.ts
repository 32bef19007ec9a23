/** What a registry says about one package version, reduced to the facts the ownership check needs. */
import { type Static, Type } from "@sinclair/typebox";

/** The forms `githubRepo` and `mcpNameOwner` produce: a cache file read back holds nothing else. */
const Repo = Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$" });
const Owner = Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9-]{0,38}$" });
/** The form `mcpNameOf` produces: `io.github.<owner>/<name>`. */
const McpName = Type.String({ pattern: "^io\\.github\\.[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$" });

export const EvidenceSchema = Type.Object(
  {
    /** The version asked or found; for an image, its tag or `sha256:` digest. */
    version: Type.String({ pattern: "^[0-9A-Za-z.+!:_-]{1,130}$" }),
    /** Repositories the metadata names (`owner/name`, from its repository field or project URLs). */
    repositories: Type.Array(Repo, { maxItems: 20 }),
    /** The GitHub owner of the MCP registry name the package carries (`mcpName`, `mcp-name:`). */
    mcpOwner: Type.Union([Owner, Type.Null()]),
    /** That MCP registry name in full, compared with the name the repository's server.json states. */
    mcpName: Type.Optional(Type.Union([McpName, Type.Null()])),
    /**
     * The repository a signed build provenance names (npm attestations, PyPI's Integrity API for a
     * GitHub Trusted Publisher); null when none is published.
     */
    provenance: Type.Union([Repo, Type.Null()]),
  },
  { additionalProperties: false },
);
export type Evidence = Static<typeof EvidenceSchema>;

/** `partial`: an optional part (npm or PyPI provenance) could not be read; used this run, never cached. */
export type Lookup =
  | { kind: "found"; evidence: Evidence; partial?: true }
  | { kind: "missing" }
  | { kind: "unknown"; reason: string };

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
