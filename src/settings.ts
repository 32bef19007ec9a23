/**
 * The refresh's limits as plain values: their shapes and defaults, read by config.ts from the
 * environment and by the refresh where a run is started without them. Nothing here loads code, so
 * the serving process reads its configuration without loading the refresh.
 */

/** A run may at most double the catalog before its newcomers are held for review. */
export const DEFAULT_MAX_GROWTH = 1;

export interface SourceLimits {
  /** New candidates one named source or search rule may add per run (REFRESH_SOURCE_MAX_CANDIDATES). */
  maxCandidates: number;
  /** Calls one search rule may spend per run (REFRESH_SOURCE_MAX_CALLS). */
  maxCalls: number;
  /** Bytes of a curated list or manifest read at most (REFRESH_LIST_MAX_BYTES). */
  listMaxBytes: number;
}

export const DEFAULT_SOURCE_LIMITS: SourceLimits = {
  maxCandidates: 10_000,
  maxCalls: 200,
  listMaxBytes: 5 * 1024 * 1024,
};

/** The owner file's name when OWNER_FILE does not set another: hidden, at the root, YAML (JSON is YAML too). */
export const DEFAULT_OWNER_FILE = ".plugin-catalog.yml";

/** Pages of 100 servers one refresh reads from the official MCP registry at most (MCP_REGISTRY_MAX_PAGES). */
export const DEFAULT_MCP_REGISTRY_PAGES = 300;

/** What one run may spend on one optional upstream: requests, each one's timeout, all of them together. */
export interface RequestLimits {
  maxRequests: number;
  timeoutMs: number;
  budgetMs: number;
}

/** The package registries' (REGISTRY_MAX_REQUESTS, REGISTRY_TIMEOUT_MS, REGISTRY_BUDGET_MS). */
export const DEFAULT_PACKAGE_LIMITS: RequestLimits = { maxRequests: 2000, timeoutMs: 5000, budgetMs: 120_000 };

/** deps.dev's (DEPSDEV_MAX_REQUESTS, DEPSDEV_TIMEOUT_MS, DEPSDEV_BUDGET_MS). */
export const DEFAULT_SECURITY_LIMITS: RequestLimits = { maxRequests: 500, timeoutMs: 10_000, budgetMs: 90_000 };

/** The limits of one run's remote checks (REMOTE_PROBE_*). */
export interface RemoteLimits {
  /** The time all of one run's remote checks may take together; 0: remotes are never asked. */
  budgetMs: number;
  /** One server's time limit, card and handshake together. */
  timeoutMs: number;
  /** Servers asked at once, apart from the package registries' limit. */
  concurrency: number;
  /** An answer this recent, from the same address, is kept without asking again. */
  reuseHours: number;
}

// Under the six-hourly refresh a remote is asked about once a day, so a server is not polled for nothing.
export const DEFAULT_REMOTE_LIMITS: RemoteLimits = {
  budgetMs: 60_000,
  timeoutMs: 5000,
  concurrency: 8,
  reuseHours: 20,
};
