/**
 * Configuration: read once from the environment into one frozen, typed object.
 * A bad value throws a ConfigError naming the variable, so the process stops at boot.
 */

import { dirname, join } from "node:path";
import {
  boolean,
  ConfigError,
  cronPattern,
  type Env,
  growth,
  httpUrl,
  integer,
  metricsToken,
  optionalUrl,
  ownOrUrl,
  proxyHops,
  readToken,
  redisUrl,
  repoPath,
  secretKey,
  share,
  sharedCacheSet,
} from "./config-values";
import {
  DEFAULT_MAX_GROWTH,
  DEFAULT_MCP_REGISTRY_PAGES,
  DEFAULT_OWNER_FILE,
  DEFAULT_PACKAGE_LIMITS,
  DEFAULT_REMOTE_LIMITS,
  DEFAULT_SECURITY_LIMITS,
  DEFAULT_SOURCE_LIMITS,
} from "./settings";

export { ConfigError };

export const DEFAULT_MAX_KEYS = 100_000;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly databasePath: string;
  readonly githubToken: string | undefined;
  readonly githubApiUrl: string;
  readonly refreshCron: string | null;
  /** A refresh is refused when the plugin count would fall by more than this share (0 to 1). */
  readonly refreshMaxDrop: number;
  /** A refresh holds its newcomers for review when they would grow the catalog by more than this share. */
  readonly refreshMaxGrowth: number;
  /** New candidates one discovery source (list, marketplace, search rule) may add per run. */
  readonly refreshSourceMaxCandidates: number;
  /** Calls one search rule may spend per run. */
  readonly refreshSourceMaxCalls: number;
  /** Bytes of a curated list or marketplace manifest read at most. */
  readonly refreshListMaxBytes: number;
  readonly rateLimitWindowMs: number;
  /** Most (endpoint, client) pairs the rate limiter remembers: its memory bound. */
  readonly rateLimitMaxKeys: number;
  /** How many proxies in front of the service append to X-Forwarded-For (0: the socket is the client). */
  readonly trustProxy: number;
  readonly responseCacheBytes: number;
  /** Resident MB past which the server asks for a full collection (base/memory-limit.ts); 0: never. */
  readonly memoryLimitMb: number;
  /** Renderings waiting for their turn at most (http/turns.ts); past it a rendering gets 503. 0: each renders at once. */
  readonly renderQueueMax: number;
  /**
   * `s-maxage` of every answer kept per snapshot: how long a shared cache (a proxy, a CDN) serves it
   * unasked. null (neither SHARED_CACHE_* variable set): no shared-cache directives, the contract's
   * `Cache-Control` exactly.
   */
  readonly sharedCacheMaxAgeS: number | null;
  /** `stale-while-revalidate` of those answers: how long past it a shared cache may serve it while it asks again. */
  readonly sharedCacheStaleS: number;
  /** /readyz answers 503 when the snapshot is older than this; 0 means no bound. */
  readonly readyMaxAgeS: number;
  /** Milliseconds between readiness going off and the server no longer accepting, on a stop. */
  readonly stopGraceMs: number;
  /** Seconds an idle connection stays open (Bun's idleTimeout). */
  readonly idleTimeoutS: number;
  /** Whether the request log records the client IP (personal data: off unless asked for). */
  readonly logClientIp: boolean;
  /** Shared limit, refresh lock and snapshot across instances; undefined: this instance alone. */
  readonly redisUrl: string | undefined;
  /** The shared refresh lock expires this long after its holder stopped renewing it. */
  readonly redisLockTtlMs: number;
  /** HMAC key: shared snapshots are signed with it, and only signed ones are taken. */
  readonly redisSnapshotKey: string | undefined;
  /** A shared snapshot declaring more bytes than this is refused before any of it is fetched. */
  readonly redisSnapshotMaxBytes: number;
  /** Where the scheduled refresh reads discovery.json and the editors' data; db/ when undefined. */
  readonly refreshDataDir: string | undefined;
  /** The owner file's path in each repository the refresh reads (refresh/manifests/owner-file.ts). */
  readonly refreshOwnerFile: string;
  /** POLICY_FILE as set: the organization's policy (docs/operations.md); undefined: see policyPath. */
  readonly policyFile: string | undefined;
  /** When set, GET /metrics answers only `Authorization: Bearer <this>`. */
  readonly metricsToken: string | undefined;
  /** When set, every answer but the health checks and /metrics needs `Authorization: Bearer <this>`, and is private to caches. */
  readonly readToken: string | undefined;
  /** The npm registry the refresh checks install lines' packages against; null: not checked. */
  readonly npmRegistryUrl: string | null;
  /** PyPI's base URL (its JSON API under /pypi/); null: not checked. */
  readonly pypiUrl: string | null;
  /** `own`: each OCI image's own registry over https; a base URL: every image's registry answered there; null: not checked. */
  readonly ociRegistryUrl: string | null;
  /** Registry requests one refresh may send, each one's timeout, and the time all of them may take. */
  readonly registryMaxRequests: number;
  readonly registryTimeoutMs: number;
  readonly registryBudgetMs: number;
  /** deps.dev's base URL (Scorecards, advisories, provenance); null: not asked. */
  readonly depsDevUrl: string | null;
  /** deps.dev batch requests one refresh may send, each one's timeout, and the time all of them may take. */
  readonly depsDevMaxRequests: number;
  readonly depsDevTimeoutMs: number;
  readonly depsDevBudgetMs: number;
  /** The official MCP registry a refresh reads as a discovery source; null: not read. */
  readonly mcpRegistryUrl: string | null;
  /** Pages of the MCP registry one refresh reads at most. */
  readonly mcpRegistryMaxPages: number;
  /** Remote MCP servers: the time all checks of a run may take (0: never asked), one server's limit, how many at once, how long an answer is kept. */
  readonly remoteProbeBudgetMs: number;
  readonly remoteProbeTimeoutMs: number;
  readonly remoteProbeConcurrency: number;
  readonly remoteProbeReuseHours: number;
}

