/**
 * The refresh lock across instances: a Redis key taken only if absent with an expiry
 * (`SET key token NX PX ttl`), renewed while the refresh runs and deleted only by its holder, so
 * a killed holder's lock expires by itself and a late release never deletes another's.
 */
import type { SharedLock } from "../base/refresh-lock";
import type { RedisLink } from "./redis";

export const LOCK_KEY = "catalog:refresh-lock";

/** Extends the expiry only while the token is still ours. */
const RENEW = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return 0`;
/** Deletes the key only while the token is still ours. */
const RELEASE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

export class RedisLease implements SharedLock {
  constructor(
    private readonly link: RedisLink,
    private readonly ttlMs: number,
  ) {}

  async acquire(): Promise<{ release(): Promise<void> } | { refused: string }> {
    if (!this.link.up) return { refused: "Redis is unreachable: no refresh starts until it is back" };
    const token = `${process.pid}-${crypto.randomUUID()}`;
    const ttl = String(this.ttlMs);
    let taken: unknown;
    try {
      taken = await this.link.run((c) => c.send("SET", [LOCK_KEY, token, "NX", "PX", ttl]));
    } catch (error) {
      return { refused: `Redis is unreachable: ${(error as Error).message}` };
    }
    if (taken !== "OK") return { refused: "another instance is refreshing" };
    const renewal = setInterval(
      () => {
        this.link.run((c) => c.send("EVAL", [RENEW, "1", LOCK_KEY, token, ttl])).catch(() => {});
      },
      Math.max(100, Math.floor(this.ttlMs / 3)),
    );
    renewal.unref();
    return {
      release: async () => {
        clearInterval(renewal);
        await this.link.run((c) => c.send("EVAL", [RELEASE, "1", LOCK_KEY, token])).catch(() => {});
      },
    };
  }
}
