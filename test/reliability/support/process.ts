/**
 * The service as an operator runs it: src/index.ts in a child process on an ephemeral port,
 * configured only through environment variables, its JSON log lines collected as they come.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { UPSTREAMS_OFF } from "../../fakes/upstreams-off";

export const ROOT = join(import.meta.dir, "..", "..", "..");

export interface Service {
  url: string;
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Parsed JSON lines of stdout so far. */
  events: Array<Record<string, unknown>>;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the first event named `event`. */
  waitFor: (event: string, timeoutMs?: number) => Promise<Record<string, unknown>>;
  exited: Promise<number>;
}

/** Environment of a child: only what it needs, never this process's token. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    PORT: "0",
    HOST: "127.0.0.1",
    REFRESH_CRON: "off",
    ...UPSTREAMS_OFF,
    ...env,
  };
}

async function collect(stream: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }));
}

/**
 * Starts the service (by default the entry point itself, or `command` such as `npm start`);
 * `listening` resolves once it serves (rejects if it exits first).
 */
export function spawnService(
  env: Record<string, string>,
  command: string[] = [process.execPath, "run", join(ROOT, "src", "index.ts")],
  cwd = ROOT,
): { service: Omit<Service, "url">; listening: Promise<string> } {
  const proc = Bun.spawn(command, {
    cwd,
    env: childEnv(env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const events: Array<Record<string, unknown>> = [];
  let text = "";
  let pending = "";
  const waiters: Array<{ event: string; resolve: (e: Record<string, unknown>) => void }> = [];
  const onEvent = (event: Record<string, unknown>) => {
    events.push(event);
    for (const w of waiters.filter((w) => w.event === event.event)) w.resolve(event);
  };
  void collect(proc.stdout, (chunk) => {
    text += chunk;
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      try {
        onEvent(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not a log line; kept in the raw output.
      }
    }
  });
  void collect(proc.stderr, (chunk) => (text += chunk));
  const waitFor = (event: string, timeoutMs = 20_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const found = events.find((e) => e.event === event);
      if (found) return resolve(found);
      waiters.push({ event, resolve });
      setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms; output:\n${text}`)), timeoutMs).unref();
    });
  const exited = proc.exited;
  const listening = Promise.race([
    waitFor("server.listening").then((e) => String(e.url)),
    exited.then((code) => Promise.reject(new Error(`exited with ${code} before listening:\n${text}`))),
  ]);
  return { service: { proc, events, output: () => text, waitFor, exited }, listening };
}

/** Starts the service and waits until it listens. */
export async function startService(env: Record<string, string>): Promise<Service> {
  const { service, listening } = spawnService(env);
  return { ...service, url: await listening };
}

/** Stops a service that a failed test may have left running. */
export async function ensureStopped(service: Service | undefined): Promise<void> {
  if (!service || service.proc.exitCode !== null || service.proc.signalCode !== null) return;
  service.proc.kill("SIGKILL");
  await service.exited;
}

/**
 * Whether all that this process wrote on its loopback TCP connection from `port` to `peerPort`
 * has been read by the process at the other end: none of it unacknowledged on this side, none
 * left unread on that (Linux's /proc/net/tcp, whose queues are in hexadecimal).
 */
export function readByPeer(port: number, peerPort: number): boolean {
  const sockets = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 4);
  const portOf = (address: string) => Number.parseInt(address.split(":")[1]!, 16);
  const queues = (local: number, remote: number) => {
    const fields = sockets.find((f) => portOf(f[1]!) === local && portOf(f[2]!) === remote);
    if (fields === undefined) return null;
    const [tx, rx] = fields[4]!.split(":").map((hex) => Number.parseInt(hex, 16));
    return { tx, rx };
  };
  const mine = queues(port, peerPort);
  const theirs = queues(peerPort, port);
  return mine !== null && theirs !== null && mine.tx === 0 && theirs.rx === 0;
}
