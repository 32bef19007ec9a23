/**
 * What the bench prepares before any load: the synthetic snapshot files (each built in its own
 * process, so build time and peak memory are the builder's alone) and the search queries.
 */
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { join } from "node:path";
import { Snapshot } from "../src/catalog/snapshot/snapshot";
import { type CatalogFacts, HOT_QUERY } from "./scenarios";
import { loadRealFacts, random } from "./synthetic";
import type { BuildResult } from "./targets";
import { broadQueries, shuffle, vocabulary } from "./vocabulary";

export interface BuiltSnapshot extends BuildResult {
  path: string;
}

/** Builds in a child process on both CPUs: the builder writes the index on a second thread. */
export async function buildSnapshotFile(count: number, path: string): Promise<BuiltSnapshot> {
  const command = [process.execPath, join(import.meta.dir, "build-snapshot.ts"), String(count), path];
  const child = Bun.spawn(command, { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`building the ${count} snapshot failed`);
  const result = JSON.parse(out.trim().split("\n").pop()!) as { buildMs: number; peakRssMb: number };
  return { count, path, buildMs: result.buildMs, peakRssMb: result.peakRssMb, fileMb: statSync(path).size / 2 ** 20 };
}

export interface SearchQueries {
  /** Distinct queries of one or two real words, matching few to many plugins. */
  words: string[];
  /** Single words (or one-letter prefixes) each found in at least half of the catalog. */
  broadWords: string[];
  /** Distinct sets of two or three such terms whose plugins are still at least half of the catalog. */
  broadCombos: string[];
}

/**
 * The same terms in any order are one query to the service (it sorts them): keep one of each,
 * and none that is the hot runs' query or in `taken`.
 */
function distinctSets(queries: string[], taken: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>([HOT_QUERY, ...taken]);
  return queries.filter((q) => {
    const key = q.split(" ").sort().join(" ");
    return !seen.has(key) && seen.add(key);
  });
}

/** The queries of the cold search runs; breadth is checked on the snapshot at `probePath`. */
export function searchQueries(probePath: string): SearchQueries {
  const vocab = vocabulary(loadRealFacts().facts);
  const next = random(3);
  const snapshot = Snapshot.open(probePath);
  const half = snapshot.stats.total / 2;
  const broadEnough = (q: string) =>
    snapshot.list({ q, sort: "stars", category: null, curated: false, offset: 0, limit: 1 }).total >= half;
  const broad = distinctSets(broadQueries(vocab.broad, next)).filter(broadEnough);
  snapshot.close();
  const top = vocab.words.slice(0, 150);
  const pairs = top.flatMap((a) => top.filter((b) => b !== a).map((b) => `${a} ${b}`));
  const words = shuffle(distinctSets([...vocab.words, ...pairs], new Set(broad)), next).slice(0, 30_000);
  return {
    words,
    broadWords: broad.filter((q) => !q.includes(" ")),
    broadCombos: shuffle(
      broad.filter((q) => q.includes(" ")),
      next,
    ),
  };
}

/** Splits `list` into `parts` disjoint slices, so no two runs share a query. */
function split<T>(list: T[], parts: number): T[][] {
  const size = Math.ceil(list.length / parts);
  return Array.from({ length: parts }, (_, i) => list.slice(i * size, (i + 1) * size));
}

/** What the scenarios need to know of one catalog. */
export function catalogFacts(path: string, queries: SearchQueries): CatalogFacts {
  const db = new Database(path, { readonly: true });
  const ids = db
    .query<{ id: string }, []>(`SELECT id FROM plugins`)
    .all()
    .map((r) => r.id);
  db.close();
  const next = random(7);
  return {
    snapshot: Snapshot.open(path),
    ids: shuffle(ids, next).slice(0, 30_000),
    words: split(queries.words, 3),
    broadWords: queries.broadWords,
    broadCombos: split(queries.broadCombos, 3),
    next,
  };
}
