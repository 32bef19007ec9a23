/**
 * The serving side of the snapshot swap. The store holds the current snapshot and notices when a
 * new file has been renamed over the database path (by the refresher or by hand): the next
 * request opens it. A newly opened snapshot is prepared before it serves (its client-sync
 * documents written, its correction vocabulary read: see `onOpen`), in slices of the event loop
 * while the previous one keeps serving, and replaces it once ready: no request waits for that
 * work. Handlers are synchronous, so a request never sees two snapshots; the old one is closed
 * once no request can still hold it.
 */
import { SQLiteError } from "bun:sqlite";
import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { Log } from "../../base/log";
import type { Policy } from "../model/policy";
import { readVocabularyOnWorker, type Vocabulary } from "../search/vocabulary";
import { runSliced, SLICE_MS } from "./slices";
import { Snapshot } from "./snapshot";
import { restoreDatabase } from "./startup";
import { headerProblem } from "./validity";

export interface StoreOptions {
  /** How often, at most, a request stats the file when no change event arrived. */
  checkIntervalMs?: number;
  log?: Log;
  /** Time one slice of a new snapshot's preparation may hold the event loop (SLICE_MS). */
  sliceMs?: number;
  /**
   * Calls `tick` every `ms` and answers how to stop it: an unreferenced `setInterval` by default;
   * a test gives its own to pass the check interval without waiting for it.
   */
  every?: (ms: number, tick: () => void) => () => void;
  /** The organization's policy a default built while serving is held to (a damaged file's repair). */
  policy?: Policy | null;
}

