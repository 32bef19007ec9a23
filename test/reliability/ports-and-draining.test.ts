/**
 * The process around the server: a taken port is an error, and a stop under keep-alive load
 * answers every request it accepted, says so on /readyz, closes connections after their current
 * response and exits 0 within 10 s.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { publishMarked, tempDir } from "./support/catalog";
import { ensureStopped, type Service, spawnService, startService } from "./support/process";

const services: Service[] = [];
let cleanup: (() => void) | undefined;

afterEach(async () => {
  for (const s of services.splice(0)) await ensureStopped(s);
  cleanup?.();
});

async function start(env: Record<string, string> = {}): Promise<Service> {
  const made = tempDir();
  cleanup = made.cleanup;
  const path = join(made.dir, "catalog.sqlite");
  publishMarked(path, "2026-02-03T04:05:06.789Z");
  const service = await startService({ DATABASE_PATH: path, RATE_LIMIT_WINDOW_MS: "0", ...env });
  services.push(service);
  return service;
}

interface Exchange {
  sent: number;
  answered: number;
  /** Requests written on a kept-alive connection (one answered before) that then closed without their response. */
  lost: number;
  /** First requests on a new connection closed unanswered: connections still in the kernel's queue when it closed. */
  unaccepted: number;
  closedByServer: number;
  connectionClose: number;
  statuses: Map<number, number>;
  readyStatuses: number[];
}

/**
 * A keep-alive client on raw sockets, so nothing retries behind the test's back: one request at a
 * time per connection, a new connection when the server closes one, until connecting fails.
 */
async function keepAliveClient(url: string, paths: string[], stats: Exchange): Promise<void> {
  const { hostname, port } = new URL(url);
  for (;;) {
    let buffer = Buffer.alloc(0);
    let wake: (() => void) | null = null;
    let closed = false;
    let socket: Awaited<ReturnType<typeof Bun.connect>>;
    try {
      socket = await Bun.connect({
        hostname,
        port: Number(port),
        socket: {
          data: (_s, chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            wake?.();
          },
          close: () => {
            closed = true;
            wake?.();
          },
          error: () => {
            closed = true;
            wake?.();
          },
        },
      });
    } catch {
      return;
    }
    for (let i = 0; ; i++) {
      const path = paths[i % paths.length]!;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      stats.sent++;
      let response: { status: number; close: boolean } | null = null;
      while (response === null) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end !== -1) {
          const head = buffer.subarray(0, end).toString("latin1");
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length >= end + 4 + length) {
            response = { status: Number(head.slice(9, 12)), close: /\r\nconnection: *close/i.test(head) };
            if (path === "/readyz") stats.readyStatuses.push(response.status);
            buffer = buffer.subarray(end + 4 + length);
            break;
          }
        }
        if (closed) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      if (response === null) {
        if (i === 0) stats.unaccepted++;
        else stats.lost++;
        break;
      }
      stats.answered++;
      stats.statuses.set(response.status, (stats.statuses.get(response.status) ?? 0) + 1);
      if (response.close) {
        stats.connectionClose++;
        break;
      }
      if (closed) {
        stats.closedByServer++;
        break;
      }
    }
    socket.end();
  }
}

describe("the listening port", () => {
  test("a second instance on a taken port exits 1 naming the port; the first keeps serving", async () => {
    const first = await start();
    const port = new URL(first.url).port;
    const made = tempDir();
    try {
      const { service, listening } = spawnService({ DATABASE_PATH: join(made.dir, "catalog.sqlite"), PORT: port });
      services.push({ ...service, url: "" });
      await expect(listening).rejects.toThrow();
      expect(await service.exited).toBe(1);
      expect(service.output()).toContain(port);
      expect(service.output()).toMatch(/in use/i);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      made.cleanup();
    }
  });
});

describe("stopping under keep-alive load", () => {
  test("SIGTERM: every request sent is answered, connections close after it, /readyz 503, exit 0 in 10 s", async () => {
    const s = await start();
    const stats: Exchange = {
      sent: 0,
      answered: 0,
      lost: 0,
      unaccepted: 0,
      closedByServer: 0,
      connectionClose: 0,
      statuses: new Map(),
      readyStatuses: [],
    };
    const paths = ["/api/v1/plugins?pageSize=50", "/plugins/feed.xml", "/api/v1/plugins/owner1/repo-1", "/readyz"];
    const clients = Array.from({ length: 16 }, (_, i) =>
      keepAliveClient(s.url, [...paths.slice(i % 4), ...paths], stats),
    );
    await Bun.sleep(500);
    const answeredBefore = stats.answered;
    const unacceptedBefore = stats.unaccepted;
    const killedAt = performance.now();
    s.proc.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    expect(performance.now() - killedAt).toBeLessThan(10_000);
    await Promise.all(clients);
    expect(answeredBefore).toBeGreaterThan(50);
    expect(stats.lost).toBe(0);
    expect(unacceptedBefore).toBe(0);
    expect(stats.answered + stats.unaccepted).toBe(stats.sent);
    expect([...stats.statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(stats.readyStatuses.at(-1) === 503 || stats.connectionClose > 0).toBe(true);
  }, 20_000);
});
