/**
 * The life cycle of the real entry point: SIGTERM or SIGINT lets the request in flight finish,
 * refuses new connections and exits 0; logs are JSON lines, one per request, and never carry
 * the token.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Shutdown } from "../../src/lifecycle";
import { eventually } from "../helpers";
import { publishMarked, tempDir } from "./support/catalog";
import { ensureStopped, readByPeer, type Service, startService } from "./support/process";

let service: Service | undefined;
let cleanup: (() => void) | undefined;

afterEach(async () => {
  await ensureStopped(service);
  service = undefined;
  cleanup?.();
});

let path = "";

async function start(env: Record<string, string> = {}): Promise<Service> {
  const made = tempDir();
  cleanup = made.cleanup;
  path = join(made.dir, "catalog.sqlite");
  publishMarked(path, "2026-02-03T04:05:06.789Z");
  service = await startService({ DATABASE_PATH: path, ...env });
  return service;
}

/**
 * Opens a connection and sends all of a request but its final blank line: a request in flight,
 * there on the server once `arrived` (the server has read what was sent).
 */
async function requestInFlight(
  url: string,
  path: string,
): Promise<{ finish: () => void; response: Promise<string>; arrived: () => boolean }> {
  const { hostname, port } = new URL(url);
  let text = "";
  let done!: (text: string) => void;
  const response = new Promise<string>((resolve) => (done = resolve));
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data: (_s, chunk) => {
        text += chunk.toString();
      },
      close: () => done(text),
      error: () => done(text),
    },
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n`);
  return {
    finish: () => void socket.write("\r\n"),
    response,
    arrived: () => readByPeer(socket.localPort, Number(port)),
  };
}

describe("stopping", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal}: the request in flight completes, new connections are refused, exit 0`, async () => {
      const s = await start({ STOP_GRACE_MS: "0" });
      const inFlight = await requestInFlight(s.url, "/api/v1/plugins/owner1/repo-1");
      await eventually(inFlight.arrived, 5000, "the server reading the request's first lines");
      s.proc.kill(signal);
      await s.waitFor("server.stopping");
      // Once the stop reaches the listener, a new connection is refused (each try on a connection of its own).
      const refused = () =>
        fetch(`${s.url}/healthz`, { keepalive: false }).then(
          () => false,
          () => true,
        );
      await eventually(refused, 5000, "a new connection refused");
      inFlight.finish();
      const raw = await inFlight.response;
      expect(raw).toStartWith("HTTP/1.1 200");
      expect(raw).toContain('"id":"owner1/repo-1"');
      expect(await s.exited).toBe(0);
      expect(s.events.map((e) => e.event)).toEqual(expect.arrayContaining(["server.stopping", "server.stopped"]));
      expect(s.events.find((e) => e.event === "server.stopping")?.reason).toBe(signal);
    });
  }
});

describe("stopping during a scheduled refresh", () => {
  test("the schedule stops, the refresh is cut, the snapshot is untouched, no temporary file or lock remains, exit 0", async () => {
    let askedFirst!: () => void;
    const asked = new Promise<void>((resolve) => (askedFirst = resolve));
    // A hosting platform that accepts requests and never answers: the refresh hangs mid-fetch.
    const platform = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => {
        askedFirst();
        return new Promise<Response>(() => {});
      },
    });
    try {
      const s = await start({
        REFRESH_CRON: "* * * * * *",
        GITHUB_API_URL: `http://127.0.0.1:${platform.port}`,
        GITHUB_TOKEN: "ghp_refreshTokenNeverLogged",
      });
      const before = readFileSync(path);
      await s.waitFor("refresh.started", 5000);
      await asked;
      expect(readdirSync(join(path, "..")).some((f) => f.endsWith(".lock"))).toBe(true);
      s.proc.kill("SIGTERM");
      expect(await s.exited).toBe(0);
      // The client-sync documents' directory (docs/operations.md) is the service's own, not a leftover.
      const left = readdirSync(join(path, "..")).filter((name) => name !== "catalog.sqlite-sync");
      expect(left.sort()).toEqual(["catalog.sqlite", "catalog.sqlite-last-good"]);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(s.events.filter((e) => e.event === "refresh.started")).toHaveLength(1);
      expect(s.output()).not.toContain("refreshTokenNeverLogged");
    } finally {
      await platform.stop(true);
    }
  });
});

