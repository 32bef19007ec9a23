/**
 * A hash table from integer keys (0 to 2^53) to numbers, held in one typed array (each key beside
 * its value, so a lookup touches one cache line) with open addressing: linear probing and
 * backward-shift deletion, so there are no tombstones, no per-entry objects and no rehashing.
 * Its capacity is fixed at twice the entries it may hold. The rate limiter's table of open
 * windows: a flood of new clients inserts and deletes a key per request, which churns a Map's tables.
 */

const EMPTY = -1;
const TWO_32 = 4294967296;

export class NumberTable {
  /** Slot i holds its key at 2i (EMPTY when free) and its value at 2i + 1. */
  private readonly slots: Float64Array;
  private readonly mask: number;
  private count = 0;

  constructor(readonly maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    let capacity = 8;
    while (capacity < maxEntries * 2) capacity *= 2;
    this.slots = new Float64Array(capacity * 2).fill(EMPTY);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The value of `key`, or undefined when it is not held. */
  get(key: number): number | undefined {
    const i = this.find(key);
    return i === -1 ? undefined : this.slots[2 * i + 1];
  }

  /** Sets `key` to `value`; a RangeError when a new key would exceed `maxEntries`. */
  set(key: number, value: number): void {
    if (!Number.isSafeInteger(key) || key < 0) throw new RangeError(`keys are integers from 0 to 2^53, got ${key}`);
    const slots = this.slots;
    let i = this.home(key);
    while (slots[2 * i] !== EMPTY) {
      if (slots[2 * i] === key) {
        slots[2 * i + 1] = value;
        return;
      }
      i = (i + 1) & this.mask;
    }
    if (this.count === this.maxEntries) throw new RangeError(`the table holds ${this.maxEntries} keys at most`);
    slots[2 * i] = key;
    slots[2 * i + 1] = value;
    this.count++;
  }

  /** Removes `key`; false when it was not held. */
  delete(key: number): boolean {
    const i = this.find(key);
    if (i === -1) return false;
    this.remove(i);
    return true;
  }

  /** Removes `key` if its value is `value` (one lookup where get and delete take two). */
  deleteIf(key: number, value: number): boolean {
    const i = this.find(key);
    if (i === -1 || this.slots[2 * i + 1] !== value) return false;
    this.remove(i);
    return true;
  }

  private remove(slot: number): void {
    const slots = this.slots;
    let hole = slot;
    // Later entries of the probe run move back into the hole unless their home slot lies
    // cyclically after it, so every entry stays reachable from its home without tombstones.
    let j = hole;
    for (;;) {
      j = (j + 1) & this.mask;
      const moved = slots[2 * j]!;
      if (moved === EMPTY) break;
      const home = this.home(moved);
      const staysPut = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (staysPut) continue;
      slots[2 * hole] = moved;
      slots[2 * hole + 1] = slots[2 * j + 1]!;
      hole = j;
    }
    slots[2 * hole] = EMPTY;
    this.count--;
  }

  private find(key: number): number {
    let i = this.home(key);
    for (;;) {
      const k = this.slots[2 * i];
      if (k === key) return i;
      if (k === EMPTY) return -1;
      i = (i + 1) & this.mask;
    }
  }

  /** The key's home slot: its two 32-bit halves mixed (multiply-xorshift). */
  private home(key: number): number {
    const low = (key % TWO_32) >>> 0;
    const high = Math.floor(key / TWO_32) >>> 0;
    let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h & this.mask;
  }
}
