/**
 * The client-sync documents of a snapshot, served from the files a child process wrote for it
 * (doc-writer.ts in a child process, doc-files.ts): catalog.json in both forms, and every plugin that a `changes` answer
 * can hold, grouped by when it changed and when it was first seen. A `changes` answer is a run of
 * those groups between a small head and tail: its cost is about that of sending its bytes, and
 * the process holds none of them.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Log } from "../base/log";
import type { ChangeSet } from "../catalog/model/history";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import { type CatalogStore, PREPARED_AT_ONCE } from "../catalog/snapshot/store";
import { strongEtag } from "../http/render";
import { documentsInChild, documentsKey, documentsRoot, removeOtherDocuments, spareDocumentsRoot } from "./doc-files";
import { CATALOG_TAIL, catalogHead, type DocumentIndex, FILES, INDEX_FILE, withLastUpdate } from "./doc-writer";
import { documentsOf } from "./documents-job";
import { FileBody, type Piece } from "./file-body";
import { PiecesBuilder } from "./pieces";

/** A document in files and its strong ETag (of the plain form). */
export interface PartsDocument {
  body: FileBody;
  etag: string;
}

export class SnapshotClosed extends Error {
  override name = "SnapshotClosed";
}

/** A `changes` answer around its added and updated items: the text before, between and after them. */
function changesText(snapshotAt: string, since: string, { removed, renamed }: ChangeSet): [string, string, string] {
  return [
    `{"snapshotAt":${JSON.stringify(snapshotAt)},"since":${JSON.stringify(since)},"added":[`,
    '],"updated":[',
    `],"removed":${JSON.stringify(removed)},"renamed":${JSON.stringify(renamed)}}`,
  ];
}

export class SyncDocuments {
  private readonly answers = new Map<string, PartsDocument>();
  readonly catalog: PartsDocument;

  private constructor(
    private readonly index: DocumentIndex,
    private readonly dir: string,
    /** Found from an earlier start (checked), not written now. */
    readonly reused: boolean,
  ) {
    const file = (name: string, length: number): Piece => ({ path: `${dir}/${name}`, offset: 0, length });
    this.catalog = {
      body: new FileBody(
        [file(FILES.catalog, index.catalog.plainBytes)],
        [file(FILES.catalogGzip, index.catalog.gzipBytes)],
      ),
      etag: index.catalog.etag,
    };
  }

  get snapshotAt(): string {
    return this.index.snapshotAt;
  }

  /** Finds or writes the documents of a small snapshot now, in this process. */
  static here(snapshot: Snapshot, path: string): SyncDocuments {
    const { index, dir, reused } = documentsOf(snapshot, path, documentsRoot(path));
    return new SyncDocuments(index, dir, reused);
  }

  /** Finds or writes the documents of `snapshot`, opened from `path`, in a child process. */
  static async of(snapshot: Snapshot, path: string): Promise<SyncDocuments> {
    const { index, dir, reused } = await documentsInChild(path, snapshot.snapshotAt);
    return new SyncDocuments(index, dir, reused);
  }

  /** The directory the documents are read from. */
  get directory(): string {
    return this.dir;
  }

  /** catalog.json with its first item only: an example read without writing the whole document. */
  static catalogExample(snapshot: Snapshot): string {
    const items = snapshot.catalogRowsAfter(0, 1).map((row) => withLastUpdate(row.json, snapshot.lastUpdate(row.id)));
    return `${catalogHead(snapshot)}${items.join(",")}${CATALOG_TAIL}`;
  }

  /** The `changes` answer from a snapshot to itself: nothing added, updated, removed or renamed. */
  static unchanged(snapshotAt: string): string {
    return changesText(snapshotAt, snapshotAt, { removed: [], renamed: [] }).join("");
  }

  /** Whether the answer from `since` was assembled already. */
  hasChanges(since: string): boolean {
    return this.answers.has(since);
  }

  /**
   * The `changes` answer from `since` to this snapshot, or null when the history does not reach
   * `since`. `added`: plugins first seen after `since`; `updated`: the others changed after it;
   * each by the time it changed, then stars descending.
   */
  changes(since: string): PartsDocument | null {
    const known = this.answers.get(since);
    if (known !== undefined) return known;
    const { times, groups, changeSets } = this.index;
    const k = since === this.snapshotAt ? times.length : times.indexOf(since);
    if (k === -1) return null;
    const added = groups
      .filter((g) => g.firstSeen > k)
      .sort((a, b) => a.firstSeen - b.firstSeen || a.changed - b.changed);
    const updated = groups
      .filter((g) => g.changed > k && g.firstSeen <= k)
      .sort((a, b) => a.changed - b.changed || a.firstSeen - b.firstSeen);
    const changeSet = k === times.length ? { removed: [], renamed: [] } : changeSets[k]!;
    const [head, between, tail] = changesText(this.snapshotAt, since, changeSet);
    const pieces = new PiecesBuilder(this.dir);
    pieces.text(head);
    pieces.groups(added);
    pieces.text(between);
    pieces.groups(updated);
    pieces.text(tail);
    const body = pieces.body();
    const version = Bun.hash(`${this.catalog.etag}\u0000${since}`);
    const answer = { body, etag: strongEtag(version, body.plainLength) };
    this.answers.set(since, answer);
    return answer;
  }
}

/** Documents begun before the server listened (documentsAhead), taken by the first PreparedDocuments that asks. */
const AHEAD = new WeakMap<Snapshot, Promise<SyncDocuments>>();

/**
 * Before the server listens: begins finding or writing the documents of `snapshot`, opened from
 * `path`, and when an earlier start left documents for it, waits (at most `waitMs`) until they are
 * checked, so the first catalog.json is answered at once. True when they were ready in time.
 */
