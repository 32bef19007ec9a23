/** Runs `bun run jobs/refresh.ts` as a child process against a test Env, as a maintainer would. */
import { join } from "node:path";
import type { Env } from "./support";

const ROOT = join(import.meta.dir, "..", "..");

export interface Child {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  /** Exit code, stdout and stderr once it ends. */
  done(): Promise<{ code: number | null; signal: string | number | null; stdout: string; stderr: string }>;
}

export function spawnRefresh(
  env: Env,
  extraEnv: Record<string, string> = {},
  args: string[] = ["--data", env.dataDir],
): Child {
  const proc = Bun.spawn([process.execPath, "run", "jobs/refresh.ts", ...args], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_PATH: env.databasePath,
      GITHUB_API_URL: env.github.url,
      GITHUB_TOKEN: "test-token",
      // Tests never ask the real package registries.
      NPM_REGISTRY_URL: "off",
      PYPI_URL: "off",
      OCI_REGISTRY_URL: "off",
      ...extraEnv,
    },
  });
  return {
    proc,
    async done() {
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      return { code: proc.exitCode, signal: proc.signalCode, stdout, stderr };
    },
  };
}

/** Resolves with the first of `promise` and a deadline, so a test never hangs. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)),
  );
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
