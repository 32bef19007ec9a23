/**
 * The process log: one JSON object per line on stdout. Lines are gathered and written in batches,
 * because a write per request costs a system call each and, under load, a third of the throughput.
 * A batch goes out when it reaches 64 KiB, after 50 ms, and whatever is left when the process exits.
 * Secrets handed to `redact` never reach the output, whoever put them in a message (an upstream
 * error that echoes the Authorization header, say).
 */
import { writeSync } from "node:fs";

export type Log = (event: string, fields: Record<string, unknown>) => void;

/**
 * Lines written as bytes straight into a log's batch: the request log writes its line per request
 * this way, from parts encoded once (the line's head per millisecond, a route's fixed fields), so
 * no string is built, joined or encoded per request. A writer takes the offset from
 * `begin(maxBytes)`, writes at most that many bytes into `bytes` from there, and hands the offset
 * after its newline to `end`.
 */
export interface LineSink {
  /** Where lines are written; the same array for the sink's whole life. */
  readonly bytes: Uint8Array;
  /** The offset a line of at most `maxBytes` bytes starts at (a pending batch is written first when it lacks room). */
  begin(maxBytes: number): number;
  /** Ends the line that `begin` started: `offset` is just after its newline. */
  end(offset: number): void;
  /** `{"time":"<now>","event":` in UTF-8, the start of every line: made once per millisecond. */
  head(): Uint8Array;
  /** `text` in UTF-8 with the log's secrets redacted: for parts a writer encodes once and reuses. */
  encode(text: string): Uint8Array;
}

/** The most bytes a LineSink's line may take. */
export const MAX_LINE_BYTES = 16 * 1024;

/** A writer asking for room for a longer line has a bug: nothing is written. */
function checkLineBytes(maxBytes: number): void {
  if (maxBytes > MAX_LINE_BYTES) throw new RangeError(`A line of ${maxBytes} bytes is longer than ${MAX_LINE_BYTES}.`);
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The start of every line, up to its event name: `{"time":"<iso>","event":`. */
function lineHead(iso: string): Uint8Array {
  return utf8.encode(`{"time":"${iso}","event":`);
}

/** `text` with every secret replaced by `[redacted]`. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, "[redacted]");
  return out;
}

/**
 * A LineSink handing each line, parsed, to `log` (tests capture lines as objects this way). Its
 * head carries the time and no event name: the line's own event follows it.
 */
export function lineSinkVia(log: Log): LineSink {
  const bytes = new Uint8Array(MAX_LINE_BYTES);
  return {
    bytes,
    begin: (maxBytes) => {
      checkLineBytes(maxBytes);
      return 0;
    },
    end: (offset) => {
      const { time: _time, event, ...fields } = JSON.parse(utf8Decoder.decode(bytes.subarray(0, offset))) as Record<string, unknown>;
      log(String(event), fields);
    },
    head: () => lineHead(isoNow()),
    encode: (text) => utf8.encode(text),
  };
}

/** A batch goes out once it holds this many bytes. */
const BATCH_BYTES = 64 * 1024;
const MAX_DELAY_MS = 50;

let stampedAt = Number.NaN;
let stamp = "";

/** The current time in ISO 8601, formatted once per millisecond however many lines share it. */
export function isoNow(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

export interface ProcessLog {
  log: Log;
  /** The same log for lines written as bytes (the request log's). */
  lines: LineSink;
  /** Writes every pending line now. */
  flush: () => void;
  /** Replaces `secret` with [redacted] in every later line; empty or absent secrets are ignored. */
  redact: (secret: string | undefined) => void;
}

/** A log writing to the file descriptor `fd` (stdout by default). */
export function createLog(fd = 1): ProcessLog {
  // Lines are written into one buffer as they come and the buffer goes out in one system call:
  // cheaper per line than strings appended and encoded at the flush.
  const batch = Buffer.allocUnsafe(BATCH_BYTES + MAX_LINE_BYTES);
  let used = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const secrets: string[] = [];

  const writeAll = (bytes: Uint8Array, length: number) => {
    // A blocking write: when the reader is slow the process waits rather than losing lines.
    for (let done = 0; done < length; ) done += writeSync(fd, bytes, done, length - done);
  };

  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const length = used;
    used = 0;
    if (length > 0) writeAll(batch, length);
  };

  const written = (offset: number) => {
    used = offset;
    if (used >= BATCH_BYTES) flush();
    else timer ??= setTimeout(flush, MAX_DELAY_MS);
  };

  const begin = (maxBytes: number) => {
    checkLineBytes(maxBytes);
    if (used + maxBytes > batch.byteLength) flush();
    return used;
  };

  const write = (text: string) => {
    const line = withoutSecrets(text, secrets);
    // A UTF-16 code unit takes at most three bytes in UTF-8.
    const maxBytes = line.length * 3;
    if (maxBytes > MAX_LINE_BYTES) {
      flush();
      const bytes = Buffer.from(line, "utf8");
      writeAll(bytes, bytes.byteLength);
      return;
    }
    const at = begin(maxBytes);
    written(at + batch.write(line, at));
  };

  let headAt = Number.NaN;
  let head: Uint8Array = new Uint8Array(0);
  const lines: LineSink = {
    bytes: batch,
    begin,
    end: written,
    head: () => {
      const now = isoNow();
      if (stampedAt !== headAt) {
        headAt = stampedAt;
        head = lineHead(now);
      }
      return head;
    },
    encode: (text) => utf8.encode(withoutSecrets(text, secrets)),
  };

  const log: Log = (event, fields) => {
    const { time: _time, event: _event, ...rest } = fields;
    write(`${JSON.stringify({ time: isoNow(), event, ...rest })}\n`);
  };

  const redact = (secret: string | undefined) => {
    // As it appears inside a JSON string.
    if (secret) secrets.push(JSON.stringify(secret).slice(1, -1));
  };

  process.on("exit", flush);
  return { log, lines, flush, redact };
}
