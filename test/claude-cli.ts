/**
 * The real Claude Code CLI (the pinned `@anthropic-ai/claude-code` devDependency), run offline: a
 * throw-away HOME each call (or one a test keeps across calls), its non-essential traffic off, a
 * proxy on the loopback range for anything but the loopback addresses themselves, and an `ssh`
 * that connects nowhere (the client clones a `github` source over SSH, which no proxy covers), so
 * nothing leaves the machine. `npm run client:update` moves the pin to the newest release and runs
 * every test that runs the CLI.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const MODULES = join(import.meta.dir, "../node_modules/@anthropic-ai");
/** The platform's binary the package ships (its own `bin` is linked to it by an install script). */
const PLATFORM = join(MODULES, `claude-code-${process.platform}-${process.arch}`, "claude");
export const CLAUDE = existsSync(PLATFORM) ? PLATFORM : join(MODULES, "claude-code/bin/claude.exe");

export const CLAUDE_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  // A marketplace the test serves on 127.0.0.1 is fetched directly; every other address meets the dead proxy.
  NO_PROXY: "127.0.0.1,localhost",
  NO_COLOR: "1",
};

/** A folder under `root` holding an `ssh` that fails at once, put first on the CLI's PATH. */
function noSsh(root: string): string {
  const dir = join(root, "no-ssh");
  if (!existsSync(join(dir, "ssh"))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "ssh"), "#!/bin/sh\necho 'ssh: no network in tests' >&2\nexit 255\n");
    chmodSync(join(dir, "ssh"), 0o755);
  }
  return dir;
}

/**
 * Runs the CLI with `args` and a new HOME under `root` (or `home`, kept across calls); its exit
 * code and everything it printed.
 */
export async function claude(
  root: string,
  args: string[],
  home = mkdtempSync(join(root, "home-")),
): Promise<{ code: number; out: string; home: string }> {
  const env = { ...CLAUDE_ENV, PATH: `${noSsh(root)}:${CLAUDE_ENV.PATH}`, GIT_SSH_COMMAND: "false", HOME: home };
  const proc = Bun.spawn([CLAUDE, ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out: out + err, home };
}

/** The CLI's errors (not warnings) of `validate`: the `❯ path: message` lines under "Found N error(s)". */
export function validateErrors(out: string): string[] {
  const block = /✘ Found \d+ errors?:\n\n([\s\S]*?)(?:\n\n|$)/.exec(out)?.[1] ?? "";
  return block.split("\n").flatMap((l) => (/^\s*❯ /.test(l) ? [l.replace(/^\s*❯ /, "")] : []));
}
