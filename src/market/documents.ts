/**
 * The client-sync documents of a snapshot, written once per snapshot in slices that yield to the
 * event loop: catalog.json as compressed parts, and every plugin that a `changes` answer can hold
 * as compressed parts grouped by when it changed and when it was first seen (relative to the
 * snapshot times of the history). A `changes` answer is then a run of those groups between a
 * small head and tail: its cost is about that of sending its bytes.
 */
import { type ChangeSet, composeEvents } from "../catalog/model/history";
import type { HistoryEvent } from "../catalog/model/types";
import { categoriesJson } from "../catalog/snapshot/category-counts";
import { runSliced, SLICE_MS } from "../catalog/snapshot/slices";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import { strongEtag } from "../http/render";
import { deflatePart, joinSegments, PartsBody, PartWriter, partSegment, type Segment } from "./chunks";

/** The start of catalog.json up to its first item. */
function catalogHead(snapshot: Snapshot): string {
  const counts = snapshot.categoryCounts({ q: null, curated: false, archived: null });
  const head = `"snapshotAt":${JSON.stringify(snapshot.snapshotAt)},"total":${snapshot.stats.total}`;
  return `{${head},"categories":${categoriesJson(snapshot, counts)},"items":[`;
}

const CATALOG_TAIL = "]}";

/** A document of parts and its strong ETag (of the plain form). */
export interface PartsDocument {
  body: PartsBody;
  etag: string;
}

/** Rows read per query while writing; the writing may pause after each read. */
const ROWS_PER_READ = 200;

const COMMA = deflatePart(",");

export class SnapshotClosed extends Error {
  override name = "SnapshotClosed";
}

/** The plugins of one group: changed in the same interval of the history, first seen in the same one. */
interface Group {
  changed: number;
  firstSeen: number;
  writer: PartWriter;
  items: number;
}

/** The number of history times before `time`: `time` is after the k-th snapshot exactly when this exceeds k. */
function interval(times: readonly string[], time: string): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (times[mid]! < time) low = mid + 1;
    else high = mid;
  }
  return low;
}

const textSegment = (text: string): Segment => partSegment(deflatePart(text));

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

  private constructor(
    readonly snapshotAt: string,
    readonly catalog: PartsDocument,
    private readonly times: readonly string[],
    private readonly groups: readonly Group[],
    private readonly events: readonly HistoryEvent[],
    private readonly ids: ReadonlySet<string>,
  ) {}

  /** catalog.json with its first item only: an example read without writing the whole document. */
  static catalogExample(snapshot: Snapshot): string {
    const items = snapshot.catalogRowsAfter(0, 1).map((row) => row.json);
    return `${catalogHead(snapshot)}${items.join(",")}${CATALOG_TAIL}`;
  }

  /** The `changes` answer from a snapshot to itself: nothing added, updated, removed or renamed. */
  static unchanged(snapshotAt: string): string {
    return changesText(snapshotAt, snapshotAt, { removed: [], renamed: [] }).join("");
  }

  /** Writes the documents of `snapshot` in slices of the event loop; rejects if it closes meanwhile. */
  static async of(snapshot: Snapshot, sliceMs = SLICE_MS): Promise<SyncDocuments> {
    const run = runSliced(SyncDocuments.writing(snapshot), sliceMs);
    return run.done ? run.value : run.promise;
  }

  /** The writing of the documents of `snapshot`, pausing after each read of rows; throws SnapshotClosed if it closes. */
  static *writing(snapshot: Snapshot): Generator<void, SyncDocuments> {
    const times = snapshot.historySnapshots();
    const events = snapshot.historyEvents();
    const catalog = new PartWriter();
    catalog.write(catalogHead(snapshot));
    const groups = new Map<number, Group>();
    const ids = new Set<string>();
    let after = 0;
    let first = true;
    for (;;) {
      if (snapshot.closed) throw new SnapshotClosed();
      const rows = snapshot.catalogRowsAfter(after, ROWS_PER_READ);
      if (rows.length === 0) break;
      for (const row of rows) {
        after = row.rowid;
        ids.add(row.id.toLowerCase());
        catalog.write(first ? row.json : `,${row.json}`);
        first = false;
        const changed = interval(times, row.changedAt);
        // A plugin changed at or before the oldest snapshot kept is in no answer.
        if (changed === 0) continue;
        const firstSeen = Math.min(interval(times, row.firstSeenAt), changed);
        const key = changed * (times.length + 1) + firstSeen;
        let group = groups.get(key);
        if (group === undefined) {
          group = { changed, firstSeen, writer: new PartWriter(), items: 0 };
          groups.set(key, group);
        }
        group.writer.write(group.items++ === 0 ? row.json : `,${row.json}`);
      }
      yield;
    }
    catalog.write(CATALOG_TAIL);
    const segment = catalog.segment();
    for (const group of groups.values()) group.writer.flush();
    const etag = strongEtag(catalog.hash, segment.plainBytes);
    return new SyncDocuments(
      snapshot.snapshotAt,
      { body: new PartsBody(segment), etag },
      times,
      [...groups.values()],
      events,
      ids,
    );
  }

  /** Lets go of the plain forms the parts kept; true when there were any. */
  release(): boolean {
    let kept = false;
    for (const part of [...this.catalog.body.segment.parts, ...this.groups.flatMap((g) => g.writer.parts)]) {
      kept ||= part.plain !== undefined;
      part.plain = undefined;
    }
    return kept;
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
    const k = since === this.snapshotAt ? this.times.length : this.times.indexOf(since);
    if (k === -1) return null;
    const segmentOf = (group: Group) => group.writer.segment();
    const added = this.groups
      .filter((g) => g.firstSeen > k)
      .sort((a, b) => a.firstSeen - b.firstSeen || a.changed - b.changed)
      .map(segmentOf);
    const updated = this.groups
      .filter((g) => g.changed > k && g.firstSeen <= k)
      .sort((a, b) => a.changed - b.changed || a.firstSeen - b.firstSeen)
      .map(segmentOf);
    const changeSet =
      since === this.snapshotAt ? { removed: [], renamed: [] } : composeEvents(this.events, since, this.ids);
    const [head, between, tail] = changesText(this.snapshotAt, since, changeSet);
    const segment = joinSegments([
      textSegment(head),
      joinSegments(added, COMMA),
      textSegment(between),
      joinSegments(updated, COMMA),
      textSegment(tail),
    ]);
    const version = Bun.hash(`${this.catalog.etag}\u0000${since}`);
    const answer = { body: new PartsBody(segment), etag: strongEtag(version, segment.plainBytes) };
    this.answers.set(since, answer);
    return answer;
  }
}

