/** How the configuration becomes a refresh's options: the same for the scheduled run and `npm run refresh`. */
import type { Config } from "../config";
import type { SharedLock } from "../refresh/lock";
import type { RefreshOptions } from "../refresh/run";

/**
 * The options the configuration sets, the same for the scheduled run and `npm run refresh`: with
 * a shared lock (the instances' Redis lease) the run also takes it; `overrides` win.
 */
export function refreshOptionsFrom(
  config: Config,
  sharedLock?: SharedLock,
  overrides: Partial<RefreshOptions> = {},
): RefreshOptions {
  return {
    databasePath: config.databasePath,
    apiUrl: config.githubApiUrl,
    token: config.githubToken,
    maxDrop: config.refreshMaxDrop,
    maxGrowth: config.refreshMaxGrowth,
    sourceLimits: {
      maxCandidates: config.refreshSourceMaxCandidates,
      maxCalls: config.refreshSourceMaxCalls,
      listMaxBytes: config.refreshListMaxBytes,
    },
    dataDir: config.refreshDataDir,
    registries: {
      npm: config.npmRegistryUrl,
      pypi: config.pypiUrl,
      oci: config.ociRegistryUrl,
      limits: {
        maxRequests: config.registryMaxRequests,
        timeoutMs: config.registryTimeoutMs,
        budgetMs: config.registryBudgetMs,
      },
    },
    sharedLock,
    ...overrides,
  };
}
