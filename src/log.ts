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
 * Logs an event whose fields are already JSON: `members` is the text inside an object's braces,
 * such as `"status":200,"cache":"hit"`. The request log writes a line per request this way: one
 * template string instead of an object to spread and stringify.
 */
export type LogJson = (event: string, members: string) => void;

/** A LogJson that hands the parsed fields to `log` (tests capture lines as objects this way). */
export function logJsonVia(log: Log): LogJson {
  return (event, members) => log(event, JSON.parse(`{${members}}`) as Record<string, unknown>);
}

/** A batch goes out at this many characters (64 KiB or more in UTF-8). */
const MAX_BATCH_CHARS = 64 * 1024;
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
  json: LogJson;
  /** Writes every pending line now. */
  flush: () => void;
  /** Replaces `secret` with [redacted] in every later line; empty or absent secrets are ignored. */
  redact: (secret: string | undefined) => void;
}

const MAX_QUOTED = 256;
const quotedTexts = new Map<string, string>();

/**
 * `text` as a JSON string literal, for the few texts that recur in every line (event names,
 * methods, route patterns), each quoted once. Texts from clients may be anything: a bounded
 * number of them are remembered.
 */
export function quoted(text: string): string {
  let found = quotedTexts.get(text);
  if (found === undefined) {
    found = JSON.stringify(text);
    if (quotedTexts.size < MAX_QUOTED) quotedTexts.set(text, found);
  }
  return found;
}

/** A log writing to the file descriptor `fd` (stdout by default). */
export function createLog(fd = 1): ProcessLog {
  // Lines are appended to one string (a rope, flattened once per batch): cheaper per line than an
  // array to join, and than encoding each line into a buffer.
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  const secrets: string[] = [];

  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    const bytes = Buffer.from(pending, "utf8");
    pending = "";
    // A blocking write: when the reader is slow the process waits rather than losing lines.
    for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
  };

  const write = (text: string) => {
    let line = text;
    for (const secret of secrets) if (line.includes(secret)) line = line.replaceAll(secret, "[redacted]");
    pending += line;
    if (pending.length >= MAX_BATCH_CHARS) flush();
    else timer ??= setTimeout(flush, MAX_DELAY_MS);
  };

  const log: Log = (event, fields) => write(`${JSON.stringify({ time: isoNow(), event, ...fields })}\n`);
  const json: LogJson = (event, members) => write(`{"time":"${isoNow()}","event":${quoted(event)}${members ? "," : ""}${members}}\n`);

  const redact = (secret: string | undefined) => {
    // As it appears inside a JSON string.
    if (secret) secrets.push(JSON.stringify(secret).slice(1, -1));
  };

  process.on("exit", flush);
  return { log, json, flush, redact };
}
