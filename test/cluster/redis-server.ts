/**
 * A real redis-server (Debian's package) for one test: its own free port and temporary directory,
 * nothing persisted, killed after. `kill` and `start` again keep the port, as an outage would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A port free right now on 127.0.0.1. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * Resolves once redis-server logs that it accepts connections (its listening socket is bound by
 * then); rejects if it ends before. Its output is read to its end, so it never waits on a full pipe.
 */
function acceptingLine(output: ReadableStream<Uint8Array>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const decoder = new TextDecoder();
    let text = "";
    let ready = false;
    void (async () => {
      for await (const chunk of output) {
        if (ready) continue;
        text += decoder.decode(chunk, { stream: true });
        if (text.includes("Ready to accept connections")) {
          ready = true;
          resolve();
        }
      }
      if (!ready) reject(new Error(`redis-server on ${port} ended before accepting connections:\n${text}`));
    })();
  });
}

export class RedisServer {
  readonly port = freePort();
  readonly dir = mkdtempSync(join(tmpdir(), "catalog-redis-"));
  private proc: Bun.Subprocess | null = null;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir];
    args.push("--save", "", "--appendonly", "no");
    const proc = Bun.spawn(["redis-server", ...args], { stdout: "pipe", stderr: "inherit" });
    this.proc = proc;
    await acceptingLine(proc.stdout, this.port);
    return this;
  }

  /** Stops the server answering while its connections stay open, as a hung Redis does (SIGSTOP). */
  pause(): void {
    this.proc?.kill("SIGSTOP");
  }

  /** Lets a paused server answer again (SIGCONT). */
  resume(): void {
    this.proc?.kill("SIGCONT");
  }

  /**
   * While the server is down: a stand-in on its port that counts the connections clients try and
   * closes each at once, as a dead Redis behind a proxy would. Stopped before `start` again.
   */
  standIn(): { tries: () => number; stop: () => void } {
    let tries = 0;
    const listener = Bun.listen({
      hostname: "127.0.0.1",
      port: this.port,
      socket: {
        open: (socket) => {
          tries++;
          socket.end();
        },
        data() {},
      },
    });
    return { tries: () => tries, stop: () => listener.stop(true) };
  }

  /** Kills the server at once, as a crash would. */
  async kill(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc) return;
    proc.kill("SIGKILL");
    await proc.exited;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
