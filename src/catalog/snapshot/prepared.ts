/**
 * A document of each snapshot written once by a generator that pauses between reads: before the
 * store serves the snapshot (its `onOpen` work), or, for the one opened at start, begun on the next
 * turn of the event loop and awaited before the process listens (startDocuments); a request that
 * needs one whose writing has not ended (a test's app, a failed writing) finishes it.
 */
import { runSliced } from "./slices";
import type { Snapshot } from "./snapshot";
import type { CatalogStore } from "./store";

/** The writings of the snapshot served at start, begun on the turn after the app was made. */
const atStart: Promise<unknown>[] = [];

/**
 * Settles once every document of the snapshot served at start is written: the process awaits it
 * before it listens, so no client's first request finishes a document on the event loop.
 */
export function startDocuments(): Promise<void> {
  return Promise.all(atStart).then(() => undefined);
}

/** The writing of one snapshot's document, and the document once it ended. */
interface Writing<T> {
  work: Generator<unknown, T>;
  done?: T;
}

export class PreparedPerSnapshot<T> {
  private readonly written = new Map<Snapshot, Writing<T>>();

  private constructor(private readonly write: (snapshot: Snapshot) => Generator<unknown, T>) {}

  /** The documents of the snapshots `store` opens, each written before it serves. */
  static following<T>(
    store: CatalogStore,
    write: (snapshot: Snapshot) => Generator<unknown, T>,
  ): PreparedPerSnapshot<T> {
    const prepared = new PreparedPerSnapshot(write);
    store.onOpen((snapshot) => prepared.begin(snapshot).work);
    const loaded = store.loaded;
    // Begun on a later turn: the handlers that hold documents are made before the app around them.
    if (loaded !== null) {
      const written = new Promise<void>((resolve) =>
        setImmediate(() => {
          if (loaded.closed) return resolve();
          const run = runSliced(prepared.begin(loaded).work);
          if (run.done) resolve();
          // A writing that failed is begun again by the first request that needs it.
          else
            run.promise.then(
              () => resolve(),
              () => resolve(),
            );
        }),
      );
      atStart.push(written);
    }
    return prepared;
  }

  private begin(snapshot: Snapshot): Writing<T> {
    for (const other of this.written.keys()) if (other.closed) this.written.delete(other);
    const known = this.written.get(snapshot);
    if (known !== undefined) return known;
    const writing = this.write(snapshot);
    const state: Writing<T> = { work: writing };
    state.work = (function* (): Generator<unknown, T> {
      const done = yield* writing;
      state.done = done;
      return done;
    })();
    this.written.set(snapshot, state);
    return state;
  }

  /** The document of `snapshot`, the rest of its writing done now if it has not ended. */
  get(snapshot: Snapshot): T {
    const state = this.begin(snapshot);
    if (state.done !== undefined) return state.done;
    for (let step = state.work.next(); !step.done; step = state.work.next()) {}
    if (state.done === undefined) {
      // A writing that failed midway is begun again.
      this.written.delete(snapshot);
      return this.get(snapshot);
    }
    return state.done;
  }
}
