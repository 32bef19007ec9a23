/**
 * One refresh as both `npm run refresh` and the scheduled run's child process do it: with
 * REDIS_URL the run takes the lock the instances share and shares what it publishes; without a
 * reachable Redis no run starts, since the lock cannot be taken.
 */
import type { Log } from "../base/log";
import { shareSnapshot } from "../cluster/distribution";
import { RedisLease } from "../cluster/lease";
import { RedisLink } from "../cluster/redis";
import type { Config } from "../config";
import { type RefreshOptions, type RefreshResult, runRefresh } from "../refresh/run";

/** With REDIS_URL: where the shared lock and snapshot live, and the key snapshots are signed with. */
export interface SharedSettings {
  url: string;
  lockTtlMs: number;
  key?: string;
}

/** The shared settings REDIS_URL and its companions set, or null for an instance alone. */
export function sharedSettings(config: Config): SharedSettings | null {
  if (!config.redisUrl) return null;
  return { url: config.redisUrl, lockTtlMs: config.redisLockTtlMs, key: config.redisSnapshotKey };
}

export const REDIS_UNREACHABLE = "Redis is unreachable, and without it the lock the instances share cannot be taken";

/**
 * Refreshes, then shares a published snapshot through Redis. `published` is told before sharing,
 * so a server opens its own file before the announcement of it comes back.
 */
export async function refreshAndShare(
  options: RefreshOptions,
  shared: SharedSettings | null,
  log: Log,
  published?: () => void,
): Promise<RefreshResult> {
  if (shared === null) {
    const result = await runRefresh({ ...options, log });
    if (result.status === "published") published?.();
    return result;
  }
  // The run's own connection: its outages are the server's to log (the result says why no run started).
  const redis = new RedisLink(shared.url, () => {});
  try {
    if (!(await redis.connect())) return { status: "locked", reason: REDIS_UNREACHABLE };
    const result = await runRefresh({ ...options, log, sharedLock: new RedisLease(redis, shared.lockTtlMs) });
    if (result.status !== "published") return result;
    published?.();
    await shareSnapshot(redis, options.databasePath, log, { key: shared.key }).catch((error: Error) =>
      log("snapshot.share_failed", { error: error.message }),
    );
    return result;
  } finally {
    redis.close();
  }
}
