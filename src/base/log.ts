/**
 * The process log: one JSON object per line on stdout, gathered and written in batches (a write
 * per line costs a system call each). A batch goes out at 64 KiB, after 50 ms, and at exit.
 */
import { writeSync } from "node:fs";

export type Log = (event: string, fields: Record<string, unknown>) => void;

/**
 * Secrets kept out of every line printed, whoever put them in a message (an upstream error that
 * echoes the Authorization header, say): the one redaction of the server and `bun run refresh`.
 */
export class Secrets {
  private readonly hidden: string[] = [];

  /** Hides `secret` from now on, as written and as it appears inside a JSON string; empty is ignored. */
  add(secret: string | undefined): void {
    if (!secret) return;
    for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
      if (!this.hidden.includes(form)) this.hidden.push(form);
    }
  }

  /** `text` with every secret replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.hidden) if (out.includes(secret)) out = out.replaceAll(secret, "[redacted]");
    return out;
  }
}

const BATCH_BYTES = 64 * 1024;
const MAX_DELAY_MS = 50;

export interface ProcessLog {
  log: Log;
  /** Writes every pending line now. */
  flush: () => void;
  /** Replaces `secret` with [redacted] in every later line; empty or absent secrets are ignored. */
  redact: (secret: string | undefined) => void;
}

/** Runs `run` once after `ms` and answers how to cancel it. */
export type Later = (run: () => void, ms: number) => () => void;

function setTimeoutLater(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
}

/**
 * A log writing to the file descriptor `fd` (stdout by default). `later` schedules the delayed
 * write of a batch (`setTimeout` by default; a test gives its own to run it without waiting).
 */
export function createLog(fd = 1, later: Later = setTimeoutLater): ProcessLog {
  const secrets = new Secrets();
  let pending: string[] = [];
  let pendingChars = 0;
  let cancel: (() => void) | null = null;

  const flush = () => {
    cancel?.();
    cancel = null;
    if (pending.length === 0) return;
    const bytes = Buffer.from(pending.join(""), "utf8");
    pending = [];
    pendingChars = 0;
    // A blocking write: when the reader is slow the process waits rather than losing lines.
    for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done);
  };

  const log: Log = (event, fields) => {
    const time = new Date().toISOString();
    // time and event lead every line, and a field of either name cannot replace them.
    const record = { time, event, ...fields };
    record.time = time;
    record.event = event;
    const line = secrets.redact(`${JSON.stringify(record)}\n`);
    pending.push(line);
    pendingChars += line.length;
    if (pendingChars >= BATCH_BYTES) flush();
    else cancel ??= later(flush, MAX_DELAY_MS);
  };

  process.on("exit", flush);
  return { log, flush, redact: (secret) => secrets.add(secret) };
}
