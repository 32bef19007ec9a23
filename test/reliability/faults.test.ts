/**
 * Faults while serving: whatever lands at the database path (garbage, a truncated copy, nothing at
 * all) and a build that runs out of disk never take the serving snapshot away.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { headerProblem, snapshotProblem } from "../../src/catalog/snapshot/validity";
import { appWithSnapshot, call, json, publishMarked, type TestApp } from "./support/catalog";
import { ROOT } from "./support/process";

const FIRST = "2026-01-02T03:04:05.678Z";
let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

/**
 * The snapshot time the app serves now. The apps here look at their file on every request, so
 * whatever landed at the path before this request has been seen by it.
 */
async function served(app: TestApp): Promise<string> {
  const response = await call(app.app, "/market/v1/plugins?pageSize=100");
  expect(response.status).toBe(200);
  const body = await json(response);
  expect(body.items.every((p: { description: string }) => p.description.includes(body.generatedAt))).toBe(true);
  return body.generatedAt;
}

/** The app over a snapshot of FIRST, its store looking at the file on every request. */
const everyRequestLooks = () => appWithSnapshot({}, FIRST, undefined, 0);

/** Puts `bytes` at the path the way a careless copy would: a new file renamed over it. */
function renameOver(path: string, write: (tmp: string) => void): void {
  const tmp = `${path}.incoming`;
  write(tmp);
  renameSync(tmp, path);
}

describe("the serving snapshot survives", () => {
  test("garbage renamed over the database path", async () => {
    t = everyRequestLooks();
    expect(await served(t)).toBe(FIRST);
    renameOver(t.path, (tmp) => writeFileSync(tmp, "garbage ".repeat(10_000)));
    expect(await served(t)).toBe(FIRST);
    expect(t.lines.some((l) => l.event === "snapshot.open_failed")).toBe(true);
  });

  test("a truncated copy of a newer snapshot renamed over the path", async () => {
    t = everyRequestLooks();
    expect(await served(t)).toBe(FIRST);
    const newer = join(dirname(t.path), "newer.sqlite");
    publishMarked(newer, "2026-02-02T02:02:02.222Z", 3000);
    renameOver(t.path, (tmp) => {
      copyFileSync(newer, tmp);
      truncateSync(tmp, 64 * 1024);
    });
    expect(await served(t)).toBe(FIRST);
    const failure = t.lines.find((l) => l.event === "snapshot.open_failed");
    expect(String(failure?.error)).toContain("truncated");
  });

  test("the database file deleted, then a good snapshot published", async () => {
    t = everyRequestLooks();
    expect(await served(t)).toBe(FIRST);
    rmSync(t.path);
    expect(await served(t)).toBe(FIRST);
    publishMarked(t.path, "2026-03-03T03:03:03.333Z");
    expect(await served(t)).toBe("2026-03-03T03:03:03.333Z");
  });

  test("a build that runs out of disk (file size limit) fails, leaves no temporary file, and serving goes on", async () => {
    t = everyRequestLooks();
    const before = readFileSync(t.path);
    const script = `
      import { publishSnapshot } from ${JSON.stringify(join(ROOT, "src/catalog/snapshot/publish.ts"))};
      import { snapshotInput } from ${JSON.stringify(join(ROOT, "test/reliability/support/catalog.ts"))};
      publishSnapshot(process.argv.at(-1), snapshotInput("2026-09-09T09:09:09.999Z", 3000));`;
    // 256 KiB is far less than the 3,000-plugin build needs: writes past it fail like a full disk.
    const build = Bun.spawnSync(
      ["bash", "-c", `ulimit -f 256; exec "${process.execPath}" -e '${script}' "${t.path}"`],
      { stderr: "pipe" },
    );
    expect(build.exitCode).not.toBe(0);
    expect(build.stderr.toString()).toMatch(/disk I\/O error|File size limit/i);
    expect(readFileSync(t.path).equals(before)).toBe(true);
    // Beside the database only the client-sync documents' directory of the snapshot it serves.
    expect(readdirSync(dirname(t.path)).filter((name) => name !== "catalog.sqlite-sync")).toEqual(["catalog.sqlite"]);
    expect(await served(t)).toBe(FIRST);
  });
});

describe("snapshot checks", () => {
  test("a good snapshot passes; damage of each kind is named", () => {
    t = appWithSnapshot();
    expect(snapshotProblem(t.path)).toBeNull();
    expect(headerProblem(t.path)).toBeNull();
    const copy = join(dirname(t.path), "copy.sqlite");
    copyFileSync(t.path, copy);
    truncateSync(copy, 8192);
    expect(snapshotProblem(copy)).toMatch(/^truncated: 8192 of \d+ bytes$/);
    writeFileSync(copy, "");
    expect(snapshotProblem(copy)).toBe("not a SQLite database");
    writeFileSync(copy, Buffer.alloc(4096, 7));
    expect(snapshotProblem(copy)).toBe("not a SQLite database");
    expect(snapshotProblem(join(dirname(t.path), "absent.sqlite"))).toContain("ENOENT");
  });

  test("a page damaged in the middle is found by the integrity check", () => {
    t = appWithSnapshot();
    const copy = join(dirname(t.path), "copy.sqlite");
    publishMarked(copy, "2026-04-04T04:04:04.444Z", 2000);
    const bytes = readFileSync(copy);
    // Overwrite pages past the header with noise, keeping the length: only reading the pages finds it.
    for (let i = 16 * 1024; i < bytes.length - 16 * 1024; i += 97) bytes[i] = (bytes[i]! + 131) % 256;
    writeFileSync(copy, bytes);
    expect(headerProblem(copy)).toBeNull();
    expect(snapshotProblem(copy)).not.toBeNull();
  });
});
