/**
 * The real Claude Code CLI (the pinned `@anthropic-ai/claude-code` devDependency), run offline: a
 * throw-away HOME each call, its non-essential traffic off, and a proxy on the loopback range for
 * anything but the loopback addresses themselves, so nothing leaves the machine.
 */
import { existsSync, mkdtempSync } from "node:fs";
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

/** Runs the CLI with `args` and a new HOME under `root`; its exit code and everything it printed. */
export async function claude(root: string, args: string[]): Promise<{ code: number; out: string; home: string }> {
  const home = mkdtempSync(join(root, "home-"));
  const proc = Bun.spawn([CLAUDE, ...args], { env: { ...CLAUDE_ENV, HOME: home }, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out: out + err, home };
}

/** The CLI's errors (not warnings) of `validate`: the `❯ path: message` lines under "Found N error(s)". */
export function validateErrors(out: string): string[] {
  const block = /✘ Found \d+ errors?:\n\n([\s\S]*?)(?:\n\n|$)/.exec(out)?.[1] ?? "";
  return block.split("\n").flatMap((l) => (/^\s*❯ /.test(l) ? [l.replace(/^\s*❯ /, "")] : []));
}
