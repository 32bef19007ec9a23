/**
 * A document kept in files, in both forms (plain and gzip), each form a run of pieces: regions of
 * files and a few small texts held in memory. A whole file is handed to the server as a file (it
 * sends it from the kernel's cache, the process never holds it); a small body is read at once; a
 * large run of pieces is streamed, read a chunk at a time as the reader takes it.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import type { DirectUnderlyingSource } from "bun";

/** A region of a file, or bytes in memory. */
export type Piece = { path: string; offset: number; length: number } | { bytes: Uint8Array };

/**
 * Bodies up to this size are sent whole: Bun frames a streamed body as chunked whatever its
 * Content-Length says, so only a whole body carries its length.
 */
export const WHOLE_BYTES = 1024 * 1024;

/** Bytes read from a file per chunk of a stream. */
const CHUNK_BYTES = 256 * 1024;

const pieceLength = (piece: Piece) => ("bytes" in piece ? piece.bytes.byteLength : piece.length);

/** Adjacent regions of one file as one region. */
function coalesced(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (pieceLength(piece) === 0) continue;
    const last = out.at(-1);
    if (
      last &&
      "path" in last &&
      "path" in piece &&
      last.path === piece.path &&
      last.offset + last.length === piece.offset
    ) {
      out[out.length - 1] = { ...last, length: last.length + piece.length };
    } else out.push(piece);
  }
  return out;
}

/** The pieces covering bytes [start, end) of a run of pieces, cut to them. */
function within(pieces: readonly Piece[], start: number, end: number): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const piece of pieces) {
    const length = pieceLength(piece);
    const from = Math.max(start, at);
    const to = Math.min(end, at + length);
    if (from < to) {
      out.push(
        "bytes" in piece
          ? { bytes: piece.bytes.subarray(from - at, to - at) }
          : { path: piece.path, offset: piece.offset + from - at, length: to - from },
      );
    }
    at += length;
  }
  return out;
}

/** The bytes of `pieces` read now (a small body), each file opened once. */
function readAll(pieces: readonly Piece[], total: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(total);
  const open = new Map<string, number>();
  try {
    let at = 0;
    for (const piece of pieces) {
      if ("bytes" in piece) out.set(piece.bytes, at);
      else {
        let fd = open.get(piece.path);
        if (fd === undefined) {
          fd = openSync(piece.path, "r");
          open.set(piece.path, fd);
        }
        for (let done = 0; done < piece.length; ) {
          const read = readSync(fd, out, at + done, piece.length - done, piece.offset + done);
          if (read === 0) throw new Error(`${piece.path} ends before its recorded length`);
          done += read;
        }
      }
      at += pieceLength(piece);
    }
  } finally {
    for (const fd of open.values()) closeSync(fd);
  }
  return out;
}

/**
 * The bytes of `pieces` as a stream, written a chunk of a file (or one piece in memory) at a time as
 * the reader takes them. For a server's response (`sent`) every chunk is read into one buffer the
 * stream reuses: Bun's HTTP sink sends or copies what it is written before the write returns, so a
 * body of any size leaves no garbage behind (an 80 MB answer would otherwise leave 80 MB for the
 * collector), and the reading stops when the client has gone. Any other reader holds on to what it
 * is written, so it gets a fresh chunk each time.
 */
function streamed(pieces: readonly Piece[], sent?: AbortSignal): ReadableStream<Uint8Array> {
  const source: DirectUnderlyingSource<Uint8Array> = {
    type: "direct",
    async pull(controller) {
      const reused = sent ? new Uint8Array(CHUNK_BYTES) : null;
      for (const piece of pieces) {
        if (sent?.aborted) break;
        if ("bytes" in piece) {
          await controller.write(piece.bytes);
          continue;
        }
        const file = await open(piece.path, "r");
        try {
          for (let done = 0; done < piece.length && !sent?.aborted; ) {
            const length = Math.min(CHUNK_BYTES, piece.length - done);
            const chunk = reused?.subarray(0, length) ?? new Uint8Array(length);
            const { bytesRead } = await file.read(chunk, 0, length, piece.offset + done);
            if (bytesRead === 0) throw new Error(`${piece.path} ends before its recorded length`);
            await controller.write(chunk.subarray(0, bytesRead));
            done += bytesRead;
          }
        } finally {
          await file.close();
        }
      }
      controller.close();
    },
  };
  // The DOM library's constructor types hide Bun's overload for a direct source.
  return new ReadableStream(source as unknown as UnderlyingDefaultSource<Uint8Array>);
}

/** A document's two forms, each a run of pieces. */
export class FileBody {
  readonly plainLength: number;
  readonly gzipLength: number;
  private readonly plain: Piece[];
  private readonly gzip: Piece[];

  constructor(plain: readonly Piece[], gzip: readonly Piece[]) {
    this.plain = coalesced(plain);
    this.gzip = coalesced(gzip);
    this.plainLength = this.plain.reduce((sum, piece) => sum + pieceLength(piece), 0);
    this.gzipLength = this.gzip.reduce((sum, piece) => sum + pieceLength(piece), 0);
  }

  length(gzip: boolean): number {
    return gzip ? this.gzipLength : this.plainLength;
  }

  /**
   * Bytes [start, end) of the chosen form: one region of a file as the file itself, up to
   * WHOLE_BYTES of several pieces read at once, more as a stream. `sent`: the body is a server's
   * response, and this signal says its client has gone (see `streamed`).
   */
  body(gzip: boolean, start = 0, end = this.length(gzip), sent?: AbortSignal): Blob | ReadableStream<Uint8Array> {
    const pieces = within(gzip ? this.gzip : this.plain, start, end);
    const only = pieces.length === 1 ? pieces[0]! : null;
    if (only !== null && "path" in only) return Bun.file(only.path).slice(only.offset, only.offset + only.length);
    if (end - start <= WHOLE_BYTES) return new Blob([readAll(pieces, end - start)]);
    return streamed(pieces, sent);
  }
}
