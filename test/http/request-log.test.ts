/** The request log's lines through a real process log. */
import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { createLog } from "../../src/base/log";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { loadConfig } from "../../src/config";
import { tempDir } from "../helpers";
import { publishMarked } from "../reliability/support/catalog";

describe("request lines through the process log", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  /** An app whose request log writes into a process log on a temp file, as in production. */
  function loggedApp(env: Record<string, string> = {}) {
    const { dir, cleanup } = tempDir();
    const path = join(dir, "catalog.sqlite");
    publishMarked(path, "2026-01-02T03:04:05.678Z");
    const logPath = join(dir, "process.log");
    const fd = openSync(logPath, "w");
    const processLog = createLog(fd);
    const config = loadConfig({ RATE_LIMIT_WINDOW_MS: "0", REFRESH_CRON: "off", DATABASE_PATH: path, ...env });
    const store = new CatalogStore(path, { log: processLog.log });
    const app = createApp({ store, config, log: processLog.log });
    cleanups.push(() => {
      store.close();
      processLog.flush();
      closeSync(fd);
      cleanup();
    });
    const lines = () => {
      processLog.flush();
      const text = readFileSync(logPath, "utf8");
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.event === "request");
    };
    const call = (target: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${target}`, init));
    return { call, lines, processLog };
  }

  test("each request is one JSON line: time and event first, then its fields", async () => {
    const { call, lines } = loggedApp();
    await call("/api/v1/plugins");
    const hit = await call("/api/v1/plugins");
    await call("/api/v1/plugins", { headers: { "If-None-Match": hit.headers.get("etag")! } });
    await call("/nowhere");
    await call("/api/v1/plugins", { method: "DELETE" });
    const got = lines();
    expect(got.map(({ time, durationMs, ...rest }) => rest)).toEqual([
      { event: "request", method: "GET", route: "/api/v1/plugins", status: 200, cache: "miss" },
      { event: "request", method: "GET", route: "/api/v1/plugins", status: 200, cache: "hit" },
      { event: "request", method: "GET", route: "/api/v1/plugins", status: 304, cache: "hit" },
      { event: "request", method: "GET", route: null, status: 404, cache: null },
      { event: "request", method: "DELETE", route: "/api/v1/plugins", status: 405, cache: null },
    ]);
    for (const line of got) {
      expect(Object.keys(line).slice(0, 2)).toEqual(["time", "event"]);
      expect(Date.parse(line.time as string)).toBeGreaterThan(0);
      expect(typeof line.durationMs).toBe("number");
      expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
    }
  });

  test("thousands of lines across batches arrive whole and in order", async () => {
    const { call, lines } = loggedApp();
    for (let i = 0; i < 1500; i++) await call(i % 3 === 0 ? "/nowhere" : "/api/v1/plugins");
    const got = lines();
    expect(got).toHaveLength(1500);
    expect(got.map((line) => line.status)).toEqual(got.map((_, i) => (i % 3 === 0 ? 404 : 200)));
  });

  test("with LOG_CLIENT_IP the client's address ends the line", async () => {
    const { call, lines } = loggedApp({ LOG_CLIENT_IP: "true", TRUST_PROXY: "true" });
    await call("/api/v1/plugins", { headers: { "X-Forwarded-For": "6.6.6.6, 203.0.113.7" } });
    await call("/nowhere", { headers: { "X-Forwarded-For": "2001:db8::1" } });
    const got = lines();
    expect(got.map((l) => l.ip)).toEqual(["203.0.113.7", "2001:db8::1"]);
    for (const line of got) expect(Object.keys(line).at(-1)).toBe("ip");
  });

  test("the log's secrets are redacted from the request lines' fixed fields too", async () => {
    const { call, lines, processLog } = loggedApp();
    processLog.redact("PROPFIND");
    await call("/api/v1/plugins", { method: "PROPFIND" });
    const [line] = lines();
    expect(line!.method).toBe("[redacted]");
  });
});
