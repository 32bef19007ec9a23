/**
 * What a refresh shares with the other instances, read from the configuration: a module of its
 * own, so the serving process that schedules refreshes never loads the refresh itself (its child does).
 */
import type { Config } from "../config";

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
