/**
 * The servers under test, each a child process pinned to one CPU: the real service (src/index.ts)
 * on a snapshot, or the bare baseline. Their RSS is read from /proc while they run.
 */
import { readFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "..");

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory now, in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * A port no one listens on now. Bun's servers share a port with SO_REUSEPORT, so a fixed port
 * that another process happens to use would silently split the load between the two.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Moves this process, every thread of it, off CPU 0 (where the server under test is pinned), so
 * its clients never take the server's CPU; false where taskset or a second CPU is missing.
 */
export function clientsOffServerCpu(): boolean {
  const cpus = navigator.hardwareConcurrency ?? 1;
  if (cpus < 2 || !Bun.which("taskset")) return false;
  return Bun.spawnSync(["taskset", "-a", "-p", "-c", `1-${cpus - 1}`, String(process.pid)], { stdout: "ignore" })
    .success;
}

function pinned(cpu: number | null, command: string[]): string[] {
  return cpu === null ? command : ["taskset", "-c", String(cpu), ...command];
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function waitReady(url: string, child: Subprocess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await Bun.sleep(50);
  }
  throw new Error(`server at ${url} not ready after 60 s`);
}

/** Servers still running, stopped if the bench itself is stopped. */
const running = new Set<Subprocess>();

function stopAll(): void {
  for (const child of running) child.kill();
}

process.on("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

async function start(
  command: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
  cwd = ROOT,
  logTo?: string,
): Promise<RunningServer> {
  // The request log goes to /dev/null unless asked for: its cost is paid, the disk is spared.
  const stdout = logTo ? Bun.file(logTo) : "ignore";
  const child = Bun.spawn(command, { cwd, env: { ...process.env, ...env }, stdout, stderr: "inherit" });
  running.add(child);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}${readyPath}`, child);
  } catch (error) {
    child.kill();
    running.delete(child);
    throw error;
  }
  return {
    url,
    pid: child.pid,
    rssMb: () => rssOf(child.pid),
    stop: async () => {
      child.kill("SIGTERM");
      await child.exited;
      running.delete(child);
    },
  };
}

/**
 * Starts the service on `databasePath`; `env` adds or overrides variables (rate limit runs).
 * `SOURCE_TREE=<dir>` (in `env` or the bench's own environment) runs another checkout's service.
 */
export function startService(
  databasePath: string,
  port: number,
  cpu: number | null,
  env: Record<string, string> = {},
  logTo?: string,
): Promise<RunningServer> {
  const serviceEnv = {
    DATABASE_PATH: databasePath,
    PORT: String(port),
    HOST: "127.0.0.1",
    RATE_LIMIT_WINDOW_MS: "0",
    REFRESH_CRON: "off",
    ...env,
  };
  const tree = env.SOURCE_TREE ?? process.env.SOURCE_TREE ?? ROOT;
  return start(pinned(cpu, [process.execPath, "src/index.ts"]), serviceEnv, port, "/healthz", tree, logTo);
}

/** Starts the bare Bun.serve baseline. */
export function startBare(port: number, cpu: number | null): Promise<RunningServer> {
  return start(pinned(cpu, [process.execPath, "bench/bare.ts"]), { PORT: String(port) }, port, "/");
}

/** The memory limit's collections so far and their pauses in ms, from /metrics (zeros where the service has none). */
export async function memoryLimitCollections(url: string): Promise<{ count: number; pauseMs: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
  return {
    count: value("catalog_memory_limit_collections_total"),
    pauseMs: value("catalog_memory_limit_pause_seconds_total") * 1000,
  };
}

/**
 * Starts bench/prober.ts, a process of its own asking `url`/healthz every `everyMs` for `seconds`,
 * on this process's CPUs; the answer waits for it and reads its latencies in ms.
 */
export function startProber(
  url: string,
  everyMs: number,
  seconds: number,
): () => Promise<{ latencies: number[]; failures: number }> {
  const command = [process.execPath, join(import.meta.dir, "prober.ts"), url, String(everyMs), String(seconds)];
  const prober = Bun.spawn(command, { stdout: "pipe", stderr: "inherit" });
  return async () => JSON.parse((await new Response(prober.stdout).text()).trim());
}