/** Reads and validates every variable; throws ConfigError on the first bad one. */
export function loadConfig(env: Env = Bun.env): Config {
  const port = integer(env, "PORT", 3000, 0, 65535);
  const host = env.HOST?.trim() || "0.0.0.0";
  const token = env.GITHUB_TOKEN?.trim();
  const sources = DEFAULT_SOURCE_LIMITS;
  const registries = DEFAULT_PACKAGE_LIMITS;
  const depsDev = DEFAULT_SECURITY_LIMITS;
  const remotes = DEFAULT_REMOTE_LIMITS;
  return Object.freeze({
    port,
    host,
    baseUrl: httpUrl(env, "BASE_URL", `http://localhost:${port}`),
    databasePath: env.DATABASE_PATH?.trim() || "db/catalog.sqlite",
    githubToken: token ? token : undefined,
    githubApiUrl: httpUrl(env, "GITHUB_API_URL", "https://api.github.com"),
    refreshCron: cronPattern(env, "REFRESH_CRON", "0 */6 * * *"),
    refreshMaxDrop: share(env, "REFRESH_MAX_DROP", 0.1),
    // A doubling in one run is no ordinary day; the first run from the embedded default is exempt.
    refreshMaxGrowth: growth(env, "REFRESH_MAX_GROWTH", DEFAULT_MAX_GROWTH),
    refreshSourceMaxCandidates: integer(env, "REFRESH_SOURCE_MAX_CANDIDATES", sources.maxCandidates, 1, 1_000_000),
    refreshSourceMaxCalls: integer(env, "REFRESH_SOURCE_MAX_CALLS", sources.maxCalls, 1, 100_000),
    refreshListMaxBytes: integer(env, "REFRESH_LIST_MAX_BYTES", sources.listMaxBytes, 1024, 100 * 1024 * 1024),
    rateLimitWindowMs: integer(env, "RATE_LIMIT_WINDOW_MS", 2000, 0, 86_400_000),
    rateLimitMaxKeys: integer(env, "RATE_LIMIT_MAX_KEYS", DEFAULT_MAX_KEYS, 1, 100_000_000),
    trustProxy: proxyHops(env, "TRUST_PROXY"),
    // 16 MiB holds the first pages of every list, sort and filter many times over; more only
    // grows the process (bench/RESULTS.md: RSS under a stream of distinct requests).
    responseCacheBytes: integer(env, "RESPONSE_CACHE_BYTES", 16 * 1024 * 1024, 0, 4 * 1024 ** 3),
    renderQueueMax: integer(env, "RENDER_QUEUE_MAX", 256, 0, 100_000),
    memoryLimitMb: integer(env, "MEMORY_LIMIT_MB", 128, 0, 1_048_576),
    // A new snapshot reaches a shared cache's clients within these two together: 90 s by default.
    sharedCacheMaxAgeS: sharedCacheSet(env) ? integer(env, "SHARED_CACHE_MAX_AGE_S", 60, 0, 86_400) : null,
    sharedCacheStaleS: integer(env, "SHARED_CACHE_STALE_S", 30, 0, 86_400),
    readyMaxAgeS: integer(env, "READY_MAX_AGE_S", 0, 0, 31_536_000),
    logClientIp: boolean(env, "LOG_CLIENT_IP", false),
    // Longer than a proxy's upstream keep-alive (nginx: 60 s unless set lower) invites races on reuse.
    idleTimeoutS: integer(env, "IDLE_TIMEOUT_S", 30, 1, 255),
    stopGraceMs: integer(env, "STOP_GRACE_MS", 1000, 0, 8000),
    redisUrl: redisUrl(env, "REDIS_URL"),
    redisLockTtlMs: integer(env, "REDIS_LOCK_TTL_MS", 30_000, 1000, 3_600_000),
    redisSnapshotKey: secretKey(env, "REDIS_SNAPSHOT_KEY"),
    // Twice the largest snapshot measured at 100,000 plugins (bench/RESULTS.md).
    redisSnapshotMaxBytes: integer(env, "REDIS_SNAPSHOT_MAX_BYTES", 1024 ** 3, 1024 * 1024, 64 * 1024 ** 3),
    refreshDataDir: env.REFRESH_DATA_DIR?.trim() || undefined,
    refreshOwnerFile: repoPath(env, "REFRESH_OWNER_FILE", DEFAULT_OWNER_FILE),
    policyFile: env.POLICY_FILE?.trim() || undefined,
    metricsToken: metricsToken(env, "METRICS_TOKEN"),
    readToken: readToken(env),
    npmRegistryUrl: optionalUrl(env, "NPM_REGISTRY_URL", "https://registry.npmjs.org"),
    pypiUrl: optionalUrl(env, "PYPI_URL", "https://pypi.org"),
    ociRegistryUrl: ownOrUrl(env, "OCI_REGISTRY_URL"),
    registryMaxRequests: integer(env, "REGISTRY_MAX_REQUESTS", registries.maxRequests, 0, 1_000_000),
    registryTimeoutMs: integer(env, "REGISTRY_TIMEOUT_MS", registries.timeoutMs, 100, 120_000),
    registryBudgetMs: integer(env, "REGISTRY_BUDGET_MS", registries.budgetMs, 1000, 3_600_000),
    depsDevUrl: optionalUrl(env, "DEPSDEV_URL", "https://api.deps.dev"),
    depsDevMaxRequests: integer(env, "DEPSDEV_MAX_REQUESTS", depsDev.maxRequests, 0, 100_000),
    depsDevTimeoutMs: integer(env, "DEPSDEV_TIMEOUT_MS", depsDev.timeoutMs, 100, 120_000),
    depsDevBudgetMs: integer(env, "DEPSDEV_BUDGET_MS", depsDev.budgetMs, 1000, 3_600_000),
    mcpRegistryUrl: optionalUrl(env, "MCP_REGISTRY_URL", "https://registry.modelcontextprotocol.io"),
    mcpRegistryMaxPages: integer(env, "MCP_REGISTRY_MAX_PAGES", DEFAULT_MCP_REGISTRY_PAGES, 1, 100_000),
    remoteProbeBudgetMs: integer(env, "REMOTE_PROBE_BUDGET_MS", remotes.budgetMs, 0, 3_600_000),
    remoteProbeTimeoutMs: integer(env, "REMOTE_PROBE_TIMEOUT_MS", remotes.timeoutMs, 100, 60_000),
    remoteProbeConcurrency: integer(env, "REMOTE_PROBE_CONCURRENCY", remotes.concurrency, 1, 64),
    remoteProbeReuseHours: integer(env, "REMOTE_PROBE_REUSE_HOURS", remotes.reuseHours, 0, 720),
  });
}

/**
 * Where the policy is read: POLICY_FILE, else `policy.yml` in the refresh's data folder (`dataDir`,
 * REFRESH_DATA_DIR by default), else `policy.yml` beside the database. No file there: no policy.
 */
export function policyPath(config: Config, dataDir = config.refreshDataDir): string {
  return config.policyFile ?? join(dataDir ?? dirname(config.databasePath), "policy.yml");
}
