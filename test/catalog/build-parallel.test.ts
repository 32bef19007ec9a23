import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSnapshot } from "../../src/catalog/build";
import { randomInput } from "./random-catalog";

const dir = mkdtempSync(join(tmpdir(), "catalog-build-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dump(path: string, sql: string, ...params: string[]): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.query(sql).values(...params);
  } finally {
    db.close();
  }
}

function captured(run: () => unknown): string {
  try {
    run();
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("a snapshot built with its index on a worker thread", () => {
  test("is the snapshot built on one thread: rows, orders, terms and every search answer", () => {
    const input = randomInput(3000, 5);
    const inline = join(dir, "inline.sqlite");
    const parallel = join(dir, "parallel.sqlite");
    buildSnapshot(inline, input, { parallelIndex: false });
    buildSnapshot(parallel, input, { parallelIndex: true });
    for (const sql of [`SELECT * FROM plugins ORDER BY rowid`, `SELECT * FROM orders ORDER BY key`, `SELECT * FROM terms`, `SELECT * FROM meta ORDER BY key`]) {
      expect(dump(parallel, sql)).toEqual(dump(inline, sql));
    }
    for (const match of [`"mcp"*`, `"s"* AND "a"*`, `name : ("git"*)`, `("server" OR "servers") NOT topics : ("mcp"*)`, `"mcp server"*`]) {
      const sql = `SELECT rowid FROM plugins_fts WHERE plugins_fts MATCH ? ORDER BY rowid`;
      expect(dump(parallel, sql, match)).toEqual(dump(inline, sql, match));
    }
  });

  test("a failure on the worker fails the build with the worker's message", () => {
    const inline = captured(() => buildSnapshot(join(dir, "missing", "a.sqlite"), randomInput(10, 6), { parallelIndex: false }));
    const parallel = captured(() => buildSnapshot(join(dir, "missing", "b.sqlite"), randomInput(10, 6), { parallelIndex: true }));
    expect(inline).toBeTruthy();
    expect(parallel).toBe(inline);
  });
});
