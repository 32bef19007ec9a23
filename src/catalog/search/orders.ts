/**
 * The list orders (docs/api.md, *Parameters*), each ending with id ascending: how they compare
 * (at build time every order is sorted once and stored) and how a snapshot reads them back.
 */
import type { Database } from "bun:sqlite";
import { measuredTokens } from "../model/context-cost";
import { ACTIVE_MEMBERS, memberKey, NEWEST_ORDER } from "../model/snapshot-schema";
import { foldAscii } from "../model/text";
import { daysSince } from "../model/time";
import type { PluginRecord } from "../model/types";

export const SORTS = ["default", "name", "stars", "forks", "updated", "heat", "newest", "context"] as const;
export type Sort = (typeof SORTS)[number];

/** Half-life of the recency part of heat, in days. */
export const HEAT_HALF_LIFE_DAYS = 30;

/** How widely a repository is taken up, log10(1 + stars + 2·forks): what heat and the search's popularity share. */
export function reach(stars: number, forks: number): number {
  return Math.log10(1 + stars + 2 * forks);
}

/**
 * Heat = reach · 0.5^(days since pushed_at / 30), against the snapshot time (never the wall
 * clock), so one snapshot always yields one order.
 */
export function heat(stars: number, forks: number, pushedAt: string, snapshotAt: string): number {
  const days = daysSince(pushedAt, snapshotAt);
  return reach(stars, forks) * 0.5 ** (days / HEAT_HALF_LIFE_DAYS);
}

export interface Ranked {
  record: PluginRecord;
  heat: number;
  nameKey: string;
  /** Stars as the default order counts them: a fork or look-alike just below its original (ORIGINALS, snapshot-schema.ts). */
  rankStars?: number;
}