/** The periodic check's timer unless the options give one: it keeps no process alive. */
function everyInterval(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/** Work a newly opened snapshot needs before it serves: a generator that may pause wherever it yields. */
export type Preparation = (snapshot: Snapshot) => Iterator<unknown, unknown>;

/**
 * A snapshot of up to this many plugins is prepared at once, within the request that noticed it;
 * a larger one in slices while the previous one serves.
 */
export const PREPARED_AT_ONCE = 1000;

/**
 * The correction vocabulary, read before the snapshot serves rather than on its first correction:
 * on a worker thread for a large snapshot (the file at `path` is the one opened), at once for a
 * small one or when the worker could not.
 */
function* vocabularyStep(snapshot: Snapshot, path: string, atOnce: boolean): Generator<unknown, void, unknown> {
  const words = atOnce ? null : ((yield readVocabularyOnWorker(path, snapshot.snapshotAt)) as Vocabulary | null);
  if (snapshot.closed) return;
  snapshot.prepareVocabulary(words ?? undefined);
}

interface FileId {
  ino: number;
  mtimeMs: number;
  size: number;
}

function fileId(path: string): FileId | null {
  try {
    const s = statSync(path);
    return { ino: s.ino, mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return null;
  }
}

function sameFile(a: FileId | null, b: FileId | null): boolean {
  return a !== null && b !== null && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.size === b.size;
}

/** SQLite's result codes for a file that is damaged or cannot be read: the snapshot must be restored. */
const DAMAGE_CODES = ["SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_IOERR", "SQLITE_CANTOPEN"];

/** True when `error` is SQLite saying the file is damaged or unreadable (not a bad query). */
export function isDamage(error: unknown): boolean {
  return error instanceof SQLiteError && DAMAGE_CODES.some((code) => String(error.code).startsWith(code));
}

export class CatalogStore {
  private snapshot: Snapshot | null = null;
  private loadedFile: FileId | null = null;
  /** Set when the file should be looked at again: a change was seen, or the check interval passed. */
  private dirty = true;
  /** Stops the periodic check's timer; null when every request looks (an interval of 0). */
  private readonly stopChecks: (() => void) | null;
  private watcher: FSWatcher | null = null;
  private readonly checkIntervalMs: number;
  private readonly swapListeners = new Set<(snapshot: Snapshot) => void>();
  private readonly preparations: Preparation[] = [];
  /** The snapshot opened and being prepared while the one before still serves, and the end of that. */
  private preparing: Snapshot | null = null;
  private preparation: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly options: StoreOptions = {},
  ) {
    this.checkIntervalMs = options.checkIntervalMs ?? 1000;
    // A timer marks the periodic check due, so a request reads no clock to know.
    const every = options.every ?? everyInterval;
    this.stopChecks = this.checkIntervalMs > 0 ? every(this.checkIntervalMs, () => (this.dirty = true)) : null;
    try {
      this.watcher = watch(dirname(path), (_event, name) => {
        if (name === null || name === basename(path)) this.dirty = true;
      });
      this.watcher.unref?.();
    } catch {
      this.watcher = null;
    }
  }

  /** The snapshot to serve now, or null when none could be opened yet. */
  current(): Snapshot | null {
    if (this.dirty || this.stopChecks === null) {
      this.dirty = false;
      this.reloadIfChanged();
    }
    return this.snapshot;
  }

  /** The snapshot opened last, without looking at the file again; null before one. */
  get loaded(): Snapshot | null {
    return this.snapshot;
  }

  /** Called with each newly published snapshot after it replaced the old one. */
  onSwap(listener: (snapshot: Snapshot) => void): () => void {
    this.swapListeners.add(listener);
    return () => this.swapListeners.delete(listener);
  }

  /** Adds work each newly opened snapshot does before it serves (run before the vocabulary is read). */
  onOpen(preparation: Preparation): void {
    this.preparations.push(preparation);
  }

  /** Whether a newly opened snapshot is being prepared while the one before serves. */
  get pending(): boolean {
    return this.preparing !== null;
  }

  /** The newest snapshot opened: the one being prepared, else the one serving. */
  newest(): Snapshot | null {
    const serving = this.current();
    return this.preparing ?? serving;
  }

  /** Settles once no snapshot is being prepared (the one prepared now serves, or was replaced). */
  async prepared(): Promise<void> {
    while (this.preparing !== null) await this.preparation;
  }

  /** Opens the file at the path if it is not the one being served; keeps the old one on failure. */
  reloadIfChanged(): boolean {
    const id = fileId(this.path);
    if (id === null || sameFile(id, this.loadedFile)) return false;
    let next: Snapshot;
    try {
      // A truncated file can still open; its first query past the end would fail instead.
      const damage = headerProblem(this.path);
      if (damage !== null) throw new Error(damage);
      next = Snapshot.open(this.path, this.options.log ?? null);
    } catch (error) {
      this.options.log?.("snapshot.open_failed", { path: this.path, error: (error as Error).message });
      this.loadedFile = id;
      return false;
    }
    this.loadedFile = id;
    // A newer file replaces one still being prepared, which never served.
    const dropped = this.preparing;
    this.preparing = null;
    dropped?.close();
    return this.prepare(next);
  }

  /**
   * Runs the preparations of `next` in slices, then serves it; true when that happened at once (the
   * work fitted in one slice). The first snapshot, with nothing to serve meanwhile, serves at once.
   */
  private prepare(next: Snapshot): boolean {
    const atOnce = next.stats.total <= PREPARED_AT_ONCE;
    const path = this.path;
    const work = function* (preparations: readonly Preparation[]) {
      for (const preparation of preparations) yield* { [Symbol.iterator]: () => preparation(next) };
      yield* vocabularyStep(next, path, atOnce);
    };
    const failed = (error: unknown) => {
      // The snapshot serves anyway: what its preparation did not do is done when first asked.
      if (!next.closed) this.options.log?.("snapshot.prepare_failed", { error: (error as Error).message });
    };
    const serving = this.snapshot === null;
    if (serving) this.serve(next);
    else this.preparing = next;
    let run: ReturnType<typeof runSliced<void>>;
    try {
      run = runSliced(work(this.preparations), atOnce ? Number.POSITIVE_INFINITY : (this.options.sliceMs ?? SLICE_MS));
    } catch (error) {
      failed(error);
      run = { done: true, value: undefined };
    }
    if (run.done) {
      if (!serving) this.serve(next);
      return true;
    }
    this.preparation = run.promise.catch(failed).then(() => {
      if (this.preparing === next) this.serve(next);
    });
    return serving;
  }

  private serve(next: Snapshot): void {
    if (this.preparing === next) this.preparing = null;
    const previous = this.snapshot;
    this.snapshot = next;
    this.options.log?.("snapshot.loaded", { snapshotAt: next.snapshotAt, total: next.stats.total });
    for (const listener of this.swapListeners) listener(next);
    // Handlers never hold a snapshot across an await; closing on the next tick is safe.
    if (previous) setTimeout(() => previous.close(), 0);
  }

  /**
   * When `error` says the file is damaged: stops serving it (readiness and catalog requests answer
   * 503 meanwhile), restores the path with the newest good data as a start does, and opens it.
   * True when `error` was such damage.
   */
  recoverFrom(error: unknown): boolean {
    if (!isDamage(error)) return false;
    const log = this.options.log ?? (() => {});
    log("snapshot.damaged_while_serving", { path: this.path, error: (error as Error).message });
    const broken = this.snapshot;
    const preparing = this.preparing;
    this.snapshot = null;
    this.preparing = null;
    this.loadedFile = null;
    if (broken) setTimeout(() => broken.close(), 0);
    preparing?.close();
    try {
      restoreDatabase(this.path, log, this.options.policy ?? null);
    } catch (repairError) {
      log("snapshot.repair_failed", { path: this.path, error: (repairError as Error).message });
    }
    this.reloadIfChanged();
    return true;
  }

  close(): void {
    this.stopChecks?.();
    this.watcher?.close();
    this.snapshot?.close();
    this.snapshot = null;
    this.preparing?.close();
    this.preparing = null;
  }
}
