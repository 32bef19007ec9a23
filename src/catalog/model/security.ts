/**
 * Security signals of a plugin from deps.dev (src/refresh/checks/security/): the OpenSSF Scorecard of its
 * repository, and the advisories and build provenance of the exact package versions its npm and
 * PyPI install lines pin. The stored schema here is the gate every value passes, when the refresh
 * stores it and whenever a record is read back: advisory ids by their known forms, a score from 0
 * to 10, plain dates. Unknown is never shown as good: no answer leaves a field null, never 0 or [].
 */
import { type Static, Type } from "@sinclair/typebox";

/**
 * OSV ids deps.dev names: GitHub advisories (GHSA-xxxx-xxxx-xxxx in GitHub's alphabet), CVEs,
 * the PyPI advisory database, OpenSSF's malicious-package reports, OSV's own.
 */
export const ADVISORY_ID_PATTERN =
  "^(?:GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|CVE-\\d{4}-\\d{4,7}|PYSEC-\\d{4}-\\d{1,7}|MAL-\\d{4}-\\d{1,7}|OSV-\\d{4}-\\d{1,7})$";
export const SCORECARD_DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
const CHECKED_AT_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{3})?Z$";
const PACKAGE_NAME_PATTERN = "^(?:@[A-Za-z0-9._~-]{1,100}/)?[A-Za-z0-9._~-]{1,214}$";
const VERSION_PATTERN = "^[0-9A-Za-z][0-9A-Za-z.+!_-]{0,99}$";
const REPO_PATTERN = "^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$";

/** Advisories kept per package version and per plugin: a version with more is named by the first ones. */
export const MAX_ADVISORIES = 50;
/** Pinned packages checked per plugin. */
export const MAX_SECURITY_PACKAGES = 20;

/** Values of the `advisories=` filter: `none` (pinned packages checked, no advisory), `any` (at least one). */
export const ADVISORY_FILTERS = ["none", "any"] as const;
export type AdvisoryFilter = (typeof ADVISORY_FILTERS)[number];

/** Whether the repository has a Scorecard: `not_scored` is deps.dev's honest "none", never a 0. */
export const SCORECARD_STATES = ["scored", "not_scored", "unknown"] as const;

export const AdvisoryIdsSchema = Type.Array(Type.String({ pattern: ADVISORY_ID_PATTERN }), {
  maxItems: MAX_ADVISORIES,
  uniqueItems: true,
});

export const ScorecardSchema = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 10, description: "The overall score, 0 to 10 (higher is better)." }),
    date: Type.String({ pattern: SCORECARD_DATE_PATTERN, description: "The day the Scorecard was produced." }),
  },
  { additionalProperties: false },
);

export const ProvenanceSchema = Type.Object(
  {
    repository: Type.String({ pattern: REPO_PATTERN }),
    verified: Type.Boolean({ description: "Whether deps.dev verified the attestation's signature." }),
  },
  { additionalProperties: false },
);

export const PackageSecuritySchema = Type.Object(
  {
    system: Type.Union([Type.Literal("npm"), Type.Literal("pypi")]),
    name: Type.String({ pattern: PACKAGE_NAME_PATTERN, maxLength: 320 }),
    version: Type.String({ pattern: VERSION_PATTERN }),
    advisories: Type.Union([AdvisoryIdsSchema, Type.Null()], {
      description: "OSV ids of advisories known to affect this version; null when deps.dev did not answer.",
    }),
    provenance: Type.Union([ProvenanceSchema, Type.Null()], {
      description: "The repository a SLSA build provenance names; null when none is published or unknown.",
    }),
  },
  { additionalProperties: false },
);
export type PackageSecurity = Static<typeof PackageSecuritySchema>;

export const SecuritySchema = Type.Object(
  {
    scorecard: Type.Union([ScorecardSchema, Type.Null()], {
      description: "The repository's OpenSSF Scorecard; null when not scored or unknown (`scorecard_status`).",
    }),
    scorecard_status: Type.Union(SCORECARD_STATES.map((s) => Type.Literal(s))),
    advisories: Type.Union([AdvisoryIdsSchema, Type.Null()], {
      description:
        "Advisories of the pinned package versions together; [] when none is known; null when a pinned " +
        "version was not answered, or none is pinned.",
    }),
    provenance: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        "true: every pinned version has a verified build provenance from this repository; false: one has " +
        "none or one from elsewhere; null: nothing pinned, or not answered.",
    }),
    packages: Type.Array(PackageSecuritySchema, { maxItems: MAX_SECURITY_PACKAGES }),
    checked_at: Type.Union([Type.String({ pattern: CHECKED_AT_PATTERN }), Type.Null()], {
      description: "When the oldest answer used was given; null when none was.",
    }),
  },
  { additionalProperties: false },
);
export type Security = Static<typeof SecuritySchema>;

/** The `advisories=` values a plugin answers to: none when nothing is pinned or an answer is missing. */
export function advisoryFilters(security: Security | undefined): AdvisoryFilter[] {
  if (!security || security.advisories === null || security.packages.length === 0) return [];
  return [security.advisories.length === 0 ? "none" : "any"];
}

/** How many plugins of a snapshot deps.dev covers, by Scorecard state and by what is known of advisories. */
export interface SecurityCoverage {
  scorecard: Record<(typeof SCORECARD_STATES)[number], number>;
  advisories: { none: number; any: number; unknown: number; unpinned: number };
}

export function securityCoverage(all: Iterable<Security | undefined>): SecurityCoverage {
  const c: SecurityCoverage = {
    scorecard: { scored: 0, not_scored: 0, unknown: 0 },
    advisories: { none: 0, any: 0, unknown: 0, unpinned: 0 },
  };
  for (const s of all) {
    c.scorecard[s?.scorecard_status ?? "unknown"]++;
    if (s && s.packages.length === 0) c.advisories.unpinned++;
    else if (!s || s.advisories === null) c.advisories.unknown++;
    else c.advisories[s.advisories.length === 0 ? "none" : "any"]++;
  }
  return c;
}
