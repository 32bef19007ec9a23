/** How the configuration becomes a refresh's options: the same for the scheduled run and `npm run refresh`. */

import type { SharedLock } from "../base/refresh-lock";
import { type Config, policyPath } from "../config";
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
    policyPath: policyPath(config, overrides.dataDir),
    ownerFile: config.refreshOwnerFile,
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
    security:
      config.depsDevUrl === null
        ? undefined
        : {
            depsDev: config.depsDevUrl,
            limits: {
              maxRequests: config.depsDevMaxRequests,
              timeoutMs: config.depsDevTimeoutMs,
              budgetMs: config.depsDevBudgetMs,
            },
          },
    // Its own budget: the pages, each bounded like a package registry's request.
    ...(config.mcpRegistryUrl === null
      ? {}
      : {
          mcpRegistry: {
            url: config.mcpRegistryUrl,
            limits: {
              maxRequests: config.mcpRegistryMaxPages,
              timeoutMs: config.registryTimeoutMs,
              budgetMs: config.registryBudgetMs,
            },
          },
        }),
    remotes: {
      limits: {
        budgetMs: config.remoteProbeBudgetMs,
        timeoutMs: config.remoteProbeTimeoutMs,
        concurrency: config.remoteProbeConcurrency,
        reuseHours: config.remoteProbeReuseHours,
      },
    },
    sharedLock,
    ...overrides,
  };
}
