/**
 * Renderings take turns. A request the response cache answers is answered at once; one that must
 * be rendered (a search, a cold page) waits for its turn, and one rendering runs per turn of the
 * event loop, so the server reads its sockets between two renderings. A burst of costly requests
 * that arrived together then holds a cheap one (a probe, a cached page) behind one rendering at
 * most, never behind all of them. The queue is bounded: past its bound a rendering is refused (503
 * with Retry-After), so a crowd gets told to come back instead of waiting ever longer.
 */

/** What a turn runs: it settles its own request and never throws. */
type Work = () => void;

export class Turns {
  private readonly waiting: Work[] = [];
  private scheduled = false;
  /** Renderings refused because the queue was full, since the start. */
  refused = 0;

  /** `max` renderings wait at most; 0 renders every request at once, in its own turn. */
  constructor(readonly max: number) {}

  /** Renderings waiting for their turn. */
  get length(): number {
    return this.waiting.length;
  }

  /** Whether renderings take turns at all. */
  get enabled(): boolean {
    return this.max > 0;
  }

  /** `work`'s value at its turn; null (and counted) when the queue is full. `work` must not throw. */
  take<T>(work: () => T): Promise<T> | null {
    if (this.length >= this.max) {
      this.refused++;
      return null;
    }
    return new Promise<T>((resolve) => {
      this.waiting.push(() => resolve(work()));
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // An immediate runs after the event loop has read its sockets: a request that arrived
    // meanwhile is answered before the next rendering.
    setImmediate(this.next);
  }

  private readonly next = (): void => {
    this.scheduled = false;
    // The queue is bounded (`max`), so taking from its front stays cheap.
    const work = this.waiting.shift();
    if (this.waiting.length > 0) this.schedule();
    work?.();
  };
}
