/**
 * One request per window per client per endpoint. The limiter remembers, per key, when the
 * client's current window opened; it holds at most `maxKeys` keys and, when full, forgets the
 * least recently admitted first, so memory stays bounded whatever the number of clients, and
 * every key it still holds is judged exactly (keys are held as hashes; see `keyHash`).
 */
import { isIP } from "node:net";
import { NumberTable } from "./numbertable";

export interface Verdict {
  allowed: boolean;
  /** Milliseconds until the key may send again (0 when allowed and the window is over). */
  resetMs: number;
}

export const DEFAULT_MAX_KEYS = 100_000;

/**
 * A key as a 53-bit hash: a number, so the tens of thousands of keys a busy window holds are no
 * objects for the garbage collector to trace and free (as strings, they halved the throughput).
 * Two keys share a window only if their hashes collide: about once in 10^11 admissions at
 * 100,000 held keys.
 */
function keyHash(key: string): number {
  return Number(BigInt.asUintN(53, Bun.hash(key) as bigint));
}

export class RateLimiter {
  /** When each held key's current window opened, by key hash. */
  private readonly opened: NumberTable;
  // Admissions in order, in a ring of maxKeys slots: evicting the oldest never searches the table.
  private readonly ringKeys: Float64Array;
  private readonly ringTimes: Float64Array;
  private head = 0;
  private count = 0;
  /** The verdict of every admission: one object, not one per request. */
  private readonly admitted: Verdict;

  constructor(readonly windowMs: number, readonly maxKeys = DEFAULT_MAX_KEYS) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    this.opened = new NumberTable(maxKeys);
    this.ringKeys = new Float64Array(maxKeys);
    this.ringTimes = new Float64Array(maxKeys);
    this.admitted = Object.freeze({ allowed: true, resetMs: windowMs });
  }

  get size(): number {
    return this.opened.size;
  }

  /** Counts one request of `key` (a string, or a number from `clientKey`) at `now` (ms). */
  hit(key: string | number, now: number): Verdict {
    return this.hitHash(typeof key === "number" ? key : keyHash(key), now);
  }

  private hitHash(key: number, now: number): Verdict {
    const since = this.opened.get(key);
    if (since !== undefined && now - since < this.windowMs) {
      return { allowed: false, resetMs: since + this.windowMs - now };
    }
    while (this.count > 0 && now - this.ringTimes[this.head]! >= this.windowMs) this.dropOldest();
    if (this.count === this.maxKeys) this.dropOldest();
    this.opened.set(key, now);
    const slot = (this.head + this.count) % this.maxKeys;
    this.ringKeys[slot] = key;
    this.ringTimes[slot] = now;
    this.count++;
    return this.admitted;
  }

  /** Forgets the oldest admission; its key goes too unless it was admitted again since. */
  private dropOldest(): void {
    this.opened.deleteIf(this.ringKeys[this.head]!, this.ringTimes[this.head]!);
    this.head = (this.head + 1) % this.maxKeys;
    this.count--;
  }
}

/**
 * The client address: the socket's, or with a trusted proxy the left-most valid X-Forwarded-For
 * entry. The socket address may be given as a function, asked only when it is the answer (Bun
 * builds it per call: a tenth of a cached page's time).
 */
export function clientIp(forwardedFor: string | null, socketIp: string | null | (() => string | null), trustProxy: boolean): string {
  const forwarded = trustProxy ? forwardedClient(forwardedFor) : null;
  return forwarded ?? (typeof socketIp === "function" ? socketIp() : socketIp) ?? "unknown";
}

/** The left-most X-Forwarded-For entry when it is a valid address (the client, as the proxy saw it). */
export function forwardedClient(forwardedFor: string | null): string | null {
  if (!forwardedFor) return null;
  const comma = forwardedFor.indexOf(",");
  const first = (comma === -1 ? forwardedFor : forwardedFor.slice(0, comma)).trim();
  return isIp(first) ? first : null;
}

/**
 * The limiter key of the client a trusted proxy names (see `clientKey`), read from the header in
 * place: no strings are made for an IPv4 client. -1 when the header names no valid address.
 */
export function forwardedKey(endpoint: number, forwardedFor: string | null): number {
  if (!forwardedFor) return -1;
  const comma = forwardedFor.indexOf(",");
  let end = comma === -1 ? forwardedFor.length : comma;
  let start = 0;
  while (start < end && isSpace(forwardedFor.charCodeAt(start))) start++;
  while (end > start && isSpace(forwardedFor.charCodeAt(end - 1))) end--;
  const v4 = ipv4Number(forwardedFor, start, end);
  if (v4 >= 0) return endpoint * 2 ** 32 + v4;
  const client = forwardedClient(forwardedFor);
  return client === null ? -1 : clientKey(endpoint, client);
}

/** Spaces and tabs, the whitespace of header values (anything else takes the general path). */
function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * An IPv4 address in dotted-decimal form (four parts of 0 to 255, no leading zeros: what
 * `net.isIPv4` takes) as its 32-bit number; -1 for anything else. Reads `text` from `start` to
 * `end`.
 */
export function ipv4Number(text: string, start = 0, end = text.length): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits === 1 && part === 0) return -1;
      part = part * 10 + (c - 48);
      digits++;
      if (part > 255) return -1;
    } else {
      return -1;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + part : -1;
}

/**
 * The limiter key of (endpoint number, client address) as a number, for `hit`: exact for IPv4
 * (endpoint × 2^32 + address, below 2^40), hashed above 2^52 otherwise, so the two never meet.
 * Cheaper than hashing a string, which the limiter otherwise does on every request.
 */
export function clientKey(endpoint: number, ip: string): number {
  const v4 = ipv4Number(ip);
  return v4 >= 0 ? endpoint * 2 ** 32 + v4 : 2 ** 52 + (keyHash(`${endpoint} ${ip}`) % 2 ** 52);
}

/**
 * A bare IPv4 or IPv6 address (no port, brackets or zone), as the proxy should have written it.
 * IPv4, the usual case, is judged without `net.isIP`'s regular expressions.
 */
function isIp(value: string): boolean {
  return ipv4Number(value) >= 0 || (value.length <= 45 && isIP(value) === 6 && !value.includes("%"));
}
