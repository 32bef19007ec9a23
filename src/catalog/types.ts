/** Shapes of a catalog snapshot: what a refresh or the embedded default hands to the builder. */

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
}

export interface SnapshotInput {
  /** ISO 8601 UTC, millisecond precision. */
  snapshotAt: string;
  plugins: PluginRecord[];
  /** Every category id of the category set, in use or not: what the `category` filter accepts. */
  categoryIds: string[];
}

export interface SnapshotStats {
  snapshotAt: string;
  total: number;
  curated: number;
  categories: number;
  totalStars: number;
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
}

export interface Override {
  category?: string;
  description_zh?: string;
  exclude?: boolean;
  note?: string;
}

/** The editors' data that turns repository facts into plugin records. */
export interface Editorial {
  categories: Category[];
  curated: CuratedEntry[];
  overrides: Record<string, Override>;
}
