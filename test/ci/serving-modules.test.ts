/**
 * The serving process loads what serves: the refresh, its parsers and the MCP SDK it asks remote
 * servers with run in the refresh's child process (scheduler/refresh-child.ts), never in the
 * server, whose memory every client shares.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** The modules a fresh process holds after importing what src/index.ts imports. */
function modulesOfServer(): string[] {
  const script = `
    await import(${JSON.stringify(join(ROOT, "src/app.ts"))});
    await import(${JSON.stringify(join(ROOT, "src/lifecycle.ts"))});
    await import(${JSON.stringify(join(ROOT, "src/scheduler/cron.ts"))});
    await import(${JSON.stringify(join(ROOT, "src/market/documents.ts"))});
    await import(${JSON.stringify(join(ROOT, "src/cluster/distribution.ts"))});
    console.log(JSON.stringify(Object.keys(require.cache)));
  `;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT, stderr: "pipe" });
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout.toString()) as string[];
}

test("the server never loads the refresh run, its manifest parsers or the MCP SDK", () => {
  const modules = modulesOfServer();
  expect(modules.some((m) => m.endsWith(join("src", "app.ts")))).toBe(true);
  const loaded = (part: string) => modules.filter((m) => m.includes(part));
  expect(loaded(join("src", "refresh", "run.ts"))).toEqual([]);
  expect(loaded(join("src", "refresh", "manifests", "reader.ts"))).toEqual([]);
  expect(loaded(join("node_modules", "@modelcontextprotocol"))).toEqual([]);
  expect(loaded(join("node_modules", "yaml"))).toEqual([]);
});
