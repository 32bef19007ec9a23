/**
 * One request per window per client per endpoint. The limiter remembers, per key, when the
 * client's current window opened; it holds at most `maxKeys` keys and, when full, forgets the
 * least recently admitted first, so memory stays bounded whatever the number of clients, and
 * every key it still holds is judged exactly.
 */

export interface Verdict {
  allowed: boolean;
  /** Milliseconds until the key may send again (0 when allowed and the window is over). */
  resetMs: number;
}

export const DEFAULT_MAX_KEYS = 100_000;

export class RateLimiter {
  private readonly opened = new Map<string, number>();

  constructor(readonly windowMs: number, readonly maxKeys = DEFAULT_MAX_KEYS) {}

  get size(): number {
    return this.opened.size;
  }

  /** Counts one request of `key` at `now` (ms). */
  hit(key: string, now: number): Verdict {
    const since = this.opened.get(key);
    if (since !== undefined && now - since < this.windowMs) {
      return { allowed: false, resetMs: since + this.windowMs - now };
    }
    if (since !== undefined) this.opened.delete(key);
    this.opened.set(key, now);
    this.evict(now);
    return { allowed: true, resetMs: this.windowMs };
  }

  /** Drops expired keys from the oldest end, then the oldest live ones past the bound. */
  private evict(now: number): void {
    for (const [key, since] of this.opened) {
      if (this.opened.size <= this.maxKeys && now - since < this.windowMs) break;
      this.opened.delete(key);
    }
  }
}

/** The client address: the socket's, or with a trusted proxy the left-most valid X-Forwarded-For entry. */
export function clientIp(forwardedFor: string | null, socketIp: string | null, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const first = forwardedFor.split(",", 1)[0]!.trim();
    if (isIp(first)) return first;
  }
  return socketIp ?? "unknown";
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIp(value: string): boolean {
  if (IPV4.test(value)) return true;
  // IPv6: hex groups and colons (optionally an embedded IPv4 tail), at most 45 characters.
  return value.length <= 45 && value.includes(":") && /^[0-9A-Fa-f:.]+$/.test(value) && !value.includes(":::");
}
