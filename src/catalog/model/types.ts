/** Shapes of a catalog snapshot: what a refresh or the embedded default hands to the builder. */
import type { CandidateDecision, ListingRules } from "./candidates";

import type { PluginDetails } from "./details";
import type { SecurityCoverage } from "./security";
import type { LastUpdate } from "./update-diff";

/** Facts about one repository as the hosting platform reports them (or the embedded default records them). */
export interface RepoFacts {
  /** The platform's numeric repository id (GraphQL `databaseId`): it survives renames. */
  database_id?: number | null;
  full_name: string;
  description: string | null;
  homepage: string | null;
  stars: number;
  forks: number;
  language: string | null;
  license: string | null;
  archived: boolean | null;
  created_at: string;
  pushed_at: string;
  topics: string[] | null;
  /** A source list's own category label: a weak classification hint. */
  hint?: string | null;
}

/** One plugin as stored in a snapshot: the wire fields plus what the service keeps internally. */
export interface PluginRecord {
  id: string;
  name: string;
  full_name: string;
  url: string;
  homepage: string | null;
  description: string;
  description_zh: string | null;
  category: string;
  categories: string[];
  stars: number;
  forks: number;
  language: string;
  license: string;
  archived: boolean;
  /** ISO 8601 UTC, second precision. */
  created_at: string;
  /** ISO 8601 UTC, second precision. */
  pushed_at: string;
  topics: string[];
  curated: boolean;
  /** ISO 8601 UTC, millisecond precision: when the plugin first entered the catalog. */
  first_seen_at: string;
  /** The platform's ETag for the repository, kept for conditional refreshes. */
  etag: string | null;
  /** The platform's numeric repository id; null where it was never fetched. */
  repo_id: number | null;
  /** Former `owner/repo` ids of this plugin, oldest first: they redirect to `id`. */
  previous_ids: string[];
  /** What its manifests say (contents, install, flags, works_with); absent or null when never read. */
  details?: PluginDetails | null;
  /** The catalog plugin this one imitates by name (see details.ts `lookalikes`); set by toRecords. */
  lookalike_of?: string | null;
}

export interface SnapshotInput {
  /** ISO 8601 UTC, millisecond precision. */
  snapshotAt: string;
  plugins: PluginRecord[];
  /** Every category id of the category set, in use or not: what the `category` filter accepts. */
  categoryIds: string[];
  /** The category set's names and descriptions, as /api/v1/categories serves them. */
  categories?: CategoryInfo[];
  /** What changed in the snapshots before this one; none for a catalog built from scratch. */
  history?: SnapshotHistory;
  /** Word groups a search treats as one meaning (db/synonyms.json). */
  synonyms?: string[][];
  /** The repository id each editors' entry is about, by lowercased name as written (see refresh/validate/identity.ts). */
  editorialIds?: Record<string, number>;
  /** The refresher's last decision per candidate repository (candidates.ts); none for a catalog built from scratch. */
  candidates?: CandidateDecision[];
  /** The evidence and star floors the refresher applied. */
  listingRules?: ListingRules;
  /** Each plugin's last update by lowercased id (update-history.ts); none for a catalog built from scratch. */
  updates?: ReadonlyMap<string, LastUpdate>;
  /**
   * Under a policy: every record made, each with the rule that keeps it out (null when served),
   * kept in the snapshot's unserved `policy_records` table; absent without a policy.
   */
  policyRecords?: Array<{ record: PluginRecord; rule: string | null; newer?: PluginRecord }>;
  /** The policy's fingerprint (policy.ts), kept in the `policy` meta row with the count kept out. */
  policyFingerprint?: string;
}

/** A category as clients see it. */
export interface CategoryInfo {
  id: string;
  name: string;
  name_zh: string;
  description: string;
}

/** A removal or a rename published at `at` (a snapshotAt). */
export interface HistoryEvent {
  at: string;
  kind: "removed" | "renamed";
  id: string;
  /** The new id of a rename; null for a removal. */
  to: string | null;
}

/**
 * The change history a snapshot carries: when each plugin's catalog record last changed, the
 * removals and renames of the retained publishes, and every snapshotAt a client may ask changes
 * since (this snapshot's included).
 */
export interface SnapshotHistory {
  /** By lowercased id; a plugin not listed changed at this snapshot. */
  changedAt: Map<string, string>;
  events: HistoryEvent[];
  snapshots: string[];
}

export interface SnapshotStats {
  snapshotAt: string;
  total: number;
  curated: number;
  categories: number;
  totalStars: number;
  /** How many plugins deps.dev covers (security.ts); absent in a file built before it was counted. */
  security?: SecurityCoverage;
  /** Skills whose folder is a copy of one in an earlier-created other repository (`copy_of`); absent in older snapshots. */
  skillCopies?: number;
}

export interface Category {
  id: string;
  name: string;
  name_zh: string;
  description: string;
  topics: string[];
  keywords: string[];
  hints: string[];
}

export interface CuratedEntry {
  id: string;
  description_zh: string;
  reason?: string;
  /** The platform's numeric id of the repository meant: the entry never applies to another one. */
  repo_id?: number;
}

export interface Override {
  category?: string;
  description_zh?: string;
  exclude?: boolean;
  note?: string;
  /** The platform's numeric id of the repository meant: the override never applies to another one. */
  repo_id?: number;
}

/** The editors' data that turns repository facts into plugin records. */
export interface Editorial {
  categories: Category[];
  curated: CuratedEntry[];
  overrides: Record<string, Override>;
  /** Fields of the editors' files that held invisible characters, stripped when read (`file: id.field`). */
  cleaned?: string[];
}

/** A page of a list query's results. */
export interface Page<T> {
  items: T[];
  total: number;
  /** The query searched instead of `q`, when `q` matched nothing and a nearby spelling did. */
  corrected?: string;
}
