/**
 * The client-sync documents of a snapshot, written once per snapshot in slices that yield to the
 * event loop: catalog.json as compressed parts, and every plugin that a `changes` answer can hold
 * as compressed parts grouped by when it changed and when it was first seen (relative to the
 * snapshot times of the history). A `changes` answer is then a run of those groups between a
 * small head and tail: its cost is about that of sending its bytes.
 */
import { composeEvents } from "../catalog/history";
import type { Snapshot } from "../catalog/snapshot";
import type { HistoryEvent } from "../catalog/types";
import { deflatePart, joinSegments, type Part, PartsBody, PartWriter, partSegment, type Segment } from "./parts";

/** The categories with their plugin counts, as the list endpoint's `category` filter counts them. */
export function categoriesJson(snapshot: Snapshot, counts: ReadonlyMap<string, number>): string {
  return JSON.stringify(snapshot.categories.map((c) => ({ ...c, count: counts.get(c.id) ?? 0 })));
}

/** The start of catalog.json up to its first item. */
export function catalogHead(snapshot: Snapshot): string {
  const counts = snapshot.categoryCounts({ q: null, curated: false, archived: null });
  const head = `"snapshotAt":${JSON.stringify(snapshot.snapshotAt)},"total":${snapshot.stats.total}`;
  return `{${head},"categories":${categoriesJson(snapshot, counts)},"items":[`;
}

export const CATALOG_TAIL = "]}";

/** A document of parts and its strong ETag (of the plain form). */
export interface PartsDocument {
  body: PartsBody;
  etag: string;
}

/** Rows read per query while writing; a slice reads until its time is spent. */
const ROWS_PER_READ = 200;
/** Time one slice of the writing may hold the event loop. */
const SLICE_MS = 8;

/**
 * The plain bytes are kept beside the compressed ones (at 100,000 plugins about 70 MB for
 * catalog.json and as much for the changed plugins): a client without gzip is sent them as they
 * are, where decompressing per request would cost a CPU-second per second under a few such clients.
 */
const KEEP_PLAIN = true;

const COMMA = deflatePart(",", true);

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

const textSegment = (text: string): Segment => partSegment(deflatePart(text, true));

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

  /** Writes the documents of `snapshot`, yielding to the event loop between slices; rejects if it closes. */
  static async of(snapshot: Snapshot, sliceMs = SLICE_MS): Promise<SyncDocuments> {
    const times = snapshot.historySnapshots();
    const events = snapshot.historyEvents();
    const catalog = new PartWriter(KEEP_PLAIN);
    catalog.write(catalogHead(snapshot));
    const groups = new Map<number, Group>();
    const ids = new Set<string>();
    let after = 0;
    let first = true;
    for (;;) {
      const started = performance.now();
      let rows: ReturnType<Snapshot["catalogRowsAfter"]> = [];
      do {
        if (snapshot.closed) throw new SnapshotClosed();
        rows = snapshot.catalogRowsAfter(after, ROWS_PER_READ);
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
            group = { changed, firstSeen, writer: new PartWriter(KEEP_PLAIN), items: 0 };
            groups.set(key, group);
          }
          group.writer.write(group.items++ === 0 ? row.json : `,${row.json}`);
        }
      } while (rows.length > 0 && performance.now() - started < sliceMs);
      if (rows.length === 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    catalog.write(CATALOG_TAIL);
    const segment = catalog.segment();
    for (const group of groups.values()) group.writer.flush();
    const etag = `"${catalog.hash.toString(36)}-${segment.plainBytes.toString(36)}"`;
    return new SyncDocuments(
      snapshot.snapshotAt,
      { body: new PartsBody(segment), etag },
      times,
      [...groups.values()],
      events,
      ids,
    );
  }

  /**
   * The `changes` answer from `since` to this snapshot, or null when the history does not reach
   * `since`. `added`: plugins first seen after `since`; `updated`: the others changed after it;
   * each by the time it changed, then stars descending.
   */
  /** Whether the answer from `since` was assembled already. */
  hasChanges(since: string): boolean {
    return this.answers.has(since);
  }

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
    const { removed, renamed } =
      since === this.snapshotAt ? { removed: [], renamed: [] } : composeEvents(this.events, since, this.ids);
    const head = `{"snapshotAt":${JSON.stringify(this.snapshotAt)},"since":${JSON.stringify(since)},"added":[`;
    const tail = `],"removed":${JSON.stringify(removed)},"renamed":${JSON.stringify(renamed)}}`;
    const segment = joinSegments([
      textSegment(head),
      joinSegments(added, COMMA),
      textSegment('],"updated":['),
      joinSegments(updated, COMMA),
      textSegment(tail),
    ]);
    const version = Bun.hash(`${this.catalog.etag}\u0000${since}`).toString(36);
    const answer = { body: new PartsBody(segment), etag: `"${version}-${segment.plainBytes.toString(36)}"` };
    this.answers.set(since, answer);
    return answer;
  }
}

/** The documents of the snapshot being served: begun when a snapshot arrives, written once, never twice. */
export class PreparedDocuments {
  private snapshot: Snapshot | null = null;
  private ready: SyncDocuments | null = null;
  private pending: Promise<SyncDocuments> | null = null;

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** The documents of `snapshot`, at once when written, else the promise of them (begun now if not yet). */
  get(snapshot: Snapshot): SyncDocuments | Promise<SyncDocuments> {
    if (snapshot !== this.snapshot) this.start(snapshot);
    return this.ready ?? this.pending!;
  }

  /** Begins writing the documents of `snapshot`, dropping those of the snapshot before. */
  start(snapshot: Snapshot): void {
    if (snapshot === this.snapshot) return;
    this.snapshot = snapshot;
    this.ready = null;
    const pending = SyncDocuments.of(snapshot, this.sliceMs);
    this.pending = pending;
    pending.then(
      (documents) => {
        if (this.pending === pending) this.ready = documents;
      },
      () => {
        // A failed writing is begun again by the next request rather than remembered.
        if (this.pending === pending) this.snapshot = null;
      },
    );
  }
}

export type { Part };
