/**
 * The rate limit across instances: a client's window is a Redis key set only if absent, expiring
 * with the window (`SET key 1 NX PX window`), so admitting a request is one atomic command and a
 * refusal reads the time left with `PTTL`. A burst group's key holds its theoretical arrival time
 * (GCRA, as the in-process BurstLimiter), read and moved by one script on Redis's own clock, so
 * instances whose clocks differ count alike. While Redis is down or hung every call answers null at once.
 */
import type { BurstRule, BurstVerdict, SharedLimits, Verdict } from "../http/rate-limit";
import type { RedisLink } from "./redis";

/** A command slower than this counts as an outage for that request: the local table answers. */
const COMMAND_TIMEOUT_MS = 250;

const PREFIX = "catalog:limit:";
const BURST_PREFIX = "catalog:burst:";

/**
 * GCRA on Redis: KEYS[1] holds the moment (ms) the client's whole burst is back; ARGV the
 * interval and the tolerance (burst - 1 intervals). Answers {allowed, reset ms, remaining}.
 */
const BURST_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
if tat - now > tolerance then return {0, tat - tolerance - now, 0} end
local nxt = tat + interval
redis.call('SET', KEYS[1], nxt, 'PX', nxt - now)
return {1, nxt - now, math.floor((tolerance - (nxt - now)) / interval) + 1}
`;

/** A script's answer as a verdict; null when it is not the three integers the script returns. */
function burstVerdict(reply: unknown): BurstVerdict | null {
  if (!Array.isArray(reply) || reply.length !== 3) return null;
  const [allowed, resetMs, remaining] = reply.map(Number) as [number, number, number];
  if (![allowed, resetMs, remaining].every(Number.isSafeInteger)) return null;
  return { allowed: allowed === 1, resetMs: Math.max(1, resetMs), remaining: Math.max(0, remaining) };
}

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

  async burst(key: string, rule: BurstRule): Promise<BurstVerdict | null> {
    if (!this.link.up) return null;
    const args = [String(rule.intervalMs), String((rule.burst - 1) * rule.intervalMs)];
    try {
      const reply = await this.link.run(
        (c) => c.send("EVAL", [BURST_SCRIPT, "1", BURST_PREFIX + key, ...args]),
        COMMAND_TIMEOUT_MS,
      );
      return burstVerdict(reply);
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
