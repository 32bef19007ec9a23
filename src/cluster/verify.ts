/**
 * A snapshot from Redis is another instance's word, or anyone's who can write to Redis: it is
 * checked in a child process, with a time limit, before it may replace the local one. Its schema
 * must be exactly the service's own (`sqlite_master` compared row by row: no view, trigger, index
 * or table more or less), since a `plugins` view with a slow query would pass every other check
 * and stall each request; then the file must pass the checks a local publish passes. The child is
 * killed when it takes longer than the limit, so a forged file costs at most that, off the event loop.
 */
import { Database } from "bun:sqlite";
import { SCHEMA } from "../catalog/model/snapshot-schema";
import { Snapshot } from "../catalog/snapshot/snapshot";
import { checkCounts, headerProblem } from "../catalog/snapshot/validity";

/** Longer than a sound snapshot of 100,000 plugins takes to check (bench/RESULTS.md), far shorter than a stall. */
export const VERIFY_TIMEOUT_MS = 30_000;

/**
 * `detailsDropped`: plugins whose stored details fail their schema and install rules
 * (model/stored.ts). Those are served without their details, so the file is still taken; the
 * count and the first few are logged. `retry`: the check could not be made (Redis went away); the
 * snapshot itself is not to blame.
 */
export type Verdict =
  | {
      ok: true;
      snapshotAt: string;
      total: number;
      detailsDropped: number;
      dropped: Array<{ id: string; problem: string }>;
    }
  | { ok: false; problem: string; retry?: boolean };

interface MasterRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

const SELECT_MASTER = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name";

/** The service's own schema as SQLite records it. */
function ownSchema(): MasterRow[] {
  const db = new Database(":memory:");
  try {
    db.exec(SCHEMA);
    return db.query<MasterRow, []>(SELECT_MASTER).all();
  } finally {
    db.close();
  }
}

/** Why `path`'s schema is not the service's own, or null. */
function schemaProblem(db: Database): string | null {
  const own = new Map(ownSchema().map((r) => [`${r.type} ${r.name}`, r]));
  const found = db.query<MasterRow, []>(SELECT_MASTER).all();
  for (const row of found) {
    const mine = own.get(`${row.type} ${row.name}`);
    if (!mine) return `unexpected ${row.type} ${row.name}`;
    if (mine.tbl_name !== row.tbl_name || mine.sql !== row.sql) return `${row.type} ${row.name} differs`;
    own.delete(`${row.type} ${row.name}`);
  }
  const missing = [...own.keys()][0];
  return missing === undefined ? null : `missing ${missing}`;
}

/** The whole check, in this process: what the child runs. */
export function verifyHere(path: string): Verdict {
  const damage = headerProblem(path);
  if (damage !== null) return { ok: false, problem: damage };
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true, strict: true });
    const schema = schemaProblem(db);
    if (schema !== null) return { ok: false, problem: `schema is not the service's own: ${schema}` };
    const findings = db
      .query<{ quick_check: string }, []>("PRAGMA quick_check")
      .all()
      .map((r) => r.quick_check)
      .filter((r) => r !== "ok");
    if (findings.length) return { ok: false, problem: `integrity check failed: ${findings.slice(0, 3).join("; ")}` };
    db.close();
    db = undefined;
    const snapshot = Snapshot.open(path);
    const { snapshotAt, stats } = snapshot;
    const details = snapshot.checkAllDetails();
    snapshot.close();
    // The integrity check ran above: only the counts are left, so it runs once.
    checkCounts(path, stats.total);
    return { ok: true, snapshotAt, total: stats.total, detailsDropped: details.dropped, dropped: details.first };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  } finally {
    db?.close();
  }
}

/**
 * Runs `script` (an entry that prints one Verdict as JSON) in a child process given `input` on its
 * standard input, killed after `timeoutMs` or when this process exits.
 */
export async function verdictOfChild(
  script: string,
  args: string[],
  input: string,
  timeoutMs: number,
): Promise<Verdict> {
  const child = Bun.spawn([process.execPath, script, ...args], {
    stdin: new Blob([input]),
    stdout: "pipe",
    stderr: "ignore",
  });
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  try {
    const [output] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    if (timedOut) return { ok: false, problem: `the check took longer than ${timeoutMs} ms` };
    const verdict = JSON.parse(output) as Verdict;
    return verdict.ok === true || verdict.ok === false ? verdict : { ok: false, problem: "the check said nothing" };
  } catch {
    return { ok: false, problem: timedOut ? `the check took longer than ${timeoutMs} ms` : "the check failed" };
  } finally {
    clearTimeout(timer);
    process.off("exit", orphaned);
  }
}

/** Checks the file at `path` in a child process, killed after `timeoutMs` or when this process exits. */
export function verifySnapshotFile(path: string, timeoutMs = VERIFY_TIMEOUT_MS): Promise<Verdict> {
  return verdictOfChild(import.meta.path, [path], "", timeoutMs);
}

if (import.meta.main) {
  process.stdout.write(JSON.stringify(verifyHere(process.argv[2] ?? "")));
}
