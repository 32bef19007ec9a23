/**
 * Large bodies kept as compressed parts: each part is a raw deflate stream ended by a full flush
 * (no back-references across parts), so any run of parts in order, between a gzip header and a
 * trailer, is one valid gzip member. A document is sent gzip as stored, or plain by inflating one
 * part at a time as the first client without gzip reads it (kept then: a snapshot's plain form is
 * inflated once, and only if asked for); a byte range touches only the parts it covers.
 */
import { constants, deflateRawSync } from "node:zlib";

/** Plain bytes per part: small enough that inflating one is a short slice of the event loop. */
export const PART_BYTES = 64 * 1024;

export interface Part {
  plainBytes: number;
  /** CRC-32 of the plain bytes. */
  crc: number;
  deflated: Uint8Array;
  /** The plain bytes, kept once a client without gzip was sent them: inflated once per snapshot, not per client. */
  plain?: Uint8Array;
}

/** A run of parts with the CRC-32 and length of their plain bytes together. */
export interface Segment {
  parts: readonly Part[];
  crc: number;
  plainBytes: number;
}

const encoder = new TextEncoder();

export function deflatePart(plain: Uint8Array | string): Part {
  const bytes = typeof plain === "string" ? encoder.encode(plain) : plain;
  const deflated = deflateRawSync(bytes, { level: 6, finishFlush: constants.Z_FULL_FLUSH });
  return { plainBytes: bytes.byteLength, crc: Bun.hash.crc32(bytes), deflated };
}

/** Parts handed to responses so far, and how many of them were inflated: a HEAD or a 304 adds to neither (tests read it). */
export const partStats = { served: 0, inflated: 0 };

/** The plain bytes of `part`, inflated on first need and kept. */
export function inflatePart(part: Part): Uint8Array {
  if (part.plain === undefined) {
    partStats.inflated++;
    // The part ends in a flush, not a final block: one is appended so the inflater sees a whole stream.
    const stream = new Uint8Array(part.deflated.byteLength + FINAL_BLOCK.byteLength);
    stream.set(part.deflated);
    stream.set(FINAL_BLOCK, part.deflated.byteLength);
    part.plain = Bun.inflateSync(stream, { windowBits: -15 });
  }
  return part.plain;
}

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]!);
}

/** The CRC-32 of A followed by B from the CRCs of A and B and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  gf2Square(even, odd);
  gf2Square(odd, even);
  let crc = crcA >>> 0;
  let length = lengthB;
  for (;;) {
    gf2Square(even, odd);
    if (length % 2 === 1) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length % 2 === 1) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}

/** Segments one after another, each separated by `between` when given. */
export function joinSegments(segments: readonly Segment[], between?: Part): Segment {
  const parts: Part[] = [];
  let crc = 0;
  let plainBytes = 0;
  const add = (segment: Segment) => {
    parts.push(...segment.parts);
    crc = crc32Combine(crc, segment.crc, segment.plainBytes);
    plainBytes += segment.plainBytes;
  };
  for (const [i, segment] of segments.entries()) {
    if (i > 0 && between) add(partSegment(between));
    add(segment);
  }
  return { parts, crc, plainBytes };
}

export function partSegment(part: Part): Segment {
  return { parts: [part], crc: part.crc, plainBytes: part.plainBytes };
}

/** Writes text into parts of about PART_BYTES as it comes, keeping a running CRC-32 and hash. */
export class PartWriter {
  readonly parts: Part[] = [];
  crc = 0;
  plainBytes = 0;
  /** A hash of every byte written, chained part by part: a strong validator of the whole. */
  hash = 0n;
  private pending: string[] = [];
  private pendingChars = 0;

  write(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= PART_BYTES) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const bytes = encoder.encode(this.pending.join(""));
    this.pending = [];
    this.pendingChars = 0;
    const part = deflatePart(bytes);
    this.parts.push(part);
    this.crc = crc32Combine(this.crc, part.crc, part.plainBytes);
    this.plainBytes += part.plainBytes;
    this.hash = BigInt(Bun.hash(bytes, this.hash));
  }

  segment(): Segment {
    this.flush();
    return { parts: this.parts, crc: this.crc, plainBytes: this.plainBytes };
  }
}

/**
 * Bodies up to this size are sent whole: Bun frames a streamed body as chunked whatever its
 * Content-Length says, so only a whole body carries its length.
 */
export const WHOLE_BYTES = 1024 * 1024;

/** Time the streams may take from the event loop before they yield to it. */
const YIELD_MS = 4;
const streaming = { since: 0 };

const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block with fixed codes: ends the deflate stream the parts left open. */
const FINAL_BLOCK = new Uint8Array([3, 0]);

/** A document of parts, served plain or gzip, whole or as one byte range. */
export class PartsBody {
  readonly plainLength: number;
  readonly gzipLength: number;
  private readonly plainStarts: Float64Array;
  private readonly gzipPieces: Uint8Array[];
  private readonly gzipStarts: Float64Array;

  constructor(readonly segment: Segment) {
    const { parts } = segment;
    this.plainStarts = new Float64Array(parts.length + 1);
    for (const [i, part] of parts.entries()) this.plainStarts[i + 1] = this.plainStarts[i]! + part.plainBytes;
    this.plainLength = segment.plainBytes;
    const trailer = new Uint8Array(8);
    const view = new DataView(trailer.buffer);
    view.setUint32(0, segment.crc >>> 0, true);
    view.setUint32(4, segment.plainBytes % 2 ** 32, true);
    this.gzipPieces = [GZIP_HEADER, ...parts.map((part) => part.deflated), FINAL_BLOCK, trailer];
    this.gzipStarts = new Float64Array(this.gzipPieces.length + 1);
    for (const [i, piece] of this.gzipPieces.entries()) this.gzipStarts[i + 1] = this.gzipStarts[i]! + piece.byteLength;
    this.gzipLength = this.gzipStarts[this.gzipPieces.length]!;
  }

  length(gzip: boolean): number {
    return gzip ? this.gzipLength : this.plainLength;
  }

  /**
   * Bytes [start, end) of the chosen form: up to WHOLE_BYTES at once (a Blob: the server sends its
   * Content-Length), more as a stream made one part at a time as the reader asks for them.
   */
  body(gzip: boolean, start = 0, end = this.length(gzip)): Blob | ReadableStream<Uint8Array> {
    const chunks = this.chunks(gzip, start, end);
    if (end - start <= WHOLE_BYTES) return new Blob([...chunks] as Uint8Array<ArrayBuffer>[]);
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        // The server pulls again as soon as the socket takes more: every stream together yields
        // to the event loop after YIELD_MS of making parts, so other requests are answered between.
        if (performance.now() - streaming.since > YIELD_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          streaming.since = performance.now();
        }
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
  }

  private *chunks(gzip: boolean, start: number, end: number): Generator<Uint8Array> {
    const starts = gzip ? this.gzipStarts : this.plainStarts;
    const count = starts.length - 1;
    for (let i = pieceAt(starts, start); i < count && starts[i]! < end; i++) {
      const from = starts[i]!;
      if (starts[i + 1]! <= start || starts[i + 1] === from) continue;
      partStats.served++;
      // The plain form is inflated a part at a time as a reader first asks for it, then kept.
      const bytes = gzip ? this.gzipPieces[i]! : inflatePart(this.segment.parts[i]!);
      yield bytes.subarray(Math.max(0, start - from), Math.min(bytes.byteLength, end - from));
    }
  }
}

/** The index of the piece holding byte `offset` (the last piece starting at or before it). */
function pieceAt(starts: Float64Array, offset: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}
