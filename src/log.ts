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

const MAX_BATCH_BYTES = 64 * 1024;
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

/** A log writing to the file descriptor `fd` (stdout by default). */
export function createLog(fd = 1): ProcessLog {
  let lines: string[] = [];
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const secrets: string[] = [];

  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (lines.length === 0) return;
    const batch = lines.join("");
    lines = [];
    bytes = 0;
    // A blocking write: when the reader is slow the process waits rather than losing lines.
    writeSync(fd, batch);
  };

  const write = (text: string) => {
    let line = text;
    for (const secret of secrets) if (line.includes(secret)) line = line.replaceAll(secret, "[redacted]");
    lines.push(line);
    bytes += line.length;
    if (bytes >= MAX_BATCH_BYTES) flush();
    else timer ??= setTimeout(flush, MAX_DELAY_MS);
  };

  const log: Log = (event, fields) => write(`${JSON.stringify({ time: isoNow(), event, ...fields })}\n`);
  const json: LogJson = (event, members) => write(`{"time":"${isoNow()}","event":${JSON.stringify(event)},${members}}\n`);

  const redact = (secret: string | undefined) => {
    // As it appears inside a JSON string.
    if (secret) secrets.push(JSON.stringify(secret).slice(1, -1));
  };

  process.on("exit", flush);
  return { log, json, flush, redact };
}
