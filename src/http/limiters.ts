/**
 * The limiters in process: one request per window per key (RateLimiter), or a burst group's rate
 * (BurstLimiter, GCRA). Each key is held until its window closes; at most `maxKeys` keys are held,
 * the expired forgotten and, when full, the least recently admitted first, so memory stays bounded
 * whatever the number of clients.
 */
import { DEFAULT_MAX_KEYS } from "../config";
import { NumberTable } from "./number-table";

export interface Verdict {
  allowed: boolean;
  /** Milliseconds until the key may send again (the whole window when allowed). */
  resetMs: number;
}

/**
 * A key as a 52-bit hash: a number, so the keys a busy window holds are no objects for the
 * collector. Two keys share a window only if their hashes collide: about once in 10^11 admissions
 * at 100,000 held keys. IPv4 keys lie above 2^52 (`ipv4Key`), so the two kinds never meet.
 */
export function keyHash(key: string): number {
  return Number(BigInt.asUintN(52, Bun.hash(key) as bigint));
}

const IPV4_KEYS = 2 ** 52;

/** An IPv4 client's key in the table numbered `table` (a route or a group): exact, no hashing. */
export function ipv4Key(table: number, address: number): number {
  return IPV4_KEYS + table * 2 ** 32 + address;
}

/**
 * Keys held until a moment each, in a table of numbers and a ring of admissions, both typed arrays
 * allocated once: at most `maxKeys` keys, the expired forgotten and, when full, the least recently
 * admitted first. A flood of new clients deletes and sets a key per request, which leaves a Map's
 * dropped tables for the collector; these arrays are never replaced.
 */
class HeldKeys {
  private readonly until: NumberTable;
  // Admissions in order: evicting the oldest never searches the table.
  private readonly ringKeys: Float64Array;
  private readonly ringUntil: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly maxKeys: number) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    }
    this.until = new NumberTable(maxKeys);
    this.ringKeys = new Float64Array(maxKeys);
    this.ringUntil = new Float64Array(maxKeys);
  }

  get size(): number {
    return this.until.size;
  }

  /** The moment `key` is held until, or undefined when it holds nothing at `now`. */
  heldUntil(key: number, now: number): number | undefined {
    const until = this.until.get(key);
    return until !== undefined && until > now ? until : undefined;
  }

  /** Holds `key` until `until`, forgetting first the oldest admissions that have expired at `now`. */
  hold(key: number, until: number, now: number): void {
    while (this.count > 0 && this.ringUntil[this.head]! <= now) this.dropOldest();
    if (this.count === this.maxKeys) this.dropOldest();
    this.until.set(key, until);
    const slot = (this.head + this.count) % this.maxKeys;
    this.ringKeys[slot] = key;
    this.ringUntil[slot] = until;
    this.count++;
  }

  /** Forgets the oldest admission; its key goes too unless it was admitted again since. */
  private dropOldest(): void {
    this.until.deleteIf(this.ringKeys[this.head]!, this.ringUntil[this.head]!);
    this.head = (this.head + 1) % this.maxKeys;
    this.count--;
  }
}

/** One request per window per key: a key is held until its window closes. */
export class RateLimiter {
  private readonly held: HeldKeys;
  private readonly admitted: Verdict;

  constructor(
    readonly windowMs: number,
    maxKeys = DEFAULT_MAX_KEYS,
  ) {
    this.held = new HeldKeys(maxKeys);
    this.admitted = Object.freeze({ allowed: true, resetMs: windowMs });
  }

  get size(): number {
    return this.held.size;
  }

  /** Counts one request of `key` (a string, or a number used as it is) at `now` (ms). */
  hit(client: string | number, now: number): Verdict {
    const key = typeof client === "number" ? client : keyHash(client);
    const closes = this.held.heldUntil(key, now);
    if (closes !== undefined) return { allowed: false, resetMs: closes - now };
    this.held.hold(key, now + this.windowMs, now);
    return this.admitted;
  }
}

/** A rate-limit group that admits a burst: `burst` requests at once, one more every `intervalMs`. */
export interface BurstRule {
  burst: number;
  intervalMs: number;
}

/**
 * The limiter of a burst group (GCRA): each key is held until its theoretical arrival time, the
 * moment its whole burst is available again; a request is admitted while that lies at most
 * `burst - 1` intervals ahead.
 */
export class BurstLimiter {
  private readonly held: HeldKeys;
  private readonly tolerance: number;

  constructor(
    readonly rule: BurstRule,
    maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isSafeInteger(rule.burst) || rule.burst < 1 || !(rule.intervalMs > 0)) {
      throw new RangeError(`a burst rule needs burst >= 1 and intervalMs > 0, got ${JSON.stringify(rule)}`);
    }
    this.held = new HeldKeys(maxKeys);
    this.tolerance = (rule.burst - 1) * rule.intervalMs;
  }

  get size(): number {
    return this.held.size;
  }

  /** Counts one request of `client` at `now` (ms); `remaining` is what the burst still allows at once. */
  hit(client: string | number, now: number): Verdict & { remaining: number } {
    const key = typeof client === "number" ? client : keyHash(client);
    const from = this.held.heldUntil(key, now) ?? now;
    const { intervalMs } = this.rule;
    if (from - now > this.tolerance) {
      return { allowed: false, resetMs: from - this.tolerance - now, remaining: 0 };
    }
    const next = from + intervalMs;
    this.held.hold(key, next, now);
    const remaining = Math.floor((this.tolerance - (next - now)) / intervalMs) + 1;
    return { allowed: true, resetMs: next - now, remaining };
  }
}
