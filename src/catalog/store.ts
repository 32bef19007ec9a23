/**
 * The serving side of the snapshot swap. The store holds the current snapshot and notices when a
 * new file has been renamed over the database path (by the refresher or by hand): the next
 * request opens it. Handlers are synchronous, so a request never sees two snapshots; the old one
 * is closed once no request can still hold it.
 */
import { existsSync, type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { Snapshot } from "./snapshot";
import { replaceDamaged } from "./startup";
import { headerProblem, snapshotProblem } from "./validity";

/** SQLite's codes for a file that went bad under a reader: damaged pages, not a database, I/O. */
const DATABASE_FAULT = /^SQLITE_(?:CORRUPT|NOTADB|IOERR|CANTOPEN|FULL|PROTOCOL)/;

/** Whether `error` says the database file itself failed (rather than a query or the request). */
export function isDatabaseFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && DATABASE_FAULT.test(code);
}

export interface StoreOptions {
  /** How often, at most, a request stats the file when no change event arrived. */
  checkIntervalMs?: number;
  log?: (event: string, fields: Record<string, unknown>) => void;
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

export class CatalogStore {
  private snapshot: Snapshot | null = null;
  private loadedFile: FileId | null = null;
  /** Set when the file should be looked at again: a change was seen, or the check interval passed. */
  private dirty = true;
  private readonly checkTimer: ReturnType<typeof setInterval> | null;
  private watcher: FSWatcher | null = null;
  private readonly checkIntervalMs: number;
  private lastFileCheck = Number.NEGATIVE_INFINITY;
  private readonly swapListeners = new Set<(snapshot: Snapshot) => void>();

  constructor(
    readonly path: string,
    private readonly options: StoreOptions = {},
  ) {
    this.checkIntervalMs = options.checkIntervalMs ?? 1000;
    // A timer marks the periodic check due, so a request reads no clock to know.
    this.checkTimer = this.checkIntervalMs > 0 ? setInterval(() => (this.dirty = true), this.checkIntervalMs) : null;
    this.checkTimer?.unref();
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
    if (this.dirty || this.checkTimer === null) {
      this.dirty = false;
      this.reloadIfChanged();
    }
    return this.snapshot;
  }

  /** Called with each newly published snapshot after it replaced the old one. */
  onSwap(listener: (snapshot: Snapshot) => void): () => void {
    this.swapListeners.add(listener);
    return () => this.swapListeners.delete(listener);
  }

  /**
   * Called when serving a request failed unexpectedly: true (after recovering) when the database was
   * the cause, by SQLite's code or, at most once per check interval, by a check of the file, since
   * garbage that SQLite reads as valid pages fails in the code that reads it.
   */
  recoverIfDamaged(error: unknown): boolean {
    if (isDatabaseFault(error)) {
      this.recover(error);
      return true;
    }
    const now = performance.now();
    if (now - this.lastFileCheck < Math.max(this.checkIntervalMs, 1000)) return false;
    this.lastFileCheck = now;
    const problem = existsSync(this.path) ? snapshotProblem(this.path) : "missing";
    if (problem === null) return false;
    this.recover(new Error(`${(error as Error)?.message ?? String(error)}; the file: ${problem}`));
    return true;
  }

  /**
   * Called when serving hit a database fault: stops serving the snapshot (503, /readyz 503), moves
   * a damaged file aside for the newest good copy (the last good one, else the default) and opens
   * what is then at the path. True when a snapshot serves again.
   */
  recover(error: unknown): boolean {
    const failed = this.snapshot;
    this.snapshot = null;
    this.loadedFile = null;
    if (failed) setTimeout(() => failed.close(), 0);
    const log = this.options.log ?? (() => {});
    log("snapshot.failed_while_serving", { path: this.path, error: (error as Error)?.message ?? String(error) });
    try {
      const problem = existsSync(this.path) ? snapshotProblem(this.path) : "missing";
      if (problem !== null && existsSync(this.path)) replaceDamaged(this.path, problem, log);
      this.reloadIfChanged();
    } catch (repairError) {
      log("snapshot.recovery_failed", { path: this.path, error: (repairError as Error).message });
    }
    // Until one opens, every later request looks at the file again.
    this.dirty = true;
    return this.snapshot !== null;
  }

  /** Opens the file at the path if it is not the one being served; keeps the old one on failure. */
  reloadIfChanged(): boolean {
    const id = fileId(this.path);
    if (id === null || sameFile(id, this.loadedFile)) return false;
    // A publish renames a new file into place; the served file changed in place has been damaged.
    if (this.snapshot !== null && this.loadedFile !== null && id.ino === this.loadedFile.ino) {
      return this.recover(new Error("the served database file changed in place"));
    }
    let next: Snapshot;
    try {
      // A truncated file can still open; its first query past the end would fail instead.
      const damage = headerProblem(this.path);
      if (damage !== null) throw new Error(damage);
      next = Snapshot.open(this.path);
    } catch (error) {
      this.options.log?.("snapshot.open_failed", { path: this.path, error: (error as Error).message });
      this.loadedFile = id;
      return false;
    }
    const previous = this.snapshot;
    this.snapshot = next;
    this.loadedFile = id;
    this.options.log?.("snapshot.loaded", { snapshotAt: next.snapshotAt, total: next.stats.total });
    for (const listener of this.swapListeners) listener(next);
    // Handlers never hold a snapshot across an await; closing on the next tick is safe.
    if (previous) setTimeout(() => previous.close(), 0);
    return true;
  }

  close(): void {
    if (this.checkTimer !== null) clearInterval(this.checkTimer);
    this.watcher?.close();
    this.snapshot?.close();
    this.snapshot = null;
  }
}
