/**
 * Large bodies written as compressed parts: each part is a raw deflate stream ended by a full flush
 * (no back-references across parts), so any run of parts in order, between a gzip header and a
 * trailer, is one valid gzip member. The writer (doc-writer.ts) keeps each document's plain and
 * compressed bytes in files, so neither form is held in memory nor made per request.
 */
import { constants, deflateRawSync } from "node:zlib";

/** Plain bytes per part: small enough that inflating one is a short slice of the event loop. */
export const PART_BYTES = 64 * 1024;

export interface Part {
  plainBytes: number;
  /** CRC-32 of the plain bytes. */
  crc: number;
  deflated: Uint8Array;
}

const encoder = new TextEncoder();

export function deflatePart(plain: Uint8Array | string): Part {
  const bytes = typeof plain === "string" ? encoder.encode(plain) : plain;
  const deflated = deflateRawSync(bytes, { level: 6, finishFlush: constants.Z_FULL_FLUSH });
  return { plainBytes: bytes.byteLength, crc: Bun.hash.crc32(bytes), deflated };
}

/** The plain bytes of `part`. */
export function inflatePart(part: Part): Uint8Array {
  // The part ends in a flush, not a final block: one is appended so the inflater sees a whole stream.
  const stream = new Uint8Array(part.deflated.byteLength + FINAL_BLOCK.byteLength);
  stream.set(part.deflated);
  stream.set(FINAL_BLOCK, part.deflated.byteLength);
  return Bun.inflateSync(stream, { windowBits: -15 });
}

export const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block with fixed codes: ends the deflate stream the parts left open. */
export const FINAL_BLOCK = new Uint8Array([3, 0]);

/** The end of a gzip member: the final block, then the CRC-32 and length of the plain bytes. */
export function gzipEnd(crc: number, plainBytes: number): Uint8Array {
  const end = new Uint8Array(FINAL_BLOCK.byteLength + 8);
  end.set(FINAL_BLOCK);
  const view = new DataView(end.buffer);
  view.setUint32(FINAL_BLOCK.byteLength, crc >>> 0, true);
  view.setUint32(FINAL_BLOCK.byteLength + 4, plainBytes % 2 ** 32, true);
  return end;
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

/**
 * Writes text into parts of about PART_BYTES as it comes, keeping a running CRC-32 and hash; each
 * part goes to `sink` when one is given (with its plain bytes), else is kept in `parts`.
 */
export class PartWriter {
  readonly parts: Part[] = [];
  crc = 0;
  plainBytes = 0;
  /** A hash of every byte written, chained part by part: a strong validator of the whole. */
  hash = 0n;
  private pending: string[] = [];
  private pendingChars = 0;

  constructor(private readonly sink?: (plain: Uint8Array, part: Part) => void) {}

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
    if (this.sink) this.sink(bytes, part);
    else this.parts.push(part);
    this.crc = crc32Combine(this.crc, part.crc, part.plainBytes);
    this.plainBytes += part.plainBytes;
    this.hash = BigInt(Bun.hash(bytes, this.hash));
  }
}
