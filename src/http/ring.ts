/**
 * Memory for cached response bodies: a ring of fixed segments, each allocated once. Bodies are
 * copied in at the head; when the head moves on to a segment already used, every body written
 * there is dropped. Memory never churns, so the process stays at the budget: with one buffer per
 * body, evicted buffers were old garbage the runtime freed late, and a stream of distinct requests
 * grew the process to several times the budget.
 *
 * A view handed out stays valid until its segment is reused, which takes the whole ring's worth of
 * newer bodies. That is safe because Bun copies a body into the Response when it is built, in
 * the same turn as the handler that returned the view.
 */

interface Segment {
  bytes: Uint8Array | null;
  /** Keys of the bodies written into the segment since it was last reused. */
  keys: string[];
}

const MIN_SEGMENT_BYTES = 64 * 1024;
const MAX_SEGMENT_BYTES = 1024 * 1024;
/** Segments per ring when the budget allows: dropping one drops a sixteenth of the cache. */
const SEGMENTS = 16;

export interface Stored {
  view: Uint8Array;
  /** Sequence number of the segment the body was written to. */
  seq: number;
}

export class BodyRing {
  readonly segmentBytes: number;
  private readonly segments: Segment[];
  private head = 0;
  private offset = 0;
  private seq = 0;

  /** `drop(key, seq)` is called for each body lost when its segment is reused. */
  constructor(budgetBytes: number, private readonly drop: (key: string, seq: number) => void) {
    this.segmentBytes = Math.min(MAX_SEGMENT_BYTES, Math.max(MIN_SEGMENT_BYTES, Math.floor(budgetBytes / SEGMENTS)));
    const count = Math.floor(budgetBytes / this.segmentBytes);
    // A ring needs two segments; a smaller budget caches nothing.
    this.segments = Array.from({ length: count >= 2 ? count : 0 }, () => ({ bytes: null, keys: [] }));
  }

  /** Bytes of the segments in use. */
  get usedBytes(): number {
    return this.segments.filter((s) => s.bytes !== null).length * this.segmentBytes;
  }

  /** Whether a body written at `seq` is in the older half of the ring, soon to be dropped. */
  isOld(seq: number): boolean {
    return this.seq - seq >= this.segments.length / 2;
  }

  /**
   * Writes `length` bytes for `key` with `fill`, which returns how many it wrote; `overhead` more
   * bytes of ring space are taken so the number of entries (and their keys and metadata) stays
   * bounded too. Null when the body does not fit a segment or `fill` did not write `length` bytes.
   */
  write(key: string, length: number, overhead: number, fill: (target: Uint8Array) => number): Stored | null {
    const need = length + overhead;
    if (this.segments.length === 0 || need > this.segmentBytes) return null;
    if (this.offset + need > this.segmentBytes) this.advance();
    const segment = this.segments[this.head]!;
    segment.bytes ??= new Uint8Array(this.segmentBytes);
    const view = segment.bytes.subarray(this.offset, this.offset + length);
    if (fill(view) !== length) return null;
    segment.keys.push(key);
    this.offset += need;
    return { view, seq: this.seq };
  }

  /** Copies `body` in for `key` (see `write`). */
  store(key: string, body: Uint8Array, overhead: number): Stored | null {
    return this.write(key, body.byteLength, overhead, (target) => (target.set(body), body.byteLength));
  }

  private advance(): void {
    this.head = (this.head + 1) % this.segments.length;
    this.offset = 0;
    const reused = this.segments[this.head]!;
    const reusedSeq = this.seq + 1 - this.segments.length;
    this.seq++;
    for (const key of reused.keys) this.drop(key, reusedSeq);
    reused.keys = [];
  }
}
