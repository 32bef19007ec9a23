/**
 * Start-up faults, with the real entry point in a child process: a missing, truncated, garbage or
 * empty database, leftovers of a killed build, and bad configuration.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { loadDefaultData } from "../../src/catalog/model/editorial";
import { publishMarked, tempDir } from "./support/catalog";
import { ensureStopped, type Service, startService } from "./support/process";

const DEFAULT_AT = loadDefaultData().snapshotAt;
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

async function readyz(s: Service): Promise<{ status: number; body: any }> {
  const response = await fetch(`${s.url}/readyz`);
  return { status: response.status, body: await response.json() };
}

async function stop(s: Service): Promise<number> {
  s.proc.kill("SIGTERM");
  return s.exited;
}

describe("start-up with a missing or damaged database", () => {
  test("a missing database is built from the embedded default", async () => {
    const { path } = database();
    service = await startService({ DATABASE_PATH: path });
    expect(service.events.map((e) => e.event)).toContain("snapshot.created_default");
    expect(await readyz(service)).toMatchObject({ status: 200, body: { status: "ready", snapshotAt: DEFAULT_AT } });
    const list = (await (await fetch(`${service.url}/api/v1/plugins`)).json()) as any;
    expect(list.data.total).toBeGreaterThan(700);
    expect(await stop(service)).toBe(0);
  });

  test("the served documents are written before the server listens: a first client waits on none", async () => {
    const { path } = database();
    service = await startService({ DATABASE_PATH: path });
    const events = service.events.map((e) => e.event);
    expect(events).toContain("server.documents_written");
    expect(events.indexOf("server.documents_written")).toBeLessThan(events.indexOf("server.listening"));
    const marketplace = await fetch(`${service.url}/market/claude/marketplace.json`);
    expect(marketplace.status).toBe(200);
    expect(await stop(service)).toBe(0);
  });

  const damages: Array<[string, (path: string) => void]> = [
    ["truncated to half", (path) => truncateSync(path, Math.floor(readFileSync(path).length / 2))],
    ["truncated to its header", (path) => truncateSync(path, 100)],
    [
      "overwritten with garbage",
      (path) => writeFileSync(path, Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919) % 251))),
    ],
    ["empty", (path) => writeFileSync(path, "")],
    ["a text file", (path) => writeFileSync(path, "this is not a database\n")],
  ];
  for (const [name, damage] of damages) {
    test(`a database ${name} is set aside with a clear log line and the default serves`, async () => {
      const { dir, path } = database();
      publishMarked(path, "2026-03-04T05:06:07.890Z");
      damage(path);
      const damaged = readFileSync(path);
      service = await startService({ DATABASE_PATH: path });
      const corrupt = await service.waitFor("snapshot.corrupt");
      expect(corrupt.path).toBe(path);
      expect(String(corrupt.problem).length).toBeGreaterThan(0);
      expect(readFileSync(String(corrupt.movedTo)).equals(damaged)).toBe(true);
      expect(readdirSync(dir).filter((f) => f.includes("-corrupt-"))).toHaveLength(1);
      expect(service.events.map((e) => e.event)).toContain("snapshot.created_default");
      expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt: DEFAULT_AT } });
      expect(await stop(service)).toBe(0);
    });
  }

  test("a database damaged after a good start is replaced by the newer last good snapshot, not the default", async () => {
    const { path } = database();
    const snapshotAt = publishMarked(path, "2030-05-06T07:08:09.100Z");
    service = await startService({ DATABASE_PATH: path });
    expect(service.events.map((e) => e.event)).toContain("snapshot.last_good_saved");
    expect(await stop(service)).toBe(0);
    truncateSync(path, 4096);
    service = await startService({ DATABASE_PATH: path });
    expect(service.events.map((e) => e.event)).toEqual(
      expect.arrayContaining(["snapshot.corrupt", "snapshot.restored_last_good"]),
    );
    expect(service.events.map((e) => e.event)).not.toContain("snapshot.created_default");
    expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt } });
    const plugin = (await (await fetch(`${service.url}/api/v1/plugins/owner1/repo-1`)).json()) as any;
    expect(plugin.data.plugin.description).toContain(snapshotAt);
    expect(await stop(service)).toBe(0);
  });

  test("a deleted database comes back from its newer last good copy, not the default, which is kept", async () => {
    const { path } = database();
    const snapshotAt = publishMarked(path, "2030-01-02T03:04:05.600Z");
    expect(Date.parse(snapshotAt)).toBeGreaterThan(Date.parse(DEFAULT_AT));
    service = await startService({ DATABASE_PATH: path });
    expect(await stop(service)).toBe(0);
    rmSync(path);
    service = await startService({ DATABASE_PATH: path });
    const events = service.events.map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(["snapshot.missing", "snapshot.restored_last_good"]));
    expect(events).not.toContain("snapshot.created_default");
    expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt } });
    expect(await stop(service)).toBe(0);
    service = await startService({ DATABASE_PATH: `${path}` });
    expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt } });
    expect(await stop(service)).toBe(0);
  });

  test("a last good copy older than the embedded default gives way to it", async () => {
    const { path } = database();
    publishMarked(path, "2020-01-02T03:04:05.600Z");
    service = await startService({ DATABASE_PATH: path });
    expect(await stop(service)).toBe(0);
    rmSync(path);
    service = await startService({ DATABASE_PATH: path });
    expect(service.events.map((e) => e.event)).toContain("snapshot.created_default");
    expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt: DEFAULT_AT } });
    expect(await stop(service)).toBe(0);
  });

  test("a last good copy that cannot be written is logged and the good database still serves", async () => {
    const { path } = database();
    const snapshotAt = publishMarked(path, "2026-05-06T07:08:09.100Z");
    // A directory where the copy should go: every write of it fails, as on a full or read-only disk.
    mkdirSync(`${path}-last-good`);
    writeFileSync(join(`${path}-last-good`, "keep"), "x");
    service = await startService({ DATABASE_PATH: path });
    expect(service.events.map((e) => e.event)).toContain("snapshot.last_good_failed");
    expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt } });
    expect(await stop(service)).toBe(0);
  });

  test("a symlinked database is repaired through the link: the target replaced, the link kept", async () => {
    const { dir } = database();
    mkdirSync(join(dir, "volume"));
    const target = join(dir, "volume", "real.sqlite");
    const link = join(dir, "catalog.sqlite");
    symlinkSync(target, link);
    const snapshotAt = publishMarked(link, "2030-05-06T07:08:09.100Z");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    service = await startService({ DATABASE_PATH: link });
    expect(await stop(service)).toBe(0);
    truncateSync(target, 4096);
    const dead = Bun.spawnSync([process.execPath, "-e", "0"]).pid;
    writeFileSync(`${target}.tmp-${dead}-abc123`, "half a snapshot");
    service = await startService({ DATABASE_PATH: link });
    expect(service.events.map((e) => e.event)).toContain("snapshot.restored_last_good");
    expect(await readyz(service)).toMatchObject({ status: 200, body: { snapshotAt } });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(readdirSync(join(dir, "volume")).filter((name) => name.includes(".tmp-"))).toEqual([]);
    expect(await stop(service)).toBe(0);
  });

  test("temporary files of a build killed mid-way are removed at start", async () => {
    const { dir, path } = database();
    publishMarked(path, "2026-05-06T07:08:09.100Z");
    const dead = Bun.spawnSync([process.execPath, "-e", "0"]).pid;
    const leftover = `${path}.tmp-${dead}-abc123`;
    writeFileSync(leftover, "half a snapshot");
    service = await startService({ DATABASE_PATH: path });
    expect(existsSync(leftover)).toBe(false);
    expect(service.events.find((e) => e.event === "snapshot.leftovers_removed")?.files).toEqual([
      `catalog.sqlite.tmp-${dead}-abc123`,
    ]);
    // The client-sync documents' directory (docs/operations.md) is the service's own, not a leftover.
    expect(
      readdirSync(dir)
        .filter((name) => name !== "catalog.sqlite-sync")
        .sort(),
    ).toEqual(["catalog.sqlite", "catalog.sqlite-last-good"]);
    expect(await stop(service)).toBe(0);
  });
});

describe("bad configuration", () => {
  const bad: Array<[string, string]> = [
    ["PORT", "eighty"],
    ["RATE_LIMIT_WINDOW_MS", "-5"],
    ["RATE_LIMIT_MAX_KEYS", "0"],
    ["READY_MAX_AGE_S", "1h"],
    ["TRUST_PROXY", "perhaps"],
    ["LOG_CLIENT_IP", "yes please"],
    ["BASE_URL", "catalog.example"],
  ];
  for (const [name, value] of bad) {
    test(`${name}=${value} stops the process at once, naming ${name}`, async () => {
      const { path } = database();
      const proc = Bun.spawn([process.execPath, "run", "src/index.ts"], {
        cwd: join(import.meta.dir, "..", ".."),
        env: { PATH: process.env.PATH ?? "", PORT: "0", REFRESH_CRON: "off", DATABASE_PATH: path, [name]: value },
        stdout: "pipe",
        stderr: "pipe",
      });
      const code = await proc.exited;
      const stderr = await new Response(proc.stderr).text();
      const stdout = await new Response(proc.stdout).text();
      expect(code).toBe(2);
      expect(stderr).toContain(name);
      expect(stderr).not.toContain("    at ");
      expect(stdout).not.toContain("server.listening");
      expect(existsSync(path)).toBe(false);
    });
  }
});
