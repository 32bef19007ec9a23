/**
 * The README's test command on a machine without the system packages: `npm test` first runs
 * scripts/system-packages.sh (npm's `pretest`), here with a PATH of its own that hides the real
 * binaries. As root it installs what is missing with apt-get (a fake that records its arguments and
 * puts stand-ins in place); otherwise it fails at once naming the exact command.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";

const ROOT = join(import.meta.dir, "..", "..");
const SCRIPT = join(ROOT, "scripts", "system-packages.sh");
const BASH = Bun.which("bash")!;
const CHMOD = Bun.which("chmod")!;
const ALL = ["redis-server", "nginx-light", "faketime", "chromium", "fonts-wqy-microhei", "prometheus"];

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function executable(path: string, body: string): void {
  writeFileSync(path, `#!${BASH}\n${body}\n`);
  chmodSync(path, 0o755);
}

/** What each package puts on the PATH, as the stand-ins the fake apt-get installs. */
const STAND_INS: Record<string, string[]> = {
  "redis-server": ["redis-server"],
  "nginx-light": ["nginx"],
  faketime: ["faketime"],
  chromium: ["chromium"],
  "fonts-wqy-microhei": ["fc-list"],
  prometheus: ["promtool"],
};

/** A directory that is the whole PATH: `id` answering `uid`, an apt-get that logs and installs stand-ins. */
function machine(uid: number, present: string[] = []) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const log = join(dir, "apt-get.log");
  const standIn = (name: string) =>
    name === "fc-list" ? `echo "/usr/share/fonts/wqy-microhei.ttc: WenQuanYi Micro Hei:style=Regular"` : "exit 0";
  executable(join(dir, "id"), `echo ${uid}`);
  const installs = Object.entries(STAND_INS)
    .flatMap(([pkg, bins]) =>
      bins.map(
        (bin) =>
          `[[ " $* " == *" ${pkg} "* ]] && printf '%s\\n' '#!${BASH}' '${standIn(bin)}' > "${dir}/${bin}" && ${CHMOD} +x "${dir}/${bin}"`,
      ),
    )
    .join("\n");
  executable(join(dir, "apt-get"), `echo "$*" >> "${log}"\n${installs}\nexit 0`);
  for (const pkg of present) for (const bin of STAND_INS[pkg]!) executable(join(dir, bin), standIn(bin));
  const run = (...args: string[]) => {
    const done = Bun.spawnSync([BASH, SCRIPT, ...args], { env: { PATH: dir }, stdout: "pipe", stderr: "pipe" });
    return { code: done.exitCode, stderr: done.stderr.toString() };
  };
  const aptCalls = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
  return { run, aptCalls };
}

describe("the test command's system packages", () => {
  test("as root, the missing ones are installed with apt-get, then found", () => {
    const { run, aptCalls } = machine(0, ["redis-server"]);
    const { code, stderr } = run();
    expect(stderr).toContain(
      "Installing the Debian packages the tests need: nginx-light faketime chromium fonts-wqy-microhei prometheus",
    );
    expect(code).toBe(0);
    expect(aptCalls()).toEqual([
      "update",
      "install -y --no-install-recommends nginx-light faketime prometheus",
      "install -y chromium fonts-wqy-microhei",
    ]);
    // Installed now: a second run has nothing to do.
    expect(run()).toEqual({ code: 0, stderr: "" });
    expect(aptCalls()).toHaveLength(3);
  });

  test("not as root, it fails at once and names the exact command", () => {
    const { run, aptCalls } = machine(1000);
    const { code, stderr } = run();
    expect(code).toBe(1);
    expect(stderr).toContain(`missing: ${ALL.join(" ")}`);
    expect(stderr).toContain(
      "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends " +
        "redis-server nginx-light faketime prometheus && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-wqy-microhei",
    );
    expect(aptCalls()).toEqual([]);
  });

  test("--check only names them, even as root", () => {
    const { run, aptCalls } = machine(0, ["redis-server", "nginx-light", "faketime", "prometheus"]);
    const { code, stderr } = run("--check");
    expect(code).toBe(1);
    expect(stderr).toContain("missing: chromium fonts-wqy-microhei");
    expect(aptCalls()).toEqual([]);
  });

  test("with everything there it says nothing and installs nothing", () => {
    const { run, aptCalls } = machine(1000, Object.keys(STAND_INS));
    expect(run()).toEqual({ code: 0, stderr: "" });
    expect(aptCalls()).toEqual([]);
  });

  test("npm test runs it first, and .ci/run installs nothing of its own but runs npm test", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(manifest.scripts.pretest).toBe("bash scripts/system-packages.sh");
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8");
    expect(ci.includes("apt-get")).toBe(false);
    expect(ci.split("\n").filter((line) => line.trim() === "npm test")).toHaveLength(1);
  });
});
