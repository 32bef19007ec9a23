/** Checks a freshly built snapshot file before it is published: it opens as a snapshot, is intact, holds what was put in. */
import { Database } from "bun:sqlite";
import { Snapshot } from "./snapshot";

const QUICK_CHECK = `PRAGMA quick_check`;
const COUNT_PLUGINS = `SELECT count(*) AS n FROM plugins`;
const COUNT_INDEXED = `SELECT count(*) AS n FROM plugins_fts`;

/** Throws when the file at `path` is not a complete snapshot of `expectedTotal` plugins. */
export function verifySnapshotFile(path: string, expectedTotal: number): void {
  Snapshot.open(path).close();
  const db = new Database(path, { readonly: true, strict: true });
  try {
    const check = db.prepare<{ quick_check: string }, []>(QUICK_CHECK).get()?.quick_check;
    if (check !== "ok") throw new Error(`snapshot file fails its integrity check: ${check}`);
    const plugins = db.prepare<{ n: number }, []>(COUNT_PLUGINS).get()?.n;
    const indexed = db.prepare<{ n: number }, []>(COUNT_INDEXED).get()?.n;
    if (plugins !== expectedTotal || indexed !== expectedTotal) {
      throw new Error(`snapshot file holds ${plugins} plugins (${indexed} indexed), expected ${expectedTotal}`);
    }
  } finally {
    db.close();
  }
}
