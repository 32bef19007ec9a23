/**
 * Event-loop lag: how late a timer due every INTERVAL_MS fires. A late timer means some work held
 * the loop and every request waited behind it; the figures are read by whoever reports them.
 */
const INTERVAL_MS = 100;

export interface LagFigures {
  /** The lag of the last tick, in milliseconds. */
  lastMs: number;
  /** The largest lag since the figures were last taken (`take`). */
  maxMs: number;
  /** The largest lag since the measurement began. */
  maxEverMs: number;
  /** Ticks measured since the measurement began. */
  ticks: number;
}

export class EventLoopLag {
  private timer: ReturnType<typeof setInterval> | null = null;
  private expected = 0;
  private figures: LagFigures = { lastMs: 0, maxMs: 0, maxEverMs: 0, ticks: 0 };

  constructor(private readonly intervalMs = INTERVAL_MS) {}

  /** Begins measuring; the timer never keeps the process alive. */
  start(): this {
    if (this.timer !== null) return this;
    this.expected = performance.now() + this.intervalMs;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref?.();
    return this;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The figures now, the window's maximum kept. */
  get current(): Readonly<LagFigures> {
    return { ...this.figures };
  }

  /** The figures now, starting a new window for `maxMs`. */
  take(): Readonly<LagFigures> {
    const figures = { ...this.figures };
    this.figures.maxMs = 0;
    return figures;
  }

  private tick(): void {
    const now = performance.now();
    const lag = Math.max(0, now - this.expected);
    this.expected = now + this.intervalMs;
    const f = this.figures;
    f.lastMs = lag;
    f.maxMs = Math.max(f.maxMs, lag);
    f.maxEverMs = Math.max(f.maxEverMs, lag);
    f.ticks++;
  }
}

/** The process's measurement, begun by the entry point. */
export const eventLoopLag = new EventLoopLag();