export async function documentsAhead(snapshot: Snapshot, path: string, waitMs: number): Promise<boolean> {
  let left = false;
  try {
    const key = documentsKey(snapshot, path);
    left = [documentsRoot(path), spareDocumentsRoot(path)].some((root) => existsSync(join(root, key, INDEX_FILE)));
  } catch {
    // The file cannot be read here: the writer says why when asked.
  }
  const promise = SyncDocuments.of(snapshot, path);
  promise.catch(() => {});
  AHEAD.set(snapshot, promise);
  if (!left) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  const ready = promise.then(
    () => true,
    () => false,
  );
  return Promise.race([ready, late]).finally(() => clearTimeout(timer));
}

/** How long a failed writer's error answers before a new writer is started. */
const RETRY_AFTER_FAILURE_MS = 10_000;

/**
 * The documents of each snapshot, found or written in a child process: before the store serves the
 * snapshot (it runs `prepare` when it opens one), or begun by the first request for a snapshot
 * opened without it. The directories of snapshots no longer served nor prepared are removed.
 */
export class PreparedDocuments {
  private readonly written = new Map<Snapshot, SyncDocuments | Promise<SyncDocuments>>();
  private readonly failures = new WeakMap<Snapshot, { at: number; error: unknown }>();

  constructor(
    private readonly path: string,
    private readonly log: Log = () => {},
  ) {}

  /** The documents of the snapshots `store` opens, each found or written before it serves. */
  static following(store: CatalogStore, log?: Log): PreparedDocuments {
    const prepared = new PreparedDocuments(store.path, log);
    store.onOpen((snapshot) => prepared.prepare(snapshot));
    // Once the documents of the snapshot now served are known, the others' directories go.
    store.onSwap((snapshot) => {
      Promise.resolve(prepared.get(snapshot)).then(
        () => prepared.removeOthers(),
        () => {},
      );
    });
    // A snapshot opened before: its documents are begun now.
    if (store.loaded !== null) prepared.start(store.loaded);
    return prepared;
  }

  /** The step of a preparation: waits for the documents of `snapshot` (found or written elsewhere). */
  *prepare(snapshot: Snapshot): Generator<Promise<unknown>, void, unknown> {
    const documents = this.get(snapshot);
    if (documents instanceof Promise) yield documents;
  }

  /** Begins finding or writing the documents of `snapshot`. */
  start(snapshot: Snapshot): void {
    Promise.resolve(this.get(snapshot)).catch(() => {});
  }

  /** Drops the documents of snapshots closed since: answers still being sent hold what they need. */
  private forgetClosed(): void {
    for (const snapshot of this.written.keys()) if (snapshot.closed) this.written.delete(snapshot);
  }

  /** Removes the directories of the documents of snapshots closed since. */
  removeOthers(): void {
    this.forgetClosed();
    const keep = new Set<string>();
    for (const documents of this.written.values()) {
      if (documents instanceof SyncDocuments)
        keep.add(documents.directory.slice(documents.directory.lastIndexOf("/") + 1));
      // A directory being found or written is not known yet: nothing is removed meanwhile.
      else return;
    }
    for (const root of [documentsRoot(this.path), spareDocumentsRoot(this.path)]) {
      removeOtherDocuments(root, keep).catch(() => {});
    }
  }

  private here(snapshot: Snapshot): SyncDocuments | Promise<SyncDocuments> {
    const started = performance.now();
    try {
      const documents = SyncDocuments.here(snapshot, this.path);
      const ms = Math.round(performance.now() - started);
      this.log("sync.documents", { snapshotAt: snapshot.snapshotAt, reused: documents.reused, ms });
      this.written.set(snapshot, documents);
      return documents;
    } catch (error) {
      // A failure is not remembered: the next request begins again.
      return Promise.reject(error);
    }
  }

  /** The documents of `snapshot`, at once when found, else the promise of them (begun now if not yet). */
  get(snapshot: Snapshot): SyncDocuments | Promise<SyncDocuments> {
    this.forgetClosed();
    const known = this.written.get(snapshot);
    if (known !== undefined) return known;
    if (snapshot.closed) return Promise.reject(new SnapshotClosed());
    // A small snapshot's documents are a few milliseconds of work: made at once, so it serves at once.
    if (snapshot.stats.total <= PREPARED_AT_ONCE && !AHEAD.has(snapshot)) return this.here(snapshot);
    // A writer that failed is not started again for every request: it is asked again after a pause.
    const failed = this.failures.get(snapshot);
    if (failed !== undefined && performance.now() - failed.at < RETRY_AFTER_FAILURE_MS)
      return Promise.reject(failed.error);
    const started = performance.now();
    const source = AHEAD.get(snapshot) ?? SyncDocuments.of(snapshot, this.path);
    AHEAD.delete(snapshot);
    const promise = source.then(
      (documents) => {
        const ms = Math.round(performance.now() - started);
        this.log("sync.documents", { snapshotAt: snapshot.snapshotAt, reused: documents.reused, ms });
        if (this.written.get(snapshot) === promise) this.written.set(snapshot, documents);
        return documents;
      },
      (error: unknown) => {
        if (this.written.get(snapshot) === promise) this.written.delete(snapshot);
        if (!snapshot.closed) this.failures.set(snapshot, { at: performance.now(), error });
        throw snapshot.closed ? new SnapshotClosed() : error;
      },
    );
    // A failure is seen by the requests awaiting it, if any.
    promise.catch(() => {});
    this.written.set(snapshot, promise);
    return promise;
  }
}
