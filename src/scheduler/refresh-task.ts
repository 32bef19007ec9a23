/**
 * One refresh as both `npm run refresh` and the scheduled run's child process do it: with
 * REDIS_URL the run takes the lock the instances share and shares what it publishes; without a
 * reachable Redis no run starts, since the lock cannot be taken.
 */
import type { Log } from "../base/log";
import { shareSnapshot } from "../cluster/distribution";
import { RedisLease } from "../cluster/lease";
import { RedisLink } from "../cluster/redis";
import { type RefreshOptions, type RefreshResult, runRefresh } from "../refresh/run";
import { REDIS_UNREACHABLE, type SharedSettings } from "./shared-settings";

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