describe("logs", () => {
  test("one JSON line per request, and the token appears in no log", async () => {
    const token = "ghp_reliabilityTokenThatMustNeverBeLogged42";
    const s = await start({ GITHUB_TOKEN: token, LOG_CLIENT_IP: "true" });
    const paths = ["/api/v1/plugins", "/api/v1/plugins?page=zero", "/nope", "/market/manifest.json", "/readyz"];
    for (const path of paths) await fetch(s.url + path);
    await fetch(`${s.url}/api/v1/plugins`, { method: "POST", headers: { Authorization: `token ${token}` } });
    const requests = () => s.events.filter((e) => e.event === "request");
    await eventually(() => requests().length >= paths.length + 1, 5000, "a line for every request");
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    // The second request to the list endpoint within the window is rate limited.
    expect(requests().map((r) => r.status)).toEqual([200, 429, 404, 200, 200, 405]);
    for (const r of requests()) {
      expect(Object.keys(r).sort()).toEqual([
        "cache",
        "durationMs",
        "event",
        "ip",
        "method",
        "route",
        "status",
        "time",
      ]);
      expect(r.ip).toBe("127.0.0.1");
    }
    expect(s.output()).not.toContain(token);
    expect(s.output()).not.toContain("reliabilityToken");
  });
});

describe("the token", () => {
  test("an upstream that echoes the token in its errors still gets it into no log", async () => {
    const token = "ghp_echoedByAMisbehavingUpstream";
    const platform = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        Response.json({ message: `Bad credentials: ${request.headers.get("authorization")}` }, { status: 401 }),
    });
    try {
      const s = await start({
        REFRESH_CRON: "* * * * * *",
        GITHUB_API_URL: `http://127.0.0.1:${platform.port}`,
        GITHUB_TOKEN: token,
      });
      const failed = await s.waitFor("refresh.failed", 5000);
      expect(String(failed.error)).toContain("[redacted]");
      s.proc.kill("SIGTERM");
      expect(await s.exited).toBe(0);
      expect(s.output()).not.toContain("echoedByAMisbehavingUpstream");
    } finally {
      await platform.stop(true);
    }
  });
});

describe("Shutdown", () => {
  function harness(deadlineMs = 1000) {
    const lines: string[] = [];
    let exitCode: number | null = null;
    let exited!: () => void;
    const exitedPromise = new Promise<void>((resolve) => (exited = resolve));
    const shutdown = new Shutdown({
      log: (event) => lines.push(event),
      deadlineMs,
      exit: (code) => {
        exitCode ??= code;
        exited();
      },
    });
    return { shutdown, lines, code: () => exitCode, exited: exitedPromise };
  }

  test("steps run once, in order, then exit 0", async () => {
    const h = harness();
    const order: string[] = [];
    // Step a gives the event loop a turn before it ends: b must wait for it.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const a = async () => {
      await turn();
      order.push("a");
    };
    h.shutdown.add("a", a).add("b", () => order.push("b"));
    await Promise.all([h.shutdown.stop("SIGTERM"), h.shutdown.stop("SIGINT")]);
    expect(order).toEqual(["a", "b"]);
    expect(h.code()).toBe(0);
    expect(h.lines).toEqual(["server.stopping", "server.stopped"]);
  });

  test("a failing step is logged, the rest still run, and the exit code is 1", async () => {
    const h = harness();
    const order: string[] = [];
    h.shutdown
      .add("a", () => {
        throw new Error("disk gone");
      })
      .add("b", () => order.push("b"));
    await h.shutdown.stop("SIGTERM");
    expect(order).toEqual(["b"]);
    expect(h.code()).toBe(1);
    expect(h.lines).toContain("server.stop_failed");
  });

  test("a step that hangs past the deadline ends the process with 1", async () => {
    const h = harness(50);
    h.shutdown.add("hang", () => new Promise(() => {}));
    void h.shutdown.stop("SIGTERM");
    await h.exited;
    expect(h.code()).toBe(1);
    expect(h.lines).toContain("server.stop_timeout");
  });
});
