/**
 * A soft memory limit, as Go's GOMEMLIMIT is one. The runtime's collector paces itself by the
 * JavaScript heap it sees, not by what the process holds (response bodies, the database's pages,
 * the allocators' free lists), so under a stream of distinct requests the resident set climbs tens
 * of MB past its working size before a collection comes. Past the limit a full collection is asked
 * for, and the freed memory goes back to the system.
 *
 * A collection holds the event loop (tens of ms at a large catalog), so it is asked for only when
 * the resident set has grown by a sixteenth of the limit over the least it was since the last one: a process
 * whose working size sits at or past its limit is not collected again and again for nothing. At
 * most one collection runs per gap, and a collection that gave back less than that growth (the
 * memory was in use: bodies in flight, not garbage) doubles the gap, up to MAX_GAP_MS.
 */

export interface MemoryLimitOptions {
  /** Resident bytes past which a collection is asked for. */
  limitBytes: number;
  /** How much the resident set must have grown over its low since the last collection: a sixteenth of the limit unless given. */
  growthBytes?: number;
  /** How often the resident set is read. */
  checkMs?: number;
  /** The least time between two collections. */
  gapMs?: number;
  /** The process's resident bytes (tests give their own). */
  rss?: () => number;
  /** A full, synchronous collection (tests give their own). */
  collect?: () => void;
  /** The clock the gap is measured on, in ms: `performance.now()` unless a test gives its own. */
  now?: () => number;
}

const CHECK_MS = 100;
const GAP_MS = 250;
const MAX_GAP_MS = 8000;
/** The share of the limit the resident set must have grown by. */
const GROWTH_SHARE = 1 / 16;

export class MemoryLimit {
  /** Collections asked for since the start, and the time they held the event loop. */
  collections = 0;
  pauseSeconds = 0;
  private last = Number.NEGATIVE_INFINITY;
  /** The least resident size read since the last collection. */
  private low = Number.POSITIVE_INFINITY;
  /** The resident size when the last collection was asked for. */
  private atLast = Number.NaN;
  private gap: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly rss: () => number;
  private readonly collect: () => void;
  private readonly now: () => number;

  constructor(private readonly options: MemoryLimitOptions) {
    this.rss = options.rss ?? (() => process.memoryUsage.rss());
    this.collect = options.collect ?? (() => Bun.gc(true));
    this.now = options.now ?? (() => performance.now());
    this.gap = options.gapMs ?? GAP_MS;
    this.timer = setInterval(() => this.check(), options.checkMs ?? CHECK_MS);
    this.timer.unref();
  }

  /** Collects when the process is past its limit, has grown since its low, and the last collection is a gap away. */
  check(): boolean {
    const started = this.now();
    const rss = this.rss();
    this.low = Math.min(this.low, rss);
    const growth = this.options.growthBytes ?? this.options.limitBytes * GROWTH_SHARE;
    // What the last collection gave back so far says whether collecting helps: if not, the gap grows.
    const helped = !(this.atLast - this.low < growth);
    const base = this.options.gapMs ?? GAP_MS;
    const gap = helped ? base : this.gap;
    if (rss <= this.options.limitBytes || rss - this.low < growth || started - this.last < gap) return false;
    this.gap = helped ? base : Math.min(gap * 2, Math.max(MAX_GAP_MS, base));
    this.collect();
    const after = this.now();
    this.pauseSeconds += (after - started) / 1000;
    this.collections++;
    this.last = after;
    this.atLast = rss;
    this.low = Number.POSITIVE_INFINITY;
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
