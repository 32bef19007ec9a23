/**
 * The list orders of one snapshot, decoded once each. The file stores every sort unfiltered and
 * the members of each filter; a filtered order is the sort's order with non-members dropped,
 * derived on its first use (one pass over the catalog) and kept, so any later page is a slice.
 */
import { orderKey, type Sort } from "./orders";
import { memberKey, NEWEST_ORDER } from "./schema";

/** Reads a stored Int32 blob by key; null when the snapshot has none. */
export type BlobReader = (key: string) => Uint8Array | null;

function decode(blob: Uint8Array | null): Int32Array {
  // A copy: the blob's buffer belongs to SQLite's row, and an aligned array is needed anyway.
  return blob ? new Int32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)) : new Int32Array(0);
}

export class ListOrders {
  private readonly orders = new Map<string, Int32Array>();
  private readonly members = new Map<string | null, Uint8Array>();

  /** `maxRowid` bounds the rowids, for the membership marks. */
  constructor(private readonly read: BlobReader, private readonly maxRowid: number) {}

  /** Rowids in the order of `sort`, restricted to `category` and to curated plugins when asked. */
  sorted(sort: Sort, category: string | null, curated: boolean): Int32Array {
    const key = orderKey(sort, category, curated);
    let ids = this.orders.get(key);
    if (!ids) {
      const all = this.stored(orderKey(sort, null, false));
      const inCategory = category === null ? null : this.marks(category);
      const isCurated = curated ? this.marks(null) : null;
      ids = all.filter((rowid) => (inCategory === null || inCategory[rowid] === 1) && (isCurated === null || isCurated[rowid] === 1));
      this.orders.set(key, ids);
    }
    return ids;
  }

  /** Rowids newest first: the feed's order. */
  newest(): Int32Array {
    return this.stored(NEWEST_ORDER);
  }

  private stored(key: string): Int32Array {
    let ids = this.orders.get(key);
    if (!ids) this.orders.set(key, (ids = decode(this.read(key))));
    return ids;
  }

  /** One byte per rowid: 1 for the members of a category (null: of the curated plugins). */
  private marks(category: string | null): Uint8Array {
    let marks = this.members.get(category);
    if (!marks) {
      marks = new Uint8Array(this.maxRowid + 1);
      for (const rowid of decode(this.read(memberKey(category)))) marks[rowid] = 1;
      this.members.set(category, marks);
    }
    return marks;
  }
}
