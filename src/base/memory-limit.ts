/**
 * A soft memory limit, as Go's GOMEMLIMIT is one. The runtime's collector paces itself by the
 * JavaScript heap it sees, not by what the process holds (response bodies, the database's pages,
 * the allocators' free lists), so under a stream of distinct requests the resident set climbs tens
 * of MB past its working size before a collection comes. Past the limit a full collection is asked
 * for, at most once per gap, and the freed memory goes back to the system. A process that stays
 * past its limit (a limit below its working size) doubles the gap after each collection, up to
 * MAX_GAP_MS, so a wrong limit costs little; the gap is back to its start once under the limit.
 */

export interface MemoryLimitOptions {
  /** Resident bytes past which a collection is asked for. */
  limitBytes: number;
  /** How often the resident set is read. */
  checkMs?: number;
  /** The least time between two collections, at first: a bound on what the limit may cost. */
  gapMs?: number;
  /** The process's resident bytes (tests give their own). */
  rss?: () => number;
  /** A full, synchronous collection (tests give their own). */
  collect?: () => void;
}

const CHECK_MS = 100;
const GAP_MS = 250;
const MAX_GAP_MS = 8000;

export class MemoryLimit {
  /** Collections asked for since the start, and the time they held the event loop. */
  collections = 0;
  pauseSeconds = 0;
  private last = Number.NEGATIVE_INFINITY;
  private gap: number;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly rss: () => number;
  private readonly collect: () => void;

  constructor(private readonly options: MemoryLimitOptions) {
    this.rss = options.rss ?? (() => process.memoryUsage.rss());
    this.collect = options.collect ?? (() => Bun.gc(true));
    this.gap = options.gapMs ?? GAP_MS;
    this.timer = setInterval(() => this.check(), options.checkMs ?? CHECK_MS);
    this.timer.unref();
  }

  /** Collects when the process is past its limit and the last collection is a gap away; true when it did. */
  check(): boolean {
    const started = performance.now();
    if (this.rss() <= this.options.limitBytes) {
      this.gap = this.options.gapMs ?? GAP_MS;
      return false;
    }
    if (started - this.last < this.gap) return false;
    this.collect();
    const after = performance.now();
    this.pauseSeconds += (after - started) / 1000;
    this.collections++;
    this.last = after;
    this.gap = Math.min(this.gap * 2, Math.max(MAX_GAP_MS, this.gap));
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
