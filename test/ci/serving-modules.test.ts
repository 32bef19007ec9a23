/**
 * The serving process loads what serves: the refresh, its parsers and the MCP SDK it asks remote
 * servers with run in the refresh's child process (scheduler/refresh-child.ts), never in the
 * server, whose memory every client shares. The modules checked are those src/index.ts imports,
 * read from its own source, so a new import there is covered without a change here.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const INDEX = join(ROOT, "src", "index.ts");

/** The files src/index.ts imports, as paths. */
function importsOfIndex(): string[] {
  const text = readFileSync(INDEX, "utf8");
  return [...text.matchAll(/^import [^;]*?from "(\.{1,2}\/[^"]+)";/gms)].map((m) => `${join(ROOT, "src", m[1]!)}.ts`);
}

/** The modules a fresh process holds after importing everything src/index.ts imports. */
function modulesOfServer(): string[] {
  const script = `
    for (const path of ${JSON.stringify(importsOfIndex())}) await import(path);
    console.log(JSON.stringify(Object.keys(require.cache)));
  `;
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT, stderr: "pipe" });
  expect(run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout.toString()) as string[];
}

test("the imports read from src/index.ts are its real ones", () => {
  const imports = importsOfIndex();
  expect(imports).toContain(join(ROOT, "src", "app.ts"));
  expect(imports).toContain(join(ROOT, "src", "config.ts"));
  expect(imports).toContain(join(ROOT, "src", "scheduler", "cron.ts"));
});

test("the server loads no file of the refresh, no manifest parser and not the MCP SDK", () => {
  const modules = modulesOfServer();
  expect(modules).toContain(join(ROOT, "src", "config.ts"));
  const loaded = (part: string) => modules.filter((m) => m.includes(part));
  expect(loaded(join("src", "refresh") + "/")).toEqual([]);
  expect(loaded(join("node_modules", "@modelcontextprotocol"))).toEqual([]);
  expect(loaded(join("node_modules", "yaml"))).toEqual([]);
});
