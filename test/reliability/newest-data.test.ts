/**
 * The newest good data wins, with the real entry point in a child process: a deleted database
 * comes back from its last good copy, a copy that cannot be written does not stop a start, a
 * database damaged while serving is restored without 500s, and a symlinked path stays a link.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeSync,
  closeSync,
} from "node:fs";
import { join } from "node:path";
import { lastGoodPath, saveLastGood } from "../../src/catalog/lastgood";
import { CatalogStore } from "../../src/catalog/store";
import { publishSnapshot } from "../../src/catalog/publish";
import { markerOf, publishMarked, snapshotInput, tempDir } from "./support/catalog";
import { ensureStopped, type Service, startService } from "./support/process";

const NEWER = "2026-09-30T01:02:03.456Z";
let service: Service | undefined;
let cleanup: (() => void) | undefined;

afterEach(async () => {
  await ensureStopped(service);
  service = undefined;
  cleanup?.();
});

function database(): { dir: string; path: string } {
  const made = tempDir();
  cleanup = made.cleanup;
  return { dir: made.dir, path: join(made.dir, "catalog.sqlite") };
}

async function stop(s: Service): Promise<number> {
  s.proc.kill("SIGTERM");
  return s.exited;
}

async function servedAt(s: Service): Promise<string> {
  return ((await (await fetch(`${s.url}/readyz`)).json()) as { snapshotAt: string }).snapshotAt;
}

describe("restoring the newest good data", () => {
  test("a restart with the database deleted serves the newer last good copy and keeps it", async () => {
    const { path } = database();
    publishMarked(path, NEWER);
    service = await startService({ DATABASE_PATH: path });
    expect(existsSync(lastGoodPath(path))).toBe(true);
    expect(await stop(service)).toBe(0);
    rmSync(path);
    service = await startService({ DATABASE_PATH: path });
    const events = service.events.map((e) => e.event);
    expect(events).toContain("snapshot.restored_last_good");
    expect(events).not.toContain("snapshot.created_default");
    expect(await servedAt(service)).toBe(NEWER);
    const plugin = (await (await fetch(`${service.url}/api/v1/plugins/owner1/repo-1`)).json()) as {
      data: { plugin: { description: string } };
    };
    expect(plugin.data.plugin.description).toContain(markerOf(NEWER));
    expect(await stop(service)).toBe(0);
  });

  test("a last good copy that cannot be written is logged and the database serves", async () => {
    const { path } = database();
    publishMarked(path, NEWER);
    // A directory where the copy should go: no file can be renamed over it.
    mkdirSync(lastGoodPath(path));
    service = await startService({ DATABASE_PATH: path });
    expect(service.events.map((e) => e.event)).toContain("snapshot.last_good_failed");
    expect(await servedAt(service)).toBe(NEWER);
    expect(await stop(service)).toBe(0);
  });

  test("temporary files of a publish killed mid-way, SQLite's journal among them, are removed at start", async () => {
    const { dir, path } = database();
    publishMarked(path, NEWER);
    const dead = Bun.spawnSync([process.execPath, "-e", "0"]).pid;
    for (const suffix of ["", "-journal", "-wal", "-shm"]) {
      Bun.write(`${path}.tmp-${dead}-k1ll3d${suffix}`, "half a snapshot");
    }
    await Bun.sleep(20);
    service = await startService({ DATABASE_PATH: path });
    expect(readdirSync(dir).sort()).toEqual(["catalog.sqlite", "catalog.sqlite-last-good"]);
    expect(await stop(service)).toBe(0);
  });
});

describe("a symlinked DATABASE_PATH", () => {
  test("publishing and restoring write through the link: the link stays, its target is replaced", async () => {
    const { dir } = database();
    mkdirSync(join(dir, "volume"));
    const target = join(dir, "volume", "real.sqlite");
    const link = join(dir, "catalog.sqlite");
    symlinkSync(target, link);
    publishSnapshot(link, snapshotInput("2026-07-01T00:00:00.000Z"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(target).isFile()).toBe(true);
    publishMarked(link, NEWER);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    service = await startService({ DATABASE_PATH: link });
    expect(await stop(service)).toBe(0);
    truncateSync(target, 4096);
    service = await startService({ DATABASE_PATH: link });
    expect(service.events.map((e) => e.event)).toContain("snapshot.restored_last_good");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(await servedAt(service)).toBe(NEWER);
    expect(readdirSync(join(dir, "volume")).filter((f) => f.includes("corrupt"))).toHaveLength(1);
    expect(await stop(service)).toBe(0);
  });
});

describe("a database damaged while serving", () => {
  // With its time kept, the store sees no change: the damage shows first as SQLITE_CORRUPT in a query.
  for (const keepTime of [false, true]) {
    const name = `under load${keepTime ? ", its modification time kept" : ""}`;
    test(`${name}: no 500, restored and reopened, /readyz 200 only when it answers`, async () => {
      const { path } = database();
      publishMarked(path, NEWER, 3000);
      service = await startService({ DATABASE_PATH: path, RATE_LIMIT_WINDOW_MS: "0" });
      const s = service;
      const statuses = new Map<number, number>();
      const readyWhile500: number[] = [];
      let done = false;
      let n = 0;
      const worker = async () => {
        while (!done) {
          // Every request a new query and page, so each reads the file rather than the response cache.
          const i = n++;
          const query = `q=tool&page=${1 + (i % 60)}&sort=name&_=${i}&category=cli`;
        const response = await fetch(`${s.url}/api/v1/plugins?${query}`);
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500 && response.status !== 503) {
            readyWhile500.push((await fetch(`${s.url}/readyz`)).status);
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      await Bun.sleep(300);
      // Garbage over the file's pages in place, its header kept: what a failing disk or a stray writer leaves.
      const { size, atime, mtime } = statSync(path);
      const fd = openSync(path, "r+");
      const garbage = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919) % 251));
      for (let offset = 4096; offset < size - 4096; offset += garbage.length) {
        writeSync(fd, garbage, 0, garbage.length, offset);
      }
      closeSync(fd);
      if (keepTime) utimesSync(path, atime, mtime);
      await s.waitFor("snapshot.restored_last_good", 10_000);
      await Bun.sleep(300);
      done = true;
      await Promise.all(workers);
      expect(statuses.get(500) ?? 0).toBe(0);
      expect(readyWhile500).toEqual([]);
      expect(statuses.get(200)).toBeGreaterThan(20);
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
      const after = await fetch(`${s.url}/api/v1/plugins?q=tool&page=7&sort=stars`);
      expect(after.status).toBe(200);
      expect(s.events.map((e) => e.event)).toEqual(expect.arrayContaining(["snapshot.corrupt"]));
      const failed = s.events.find((e) => e.event === "snapshot.failed_while_serving");
      // Whichever saw the damage first (a query's SQLITE_CORRUPT or the store's check), it was acted on.
      expect(String(failed?.error)).toMatch(/malformed|not a database|disk I\/O|changed in place/);
      expect(statuses.get(503) ?? 0).toBeLessThan(20);
      expect(await stop(s)).toBe(0);
    }, 30_000);
  }
});

describe("an unexpected error while serving", () => {
  test("is checked against the file: garbage SQLite read as valid pages still leads to a restore", () => {
    const { path } = database();
    publishMarked(path, NEWER);
    saveLastGood(path);
    const lines: string[] = [];
    const store = new CatalogStore(path, { checkIntervalMs: 0, log: (event) => lines.push(event) });
    try {
      expect(store.current()?.snapshotAt).toBe(NEWER);
      // A sound file: the error is the code's, answered as a 500 by the caller.
      expect(store.recoverIfDamaged(new RangeError("offset out of bounds"))).toBe(false);
      const { size } = statSync(path);
      const fd = openSync(path, "r+");
      writeSync(fd, Buffer.alloc(size - 8192, 0x5a), 0, size - 8192, 4096);
      closeSync(fd);
      // Within the interval since the last check, no second check: a bug cannot make every request check.
      expect(store.recoverIfDamaged(new RangeError("offset out of bounds"))).toBe(false);
    } finally {
      store.close();
    }
    const fresh = new CatalogStore(path, { checkIntervalMs: 0, log: (event) => lines.push(event) });
    try {
      expect(fresh.recoverIfDamaged(new RangeError("offset out of bounds"))).toBe(true);
      expect(lines).toEqual(expect.arrayContaining(["snapshot.failed_while_serving", "snapshot.corrupt"]));
      expect(fresh.current()?.snapshotAt).toBe(NEWER);
    } finally {
      fresh.close();
    }
  });
});