/**
 * The documents of each snapshot, written once: before the store serves the snapshot (it runs
 * `prepare` when it opens one), or begun by the first request for a snapshot opened without it.
 */
export class PreparedDocuments {
  private readonly written = new Map<Snapshot, SyncDocuments | Promise<SyncDocuments>>();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** The documents of the snapshots `store` opens, each written before it serves. */
  static following(store: CatalogStore, sliceMs = SLICE_MS): PreparedDocuments {
    const prepared = new PreparedDocuments(sliceMs);
    store.onOpen((snapshot) => prepared.prepare(snapshot));
    store.onSwap((snapshot) => prepared.serving(snapshot));
    // A snapshot opened before: its documents are begun now.
    if (store.loaded !== null) prepared.start(store.loaded);
    return prepared;
  }

  /** The writing of the documents of `snapshot`, as steps the caller runs in slices; nothing when begun already. */
  *prepare(snapshot: Snapshot): Generator<void, void> {
    if (this.written.has(snapshot)) return;
    this.forgetClosed();
    let settle: { resolve(documents: SyncDocuments): void; reject(error: unknown): void } | undefined;
    const promise = new Promise<SyncDocuments>((resolve, reject) => (settle = { resolve, reject }));
    // A failure is seen by the requests awaiting it, if any.
    promise.catch(() => {});
    this.written.set(snapshot, promise);
    try {
      const documents = yield* SyncDocuments.writing(snapshot);
      this.written.set(snapshot, documents);
      settle!.resolve(documents);
    } catch (error) {
      // A failed writing is begun again by the next request rather than remembered.
      this.written.delete(snapshot);
      settle!.reject(error);
      throw error;
    }
  }

  /** Begins writing the documents of `snapshot` (a snapshot opened before `prepare` was asked to). */
  start(snapshot: Snapshot): void {
    Promise.resolve(this.get(snapshot)).catch(() => {});
  }

  /** Drops the documents of snapshots closed since: answers still being sent hold what they need. */
  private forgetClosed(): void {
    for (const snapshot of this.written.keys()) if (snapshot.closed) this.written.delete(snapshot);
  }

  /**
   * `snapshot` serves now: the plain forms kept by the documents of the one it replaced are let go
   * (an answer of those still being sent inflates again what it needs), and a full collection, once
   * per swap, gives their memory back before the new snapshot's plain forms are made: a lighter
   * one leaves such long-lived buffers in place.
   */
  private serving(snapshot: Snapshot): void {
    let released = false;
    for (const [other, documents] of this.written) {
      if (other !== snapshot && documents instanceof SyncDocuments) released = documents.release() || released;
    }
    if (released) Bun.gc(true);
  }

  /** The documents of `snapshot`, at once when written, else the promise of them (begun now if not yet). */
  get(snapshot: Snapshot): SyncDocuments | Promise<SyncDocuments> {
    this.forgetClosed();
    const known = this.written.get(snapshot);
    if (known !== undefined) return known;
    let run: ReturnType<typeof runSliced<void>>;
    try {
      run = runSliced(this.prepare(snapshot), this.sliceMs);
    } catch (error) {
      return Promise.reject(error);
    }
    // The requests awaiting the documents see a failure.
    if (!run.done) run.promise.catch(() => {});
    return this.written.get(snapshot)!;
  }
}
