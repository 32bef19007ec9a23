/**
 * The discovery rules (db/discovery.json): where candidates come from (repository searches, code
 * searches, marketplace manifests, curated lists, a list of repositories) and what counts as
 * evidence that a candidate is a plugin. Data, not code; checked here against a schema.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { REPO_ID_PATTERN } from "../upstream/gate";

const Note = Type.String({ minLength: 1, description: "why the rule exists: what it finds" });
const RepoId = Type.String({ pattern: REPO_ID_PATTERN });
const Query = Type.String({ minLength: 1, pattern: "\\S" });
/** New repositories without evidence of their own a source the editors named may vouch for per run. */
const Vouches = Type.Integer({ minimum: 0 });

const Rules = Type.Object({
  description: Type.Optional(Type.String()),
  fullEveryDays: Type.Number({ exclusiveMinimum: 0 }),
  evidence: Type.Object({
    note: Type.Optional(Type.String()),
    /** A candidate with one of these topics is a plugin. */
    topics: Type.Array(Type.String({ pattern: "^[a-z0-9][a-z0-9-]*$" })),
    /** A candidate holding one of these files at HEAD (with `contains` in it, when given) is a plugin. */
    files: Type.Array(
      Type.Object({
        path: Type.String({ pattern: '^[^/\\s][^\\s"\\\\]*$' }),
        contains: Type.Optional(Type.String({ minLength: 1 })),
        note: Note,
      }),
    ),
    /** A candidate whose package file names one of these dependencies (an MCP SDK) is a plugin. */
    dependencies: Type.Array(
      Type.Object({
        file: Type.Union(
          ["package.json", "pyproject.toml", "requirements.txt", "go.mod", "Cargo.toml"].map((f) => Type.Literal(f)),
        ),
        name: Type.String({ minLength: 1, maxLength: 214 }),
        note: Note,
      }),
    ),
    /** A candidate with one of these folders (`skills` holding `<name>/SKILL.md`, `.claude/commands` holding Markdown) is a plugin. */
    folders: Type.Array(
      Type.Object({
        path: Type.Union(["skills", ".claude/commands", ".claude/agents"].map((f) => Type.Literal(f))),
        note: Note,
      }),
    ),
  }),
  /** Repository searches, e.g. `topic:claude-code-plugin` or `"mcp server" in:name,description`. */
  searches: Type.Array(Type.Object({ query: Query, note: Note })),
  /** Code searches whose hits name plugin repositories, e.g. `filename:marketplace.json path:.claude-plugin`. */
  code: Type.Array(Type.Object({ query: Query, note: Note })),
  /**
   * Repositories whose `.claude-plugin/marketplace.json` lists plugins: each listed one is a
   * candidate, vouched for (evidence) up to `vouches` new ones per run without evidence of their own.
   */
  marketplaces: Type.Array(Type.Object({ repository: RepoId, note: Note, vouches: Type.Optional(Vouches) })),
  /** Curated lists (Markdown of repository links) read through the contents API: each linked one is vouched for likewise. */
  lists: Type.Array(
    Type.Object({
      repository: RepoId,
      path: Type.String({ minLength: 1 }),
      note: Note,
      vouches: Type.Optional(Vouches),
    }),
  ),
  /** `owner/repo` ids included whatever the searches say. */
  repositories: Type.Array(RepoId),
});

export type DiscoveryRules = Static<typeof Rules>;
export type SearchRule = DiscoveryRules["searches"][number];

/** Qualifiers the refresher adds itself; a rule that sets them would fight the window or size splitting. */
const RESERVED_REPO = /\b(created|pushed):/i;
const RESERVED_CODE = /\bsize:/i;

/** The key a rule's state and counts go under. */
export const ruleKey = {
  search: (query: string) => `search ${query}`,
  code: (query: string) => `code ${query}`,
  marketplace: (repository: string) => `marketplace ${repository}`,
  list: (repository: string, path: string) => `list ${repository}/${path}`,
  repositories: "repositories",
  /** The official MCP registry at `url`. */
  registry: (url: string) => `registry ${url}`,
  /** Marketplace manifests met while fetching, followed to the plugins they list. */
  followed: "followed marketplace manifests",
  /** One such manifest, as the source that vouches for its owner's repositories. */
  followedFrom: (repository: string) => `followed ${repository}`,
};

/** Reads and checks `discovery.json` in `dir`. */
export function loadDiscoveryRules(dir: string): DiscoveryRules {
  const file = join(dir, "discovery.json");
  const raw: unknown = JSON.parse(readFileSync(file, "utf8"));
  const defaults = {
    fullEveryDays: 7,
    evidence: { topics: [], files: [], dependencies: [], folders: [] },
    searches: [],
    code: [],
    marketplaces: [],
    lists: [],
    repositories: [],
  };
  const merged = { ...defaults, ...(raw as object) };
  merged.evidence = { ...defaults.evidence, ...merged.evidence };
  const error = Value.Errors(Rules, merged).First();
  if (error) throw new Error(`${file}: ${error.path || "/"} ${error.message}`);
  const rules = merged as DiscoveryRules;
  for (const r of rules.searches) {
    if (RESERVED_REPO.test(r.query)) throw new Error(`${file}: "${r.query}" must not set created: or pushed:`);
  }
  for (const r of rules.code) {
    if (RESERVED_CODE.test(r.query)) throw new Error(`${file}: "${r.query}" must not set size:`);
  }
  return rules;
}
