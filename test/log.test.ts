/** The process log: JSON lines with a time and an event, batched, secrets redacted, on any file descriptor. */
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLog, type Later, type ProcessLog } from "../src/base/log";
import { tempDir } from "./helpers";

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface LogFile {
  log: ProcessLog;
  /** The file's text so far. */
  text: () => string;
  /** Every line of the file, parsed. */
  lines: () => Array<Record<string, unknown>>;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  setSystemTime();
});

/** Writes a line of an event and its fields given as JSON members. */
function jsonLine(log: ProcessLog, event: string, members: string): void {
  log.log(event, JSON.parse(`{${members}}`) as Record<string, unknown>);
}

/** A log writing to a fresh temp file; `later` schedules its delayed writes (real timers by default). */
function logFile(later?: Later): LogFile {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "process.log");
  const fd = openSync(path, "w");
  const log = createLog(fd, later);
  cleanups.push(() => {
    log.flush();
    closeSync(fd);
    cleanup();
  });
  const text = () => readFileSync(path, "utf8");
  const lines = () => {
    const t = text();
    expect(t.endsWith("\n")).toBe(true);
    return t
      .slice(0, -1)
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { log, text, lines };
}

describe("createLog", () => {
  test("every line is one JSON object with time, event and the fields, in the order written", () => {
    const { log, lines } = logFile();
    const before = Date.now();
    log.log("server.listening", { url: "http://127.0.0.1:8080", port: 8080 });
    jsonLine(log, "request", '"method":"GET","route":"/api/v1/plugins","status":200,"durationMs":0.25,"cache":"hit"');
    log.log("refresh.done", {
      nested: { ids: ["a/b", "c/d"], ok: true },
      missing: null,
      text: 'quote " slash \\ newline \n 中文 😀',
    });
    jsonLine(
      log,
      "request",
      '"method":"HEAD","route":null,"status":404,"durationMs":null,"cache":null,"ip":"203.0.113.9"',
    );
    jsonLine(log, 'we"ird\nevent', '"n":1');
    log.flush();
    const after = Date.now();

    const got = lines();
    expect(got).toHaveLength(5);
    for (const line of got) {
      expect(Object.keys(line).slice(0, 2)).toEqual(["time", "event"]);
      expect(line.time as string).toMatch(ISO_8601);
      const time = Date.parse(line.time as string);
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(after);
    }
    // Lines are written in order: their times never go back.
    const times = got.map((l) => Date.parse(l.time as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(got.map(({ time, ...rest }) => rest)).toEqual([
      { event: "server.listening", url: "http://127.0.0.1:8080", port: 8080 },
      { event: "request", method: "GET", route: "/api/v1/plugins", status: 200, durationMs: 0.25, cache: "hit" },
      {
        event: "refresh.done",
        nested: { ids: ["a/b", "c/d"], ok: true },
        missing: null,
        text: 'quote " slash \\ newline \n 中文 😀',
      },
      { event: "request", method: "HEAD", route: null, status: 404, durationMs: null, cache: null, ip: "203.0.113.9" },
      { event: 'we"ird\nevent', n: 1 },
    ]);
  });

  test("many lines stay in order", () => {
    const { log, lines } = logFile();
    for (let i = 0; i < 500; i++) {
      if (i % 2) jsonLine(log, "tick", `"i":${i}`);
      else log.log("tick", { i });
    }
    log.flush();
    expect(lines().map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  test("lines are gathered: nothing is written until a flush, then all of them once", () => {
    const { log, text, lines } = logFile();
    log.log("a", { n: 1 });
    jsonLine(log, "b", '"n":2');
    expect(text()).toBe("");
    log.flush();
    expect(lines().map((l) => l.event)).toEqual(["a", "b"]);
    log.flush();
    expect(lines()).toHaveLength(2);
  });

  test("more lines than a 64 KiB batch holds go out without a flush, whole lines, in order", () => {
    const { log, text, lines } = logFile();
    const filler = "x".repeat(1000);
    for (let i = 0; i < 70; i++) jsonLine(log, "bulk", `"i":${i},"filler":"${filler}"`);
    // Over 70 KB written: at least one batch is out already, made of whole lines.
    const early = text();
    expect(early.length).toBeGreaterThan(32 * 1024);
    expect(early.endsWith("\n")).toBe(true);
    const earlyLines = early
      .slice(0, -1)
      .split("\n")
      .map((line) => JSON.parse(line) as { i: number });
    expect(earlyLines.map((l) => l.i)).toEqual(Array.from({ length: earlyLines.length }, (_, i) => i));
    log.flush();
    expect(lines().map((l) => [l.i, l.filler])).toEqual(Array.from({ length: 70 }, (_, i) => [i, filler]));
  });

  test("lines of multi-byte text across many batches arrive whole and in order", () => {
    const { log, lines } = logFile();
    const text = (i: number) => `${i} Résumé 中文 😀 «${"é中😀".repeat(i % 97)}»`;
    for (let i = 0; i < 3000; i++) {
      if (i % 2) jsonLine(log, "utf8", `"i":${i},"text":${JSON.stringify(text(i))}`);
      else log.log("utf8", { i, text: text(i) });
    }
    log.flush();
    const got = lines();
    expect(got).toHaveLength(3000);
    got.forEach((line, i) => {
      expect(line.i).toBe(i);
      expect(line.text).toBe(text(i));
    });
  });

  test("a line longer than a batch is written whole, after the lines before it and before those after", () => {
    const { log, lines } = logFile();
    const huge = `${"中".repeat(30_000)}${"a".repeat(70_000)}😀`;
    log.log("before", { n: 1 });
    jsonLine(log, "small", '"n":2');
    log.log("huge", { text: huge });
    log.log("after", { n: 3 });
    log.flush();
    expect(lines().map((l) => [l.event, l.event === "huge" ? l.text === huge : l.n])).toEqual([
      ["before", 1],
      ["small", 2],
      ["huge", true],
      ["after", 3],
    ]);
  });

  test("fields named time or event do not replace the line's own", () => {
    const { log, lines } = logFile();
    setSystemTime(new Date("2031-02-03T04:05:06.007Z"));
    log.log("real", { time: "forged", event: "forged", n: 1 });
    log.flush();
    expect(lines()).toEqual([{ time: "2031-02-03T04:05:06.007Z", event: "real", n: 1 }]);
  });

  test("pending lines are written soon without a flush", () => {
    // The delayed write, run when the test says its delay has passed.
    const scheduled: Array<{ run: () => void; ms: number }> = [];
    const { log, text, lines } = logFile((run, ms) => {
      scheduled.push({ run, ms });
      return () => {};
    });
    log.log("later", { n: 1 });
    log.log("later", { n: 2 });
    expect(text()).toBe("");
    expect(scheduled.map((s) => s.ms)).toEqual([50]);
    scheduled[0]!.run();
    expect(lines().map((l) => [l.event, l.n])).toEqual([
      ["later", 1],
      ["later", 2],
    ]);
  });
});

describe("redact", () => {
  test("hides a secret in log and json lines, wherever it appears in them", () => {
    const { log, text, lines } = logFile();
    const secret = "ghp_S3cr3tT0ken";
    log.redact(secret);
    log.log("refresh.failed", { error: `401 for Authorization: token ${secret}`, [`key-${secret}`]: secret });
    jsonLine(log, "upstream", `"message":${JSON.stringify(`echo ${secret} and ${secret}`)}`);
    log.flush();
    expect(text()).not.toContain(secret);
    expect(lines().map(({ time, ...rest }) => rest)).toEqual([
      { event: "refresh.failed", error: "401 for Authorization: token [redacted]", "key-[redacted]": "[redacted]" },
      { event: "upstream", message: "echo [redacted] and [redacted]" },
    ]);
  });

  test("hides a secret with characters JSON escapes (quote, backslash, control character)", () => {
    const { log, text, lines } = logFile();
    const secret = 'pa"ss\\wo\nrd\u0001!';
    log.redact(secret);
    log.redact("other-secret");
    log.log("failed", { error: `bad ${secret} here`, other: "other-secret" });
    jsonLine(log, "failed", `"error":${JSON.stringify(`bad ${secret} here`)}`);
    log.flush();
    const written = text();
    expect(written).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(written).not.toContain("other-secret");
    expect(lines().map(({ time, ...rest }) => rest)).toEqual([
      { event: "failed", error: "bad [redacted] here", other: "[redacted]" },
      { event: "failed", error: "bad [redacted] here" },
    ]);
  });

  test("an empty or absent secret changes nothing; another log is not affected", () => {
    const first = logFile();
    const second = logFile();
    first.log.redact("");
    first.log.redact(undefined);
    second.log.redact("plain");
    first.log.log("e", { text: "plain text" });
    jsonLine(first.log, "e", '"text":"plain text"');
    first.log.flush();
    expect(first.text()).not.toContain("[redacted]");
    expect(first.lines().map((l) => l.text)).toEqual(["plain text", "plain text"]);
  });
});
