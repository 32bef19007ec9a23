/**
 * A document of each snapshot written once by a generator that pauses between reads: before the
 * store serves the snapshot (its `onOpen` work), or, for one opened earlier, begun on the next turn
 * of the event loop and finished by the first request that needs it before its slices did.
 */
import { runSliced } from "./slices";
import type { Snapshot } from "./snapshot";
import type { CatalogStore } from "./store";

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
      setImmediate(() => {
        if (loaded.closed) return;
        const run = runSliced(prepared.begin(loaded).work);
        if (!run.done) run.promise.catch(() => {});
      });
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