function ascending(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byId(a: Ranked, b: Ranked): number {
  return ascending(a.record.id, b.record.id);
}

/** The feed's order: first seen desc, created_at desc, then id as SQLite's NOCASE collation compares it. */
function newestFirst(a: Ranked, b: Ranked): number {
  return (
    ascending(b.record.first_seen_at, a.record.first_seen_at) ||
    ascending(b.record.created_at, a.record.created_at) ||
    ascending(foldAscii(a.record.id), foldAscii(b.record.id))
  );
}

/** The always-on tokens the `context` sort compares: unmeasured plugins (model/context-cost.ts) after every measured one. */
function contextTokens(entry: Ranked): number {
  return measuredTokens(entry.record.details?.context) ?? Number.POSITIVE_INFINITY;
}

/** Lightest first; among equals (the unmeasured too) stars desc, then id. */
function lightestFirst(a: Ranked, b: Ranked): number {
  const x = contextTokens(a);
  const y = contextTokens(b);
  return (x === y ? 0 : x < y ? -1 : 1) || b.record.stars - a.record.stars || byId(a, b);
}

/** Comparators of each sort (for `default`, the order without a search query). */
export const COMPARATORS: Record<Sort, (a: Ranked, b: Ranked) => number> = {
  default: (a, b) =>
    Number(b.record.curated) - Number(a.record.curated) ||
    (b.rankStars ?? b.record.stars) - (a.rankStars ?? a.record.stars) ||
    byId(a, b),
  name: (a, b) => ascending(a.nameKey, b.nameKey) || byId(a, b),
  stars: (a, b) => b.record.stars - a.record.stars || byId(a, b),
  forks: (a, b) => b.record.forks - a.record.forks || byId(a, b),
  updated: (a, b) => ascending(b.record.pushed_at, a.record.pushed_at) || byId(a, b),
  heat: (a, b) => b.heat - a.heat || byId(a, b),
  newest: newestFirst,
  context: lightestFirst,
};

/** Every sort's order (`newest` is also the feed's), as the build stores them. */
export function sortAll<T extends Ranked>(entries: T[]): Map<Sort, T[]> {
  return new Map(SORTS.map((sort) => [sort, entries.slice().sort(COMPARATORS[sort])] as const));
}

/** The key of a stored order: the sort and the filters that restrict it. */
export function orderKey(
  sort: Sort,
  category: string | null,
  curated: boolean,
  archived: boolean | null = null,
  members: readonly string[] = [],
): string {
  const filters = `${category === null ? "" : `|c:${category}`}${curated ? "|curated" : ""}`;
  return `${sort}${filters}${archived === null ? "" : `|archived:${archived}`}${members.map((m) => `|${m}`).join("")}`;
}

/** Reads a blob of the `orders` table by key; null when the snapshot has none. */
export type BlobReader = (key: string) => Uint8Array | null;

/** The one query of the `orders` table's keyed blobs. */
export function blobReader(db: Database): BlobReader {
  const row = db.prepare<{ ids: Uint8Array }, [string]>(`SELECT ids FROM orders WHERE key = ?`);
  return (key) => row.get(key)?.ids ?? null;
}

/** A blob's bytes at an offset `align` divides: bun:sqlite gives each blob a buffer of its own, so a copy is rare. */
function aligned(blob: Uint8Array | null, align: number): Uint8Array {
  if (blob === null) return new Uint8Array(0);
  return blob.byteOffset % align === 0 ? blob : blob.slice();
}

/** A stored Int32 array (rowids, the trigram index), viewed in place; empty for none. */
export function decodeInt32(blob: Uint8Array | null): Int32Array {
  const bytes = aligned(blob, 4);
  return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** A stored Float64 array (popularity), viewed in place; empty for none. */
export function decodeFloat64(blob: Uint8Array | null): Float64Array {
  const bytes = aligned(blob, 8);
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
}

export class ListOrders {
  private readonly orders = new Map<string, Int32Array>();
  private readonly members = new Map<string, Uint8Array>();

  /** `maxRowid` bounds the rowids, for the membership marks. */
  constructor(
    private readonly read: BlobReader,
    private readonly maxRowid: number,
  ) {}

  /**
   * Rowids in the order of `sort`, restricted to `category`, to curated plugins when asked, and to
   * archived (true) or unarchived (false) plugins when `archived` is given.
   */
  sorted(
    sort: Sort,
    category: string | null,
    curated: boolean,
    archived: boolean | null = null,
    members: readonly string[] = [],
  ): Int32Array {
    const key = orderKey(sort, category, curated, archived, members);
    let ids = this.orders.get(key);
    if (!ids) {
      const all = this.stored(orderKey(sort, null, false));
      const inCategory = category === null ? null : this.marks(memberKey(category));
      const isCurated = curated ? this.marks(memberKey(null)) : null;
      const active = archived === null ? null : this.marks(ACTIVE_MEMBERS);
      const wanted = archived === false ? 1 : 0;
      const required = members.map((m) => this.marks(m));
      ids = all.filter(
        (rowid) =>
          (inCategory === null || inCategory[rowid] === 1) &&
          (isCurated === null || isCurated[rowid] === 1) &&
          (active === null || active[rowid] === wanted) &&
          required.every((marks) => marks[rowid] === 1),
      );
      this.orders.set(key, ids);
    }
    return ids;
  }

  /** How many of `rowids` are in each of `categories`: one pass over them per category. */
  countIn(rowids: Int32Array, categories: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const category of categories) {
      const marks = this.marks(memberKey(category));
      let n = 0;
      for (let i = 0; i < rowids.length; i++) n += marks[rowids[i]!]!;
      counts.set(category, n);
    }
    return counts;
  }

  /** Rowids newest first: the feed's order. */
  newest(): Int32Array {
    return this.stored(NEWEST_ORDER);
  }

  private stored(key: string): Int32Array {
    let ids = this.orders.get(key);
    if (!ids) {
      ids = decodeInt32(this.read(key));
      this.orders.set(key, ids);
    }
    return ids;
  }

  /** One byte per rowid: 1 for the members stored under `key` (see memberKey). */
  private marks(key: string): Uint8Array {
    let marks = this.members.get(key);
    if (!marks) {
      marks = new Uint8Array(this.maxRowid + 1);
      for (const rowid of decodeInt32(this.read(key))) marks[rowid] = 1;
      this.members.set(key, marks);
    }
    return marks;
  }
}
