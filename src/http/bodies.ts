/**
 * Memory for response bodies, reused. A body is written into a buffer of the next power-of-two
 * size, and the response cache gives the buffer back when it drops the body, so a stream of
 * distinct requests recycles the same buffers. A dropped buffer is otherwise old garbage that the
 * runtime frees only at a full collection, and forcing one stalls the requests that follow it.
 */

/** Smallest and largest pooled buffer; a larger body gets a buffer of its own. */
const MIN_POOLED_BYTES = 1024;
const MAX_POOLED_BYTES = 1024 * 1024;

function sizeClass(length: number): number {
  return Math.max(MIN_POOLED_BYTES, 2 ** Math.ceil(Math.log2(length)));
}

export class BodyPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private readonly owned = new WeakSet<ArrayBuffer>();
  private freeBytes = 0;
  /** Bytes of free buffers kept for reuse; the response caches raise it to their budget. */
  maxFreeBytes = 0;

  /** A view of `length` bytes at the start of a pooled buffer (a buffer of its own when large). */
  take(length: number): Buffer {
    if (length > MAX_POOLED_BYTES) return Buffer.allocUnsafe(length);
    const size = sizeClass(length);
    let buffer = this.free.get(size)?.pop();
    if (buffer === undefined) {
      buffer = new ArrayBuffer(size);
      this.owned.add(buffer);
    } else {
      this.freeBytes -= size;
    }
    return Buffer.from(buffer, 0, length);
  }

  /** `body` copied into a pooled buffer. */
  copy(body: Uint8Array): Buffer {
    const copied = this.take(body.byteLength);
    copied.set(body);
    return copied;
  }

  /** Gives a body's buffer back for reuse: nothing may read the body after. */
  give(body: Uint8Array): void {
    const buffer = body.buffer as ArrayBuffer;
    if (!this.owned.has(buffer) || this.freeBytes + buffer.byteLength > this.maxFreeBytes) return;
    const list = this.free.get(buffer.byteLength);
    if (list === undefined) this.free.set(buffer.byteLength, [buffer]);
    else list.push(buffer);
    this.freeBytes += buffer.byteLength;
  }
}

/** The pool every rendering takes its body from. */
export const bodies = new BodyPool();
