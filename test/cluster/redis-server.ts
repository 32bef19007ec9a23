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

async function accepting(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`redis-server not accepting on ${port}: ${error}`);
      await Bun.sleep(20);
    }
  }
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
    this.proc = Bun.spawn(["redis-server", ...args], { stdout: "ignore", stderr: "inherit" });
    await accepting(this.port, 5000);
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
