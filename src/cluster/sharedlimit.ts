/**
 * The rate limit across instances: a client's window is a Redis key set only if absent, expiring
 * with the window (`SET key 1 NX PX window`), so admitting a request is one atomic command and a
 * refusal reads the time left with `PTTL`. While Redis is down or hung every call answers null at once.
 */
import type { SharedLimits, Verdict } from "../http/ratelimit";
import type { RedisLink } from "./redis";

/** A command slower than this counts as an outage for that request: the local table answers. */
const COMMAND_TIMEOUT_MS = 250;

const PREFIX = "catalog:limit:";

export class RedisLimits implements SharedLimits {
  constructor(private readonly link: RedisLink) {}

  async hit(key: string, windowMs: number): Promise<Verdict | null> {
    if (!this.link.up) return null;
    try {
      return await this.ask(PREFIX + key, windowMs);
    } catch {
      return null;
    }
  }

  private async ask(key: string, windowMs: number): Promise<Verdict> {
    const window = String(windowMs);
    const set = await this.link.run((c) => c.send("SET", [key, "1", "NX", "PX", window]), COMMAND_TIMEOUT_MS);
    if (set === "OK") return { allowed: true, resetMs: windowMs };
    const left = Number(await this.link.run((c) => c.send("PTTL", [key]), COMMAND_TIMEOUT_MS));
    // -2: expired between the two commands; -1 cannot happen for a key always set with PX.
    return { allowed: false, resetMs: left > 0 ? left : 1 };
  }
}
