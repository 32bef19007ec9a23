/** What fetching one repository told the refresher. */
import type { RepoFacts } from "../catalog/types";

export type Outcome =
  /** Current facts; `etag` when the platform sent one (REST). */
  | { kind: "fetched"; facts: RepoFacts; etag: string | null }
  /** `304 Not Modified`: the published facts still hold. */
  | { kind: "unchanged"; etag: string }
  /** Deleted, or no longer visible to us (made private, blocked): dropped from the catalog. */
  | { kind: "gone"; reason: string };

/** Outcomes keyed by the lowercased id that was asked for (a renamed repository answers under its new name). */
export type Outcomes = Map<string, Outcome>;
