/**
 * What one source may cost and vouch for in one run. A source (a curated list, a marketplace, a
 * search rule, a marketplace manifest met while fetching) is written by someone else and can grow
 * without bound: each may add a bounded number of new candidates and spend a bounded number of
 * calls, and may vouch for a small number of new repositories that have no evidence of their own.
 * Past a cap the source is truncated, logged with its size and counted in the summary, and the run
 * goes on with what every source found within its caps.
 */
import type { Rejection as Decided } from "../../catalog/model/candidates";
import type { SourceLimits } from "../../settings";

/** Why a candidate was left out, as the summary, the log and catalog/candidates.ts name it. */
export const REJECTION = {
  /** No evidence of its own, and no source with vouches left listed it. */
  noEvidence: "no_evidence",
  /** Its source had already added as many new candidates as it may in one run. */
  overSourceCap: "over_source_cap",
  /** Its sources had already vouched for as many evidence-less repositories as they may in one run. */
  overVouchCap: "over_vouch_cap",
  /** The run's newcomers would have grown the catalog past REFRESH_MAX_GROWTH: all of them wait for review. */
  heldForReview: "held_for_review",
} as const satisfies Record<string, Decided>;
export type Rejection = (typeof REJECTION)[keyof typeof REJECTION];

/**
 * New repositories without evidence of their own that one source may vouch for per run: enough for
 * a small marketplace of one owner's plugins, too few for a listing to flood the catalog. The
 * editors may raise it for a source they named (`vouches` in discovery.json).
 */
export const VOUCH_CAP = 20;
/** New candidates one marketplace manifest met while fetching (not named by the editors) may add per run. */
export const FOLLOWED_MAX_CANDIDATES = 300;
/** New candidates all such manifests together may add per run: at most this many / 100 GraphQL calls. */
export const FOLLOWED_MAX_TOTAL = 3000;

/** A source cut short: what it held (candidates, calls or bytes) and how much of it was used. */
export interface Truncation {
  rule: string;
  cap: "candidates" | "calls" | "bytes";
  size: number;
  kept: number;
}

/** Counts each source's new candidates against its cap, and the truncations of the run. */
export class SourceCaps {
  readonly truncations: Truncation[] = [];
  /** Lowercased ids a cap kept out, by the rule that met them. */
  readonly dropped = new Map<string, string>();
  private readonly added = new Map<string, Set<string>>();

  constructor(
    readonly limits: SourceLimits,
    private readonly isKnown: (key: string) => boolean,
  ) {}

  /** Whether `rule` may add `id`: a published one always, a new one while the rule is within `cap`. */
  admit(rule: string, id: string, cap = this.limits.maxCandidates): boolean {
    const key = id.toLowerCase();
    if (this.isKnown(key)) return true;
    const ids = this.added.get(rule) ?? this.added.set(rule, new Set()).get(rule)!;
    if (ids.has(key) || ids.size < cap) {
      ids.add(key);
      return true;
    }
    if (!this.dropped.has(key)) this.dropped.set(key, rule);
    return false;
  }

  /** The new candidates `rule` added so far. */
  count(rule: string): number {
    return this.added.get(rule)?.size ?? 0;
  }

  truncated(truncation: Truncation): void {
    this.truncations.push(truncation);
  }
}
