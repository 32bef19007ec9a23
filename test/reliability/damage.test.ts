/**
 * The database damaged under a running server (overwritten in place, as a bad disk or a stray
 * writer would): no request gets a 500, readiness is off until the last good copy serves again.
 */
import { afterAll, expect, test } from "bun:test";
import { closeSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { saveLastGood } from "../../src/catalog/snapshot/last-good";
import { eventually, plugin, snapshotInput, startServer, type TestServer } from "../helpers";

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
const plugins = Array.from({ length: 300 }, (_, i) =>
  plugin(`owner${i}/tool-${i}`, { description: `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} tool number ${i}`, stars: i }),
);
let server: TestServer | undefined;
afterAll(() => server?.stop());

/** Garbage over every page but the header's first 100 bytes, whose change counter moves on. */
function damageInPlace(path: string): void {
  const fd = openSync(path, "r+");
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    header.writeUInt32BE(header.readUInt32BE(24) + 1, 24);
    writeSync(fd, header, 0, 100, 0);
    const garbage = Buffer.alloc(statSync(path).size - 100, 0xa5);
    writeSync(fd, garbage, 0, garbage.length, 100);
  } finally {
    closeSync(fd);
  }
}

test("a database damaged under load: no 500, at most a 503 while it is restored, then the last good copy serves", async () => {
  server = startServer(snapshotInput(plugins));
  saveLastGood(server.path);
  const s = server;
  const statuses: number[] = [];
  const readiness: number[] = [];
  let running = true;
  let n = 0;
  const load = Array.from({ length: 8 }, async () => {
    while (running) {
      // Distinct queries, so answers come from the database, not the response cache.
      const i = n++;
      const res = await s.get(`/api/v1/plugins?q=${WORDS[i % 10]}+${i}&limit=${1 + (i % 50)}`);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
  });
  // Readiness asked back to back beside the load, each probe once the one before has answered.
  const probe = (async () => {
    while (running) readiness.push((await s.get("/readyz")).status);
  })();
  // Load is counted in answers, not in wall time, so a busy machine gives the same test.
  const answered = (count: number, also: () => boolean = () => true) =>
    eventually(() => statuses.length >= count && also(), 20_000, `${count} answers`);
  await answered(20);
  const before = statuses.length;
  damageInPlace(s.path);
  await answered(before + 50, () => s.lines.some((l) => l.event === "snapshot.restored_last_good"));
  running = false;
  await Promise.all([...load, probe]);
  expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
  expect(statuses.length).toBeGreaterThan(50);
  expect(readiness.every((status) => status === 200 || status === 503)).toBe(true);
  // The damage was seen and repaired, not missed by a cache.
  expect(s.lines.map((l) => l.event)).toEqual(
    expect.arrayContaining(["snapshot.damaged_while_serving", "snapshot.restored_last_good"]),
  );
  // Served again from the restored copy.
  expect((await s.get("/readyz")).status).toBe(200);
  const after = await s.get("/api/v1/plugins?q=juliet&limit=3");
  expect(after.status).toBe(200);
  expect(((await after.json()) as { data: { total: number } }).data.total).toBeGreaterThan(0);
  expect(statuses.at(-1)).toBe(200);
}, 30_000);
