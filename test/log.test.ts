/** The process log: JSON lines with a time and an event, batched, secrets redacted, on any file descriptor. */
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLog, isoNow, lineSinkVia, MAX_LINE_BYTES, type LineSink, type ProcessLog } from "../src/log";
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

/** Writes a line of an event and its fields, already JSON, through a LineSink, as the request log does. */
function jsonLine(sink: LineSink, event: string, members: string): void {
  const head = sink.head();
  const rest = sink.encode(`${JSON.stringify(event)}${members ? "," : ""}${members}}\n`);
  let at = sink.begin(head.byteLength + rest.byteLength);
  sink.bytes.set(head, at);
  at += head.byteLength;
  sink.bytes.set(rest, at);
  sink.end(at + rest.byteLength);
}

/** A log writing to a fresh temp file. */
function logFile(): LogFile {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "process.log");
  const fd = openSync(path, "w");
  const log = createLog(fd);
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
    jsonLine(log.lines, "request", '"method":"GET","route":"/api/v1/plugins","status":200,"durationMs":0.25,"cache":"hit"');
    log.log("refresh.done", { nested: { ids: ["a/b", "c/d"], ok: true }, missing: null, text: 'quote " slash \\ newline \n 中文 😀' });
    jsonLine(log.lines, "request", '"method":"HEAD","route":null,"status":404,"durationMs":null,"cache":null,"ip":"203.0.113.9"');
    jsonLine(log.lines, "we\"ird\nevent", '"n":1');
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
      { event: "refresh.done", nested: { ids: ["a/b", "c/d"], ok: true }, missing: null, text: 'quote " slash \\ newline \n 中文 😀' },
      { event: "request", method: "HEAD", route: null, status: 404, durationMs: null, cache: null, ip: "203.0.113.9" },
      { event: "we\"ird\nevent", n: 1 },
    ]);
  });

  test("many lines from both entry points stay in order", () => {
    const { log, lines } = logFile();
    for (let i = 0; i < 500; i++) {
      if (i % 2) jsonLine(log.lines, "tick", `"i":${i}`);
      else log.log("tick", { i });
    }
    log.flush();
    expect(lines().map((l) => l.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  test("lines are gathered: nothing is written until a flush, then all of them once", () => {
    const { log, text, lines } = logFile();
    log.log("a", { n: 1 });
    jsonLine(log.lines, "b", '"n":2');
    expect(text()).toBe("");
    log.flush();
    expect(lines().map((l) => l.event)).toEqual(["a", "b"]);
    log.flush();
    expect(lines()).toHaveLength(2);
  });

  test("more lines than a 64 KiB batch holds go out without a flush, whole lines, in order", () => {
    const { log, text, lines } = logFile();
    const filler = "x".repeat(1000);
    for (let i = 0; i < 70; i++) jsonLine(log.lines, "bulk", `"i":${i},"filler":"${filler}"`);
    // Over 70 KB written: at least one batch is out already, made of whole lines.
    const early = text();
    expect(early.length).toBeGreaterThan(32 * 1024);
    expect(early.endsWith("\n")).toBe(true);
    const earlyLines = early.slice(0, -1).split("\n").map((line) => JSON.parse(line) as { i: number });
    expect(earlyLines.map((l) => l.i)).toEqual(Array.from({ length: earlyLines.length }, (_, i) => i));
    log.flush();
    expect(lines().map((l) => [l.i, l.filler])).toEqual(Array.from({ length: 70 }, (_, i) => [i, filler]));
  });

  test("lines of multi-byte text across many batches arrive whole and in order", () => {
    const { log, lines } = logFile();
    const text = (i: number) => `${i} Résumé 中文 😀 «${"é中😀".repeat(i % 97)}»`;
    for (let i = 0; i < 3000; i++) {
      if (i % 2) jsonLine(log.lines, "utf8", `"i":${i},"text":${JSON.stringify(text(i))}`);
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
    jsonLine(log.lines, "small", '"n":2');
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

  test("a byte line longer than MAX_LINE_BYTES is refused before anything is written", () => {
    const { log, text } = logFile();
    expect(() => log.lines.begin(MAX_LINE_BYTES + 1)).toThrow(RangeError);
    log.flush();
    expect(text()).toBe("");
  });

  test("fields named time or event do not replace the line's own", () => {
    const { log, lines } = logFile();
    setSystemTime(new Date("2031-02-03T04:05:06.007Z"));
    log.log("real", { time: "forged", event: "forged", n: 1 });
    log.flush();
    expect(lines()).toEqual([{ time: "2031-02-03T04:05:06.007Z", event: "real", n: 1 }]);
  });

  test("pending lines are written soon without a flush", async () => {
    const { log, text, lines } = logFile();
    log.log("later", { n: 1 });
    for (let waited = 0; text() === "" && waited < 1500; waited += 10) await Bun.sleep(10);
    expect(lines().map((l) => l.event)).toEqual(["later"]);
  });
});

describe("redact", () => {
  test("hides a secret in log and json lines, wherever it appears in them", () => {
    const { log, text, lines } = logFile();
    const secret = "ghp_S3cr3tT0ken";
    log.redact(secret);
    log.log("refresh.failed", { error: `401 for Authorization: token ${secret}`, [`key-${secret}`]: secret });
    jsonLine(log.lines, "upstream", `"message":${JSON.stringify(`echo ${secret} and ${secret}`)}`);
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
    jsonLine(log.lines, "failed", `"error":${JSON.stringify(`bad ${secret} here`)}`);
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
    jsonLine(first.log.lines, "e", '"text":"plain text"');
    first.log.flush();
    expect(first.text()).not.toContain("[redacted]");
    expect(first.lines().map((l) => l.text)).toEqual(["plain text", "plain text"]);
  });
});

describe("isoNow", () => {
  /** isoNow() and Date.now() read within one millisecond. */
  function stableNow(): { ms: number; iso: string } {
    for (;;) {
      const before = Date.now();
      const iso = isoNow();
      if (Date.now() === before) return { ms: before, iso };
    }
  }

  test("equals new Date().toISOString() at the same millisecond", () => {
    for (let i = 0; i < 20; i++) {
      const { ms, iso } = stableNow();
      expect(iso).toBe(new Date(ms).toISOString());
    }
  });

  test("changes when the clock moves on", () => {
    const first = stableNow();
    while (Date.now() === first.ms) {
      // Wait for the next millisecond.
    }
    const next = stableNow();
    expect(next.ms).toBeGreaterThan(first.ms);
    expect(next.iso).not.toBe(first.iso);
    expect(next.iso).toBe(new Date(next.ms).toISOString());
  });

  test("follows a clock set by the test, a millisecond at a time", () => {
    setSystemTime(new Date("2030-01-02T03:04:05.006Z"));
    expect(isoNow()).toBe("2030-01-02T03:04:05.006Z");
    setSystemTime(new Date("2030-01-02T03:04:05.007Z"));
    expect(isoNow()).toBe("2030-01-02T03:04:05.007Z");
    setSystemTime(new Date("2029-12-31T23:59:59.999Z"));
    expect(isoNow()).toBe("2029-12-31T23:59:59.999Z");
  });

  test("log lines carry it as their time", () => {
    const { log, lines } = logFile();
    setSystemTime(new Date("2031-05-06T07:08:09.010Z"));
    log.log("a", {});
    jsonLine(log.lines, "b", '"n":1');
    setSystemTime(new Date("2031-05-06T07:08:09.011Z"));
    jsonLine(log.lines, "c", '"n":2');
    log.flush();
    expect(lines().map((l) => [l.event, l.time])).toEqual([
      ["a", "2031-05-06T07:08:09.010Z"],
      ["b", "2031-05-06T07:08:09.010Z"],
      ["c", "2031-05-06T07:08:09.011Z"],
    ]);
  });
});

describe("lineSinkVia", () => {
  test("parses each line and hands its event and fields to the log", () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    const sink = lineSinkVia((event, fields) => calls.push([event, fields]));
    jsonLine(sink, "request", '"method":"GET","route":"/x","status":200,"durationMs":1.5,"cache":"miss"');
    jsonLine(sink, "request", '"route":null,"ip":"::1","nested":{"a":[1,null,"\\"q\\""]},"text":"中文 😀"');
    expect(calls).toEqual([
      ["request", { method: "GET", route: "/x", status: 200, durationMs: 1.5, cache: "miss" }],
      ["request", { route: null, ip: "::1", nested: { a: [1, null, '"q"'] }, text: "中文 😀" }],
    ]);
  });

  test("a line through lineSinkVia into a process log reads the same as one written to the process log's sink", () => {
    const { log, lines } = logFile();
    const members = '"method":"GET","status":304,"cache":"hit"';
    setSystemTime(new Date("2031-01-01T00:00:00.000Z"));
    jsonLine(lineSinkVia(log.log), "request", members);
    jsonLine(log.lines, "request", members);
    log.flush();
    const [via, direct] = lines();
    expect(via).toEqual(direct!);
    expect(via).toEqual({ time: "2031-01-01T00:00:00.000Z", event: "request", method: "GET", status: 304, cache: "hit" });
  });
});
