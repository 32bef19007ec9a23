/**
 * How the real process stops and starts beside others: SIGTERM under keep-alive load answers
 * every request already sent, closing each connection after its response; a second instance on a
 * taken port fails instead of sharing it.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { eventually } from "../helpers";
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

interface Answer {
  status: number;
  close: boolean;
}

/** One keep-alive connection: sends a request, reads its whole response; null when the connection ended first. */
class Connection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private wake: () => void = () => {};

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    for (const event of ["close", "error", "end"]) {
      socket.on(event, () => {
        this.ended = true;
        this.wake();
      });
    }
  }

  static open(url: string): Promise<Connection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  async request(path: string): Promise<Answer | null> {
    this.buffer = Buffer.alloc(0);
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: catalog\r\nAccept-Encoding: identity\r\n\r\n`);
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const head = this.buffer.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          return { status: Number(head.slice(9, 12)), close: /\r\nconnection: *close/i.test(head) };
        }
      }
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

describe("SIGTERM under keep-alive load", () => {
  test("every request sent is answered, connections close after their response, /readyz 503, exit 0 within 10 s", async () => {
    const s = await start();
    const connections = await Promise.all(Array.from({ length: 12 }, () => Connection.open(s.url)));
    const paths = ["/api/v1/plugins", "/api/v1/plugins/owner1/repo-1", "/plugins/feed.xml", "/readyz"];
    const answers: Array<Answer & { path: string }> = [];
    let lost = 0;
    const loads = connections.map(async (connection, c) => {
      for (let n = c; ; n++) {
        const path = paths[n % paths.length]!;
        const answer = await connection.request(path);
        if (answer === null) {
          lost++;
          return;
        }
        answers.push({ ...answer, path });
        if (answer.close) return connection.close();
      }
    });
    // Under load: every connection has had each of the paths answered.
    const rounds = connections.length * paths.length;
    await eventually(() => answers.length >= rounds, 10_000, `${rounds} answers before the stop`);
    s.proc.kill("SIGTERM");
    await Promise.all(loads);
    // Exit 0 is a stop that ended within its deadline (9.5 s): past it the process logs server.stop_timeout and exits 1.
    expect(await s.exited).toBe(0);
    expect(s.events.filter((e) => e.event === "server.stop_timeout")).toEqual([]);
    expect(lost).toBe(0);
    expect(answers.filter((a) => a.close)).toHaveLength(connections.length);
    expect(answers.filter((a) => a.status >= 500 && a.path !== "/readyz")).toEqual([]);
    // Readiness answered while stopping is off.
    for (const answer of answers.filter((a) => a.path === "/readyz" && a.close)) expect(answer.status).toBe(503);
    expect(answers.filter((a) => a.path === "/readyz" && !a.close).every((a) => a.status === 200)).toBe(true);
  }, 30_000);
});

describe("a taken port", () => {
  test("a second instance on the port of a running one exits 1 naming the port; the first keeps serving", async () => {
    const first = await start();
    const port = new URL(first.url).port;
    const { service: second, listening } = spawnService({
      DATABASE_PATH: join(tempDir().dir, "other.sqlite"),
      PORT: port,
    });
    listening.catch(() => {});
    services.push({ ...second, url: "" });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Port ${port}`);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
