/**
 * A soft memory limit, as Go's GOMEMLIMIT is one. The runtime's collector paces itself by the
 * JavaScript heap it sees, not by what the process holds (response bodies, the database's pages,
 * the allocators' free lists), so under a stream of distinct requests the resident set climbs tens
 * of MB past its working size before a collection comes. Past the limit a full collection is asked
 * for, and the freed memory goes back to the system.
 *
 * A collection holds the event loop (tens of ms at a large catalog), so it is asked for only when
 * the resident set has grown by a sixteenth of the limit over the least it was since the last one: a process
 * whose working size sits at or past its limit is not collected again and again for nothing, and
 * at most one collection runs per gap.
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
}

const CHECK_MS = 100;
const GAP_MS = 250;
/** The share of the limit the resident set must have grown by. */
const GROWTH_SHARE = 1 / 16;

export class MemoryLimit {
  /** Collections asked for since the start, and the time they held the event loop. */
  collections = 0;
  pauseSeconds = 0;
  private last = Number.NEGATIVE_INFINITY;
  /** The least resident size read since the last collection. */
  private low = Number.POSITIVE_INFINITY;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly rss: () => number;
  private readonly collect: () => void;

  constructor(private readonly options: MemoryLimitOptions) {
    this.rss = options.rss ?? (() => process.memoryUsage.rss());
    this.collect = options.collect ?? (() => Bun.gc(true));
    this.timer = setInterval(() => this.check(), options.checkMs ?? CHECK_MS);
    this.timer.unref();
  }

  /** Collects when the process is past its limit, has grown since its low, and the last collection is a gap away. */
  check(): boolean {
    const started = performance.now();
    const rss = this.rss();
    this.low = Math.min(this.low, rss);
    const grown = rss - this.low >= (this.options.growthBytes ?? this.options.limitBytes * GROWTH_SHARE);
    if (rss <= this.options.limitBytes || !grown || started - this.last < (this.options.gapMs ?? GAP_MS)) return false;
    this.collect();
    const after = performance.now();
    this.pauseSeconds += (after - started) / 1000;
    this.collections++;
    this.last = after;
    this.low = Number.POSITIVE_INFINITY;
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
