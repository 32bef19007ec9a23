/**
 * Every list order of a snapshot, computed at build time. The result is exactly what sorting with
 * `COMPARATORS` gives (a test holds them equal), but the comparisons read flat arrays of keys and
 * break ties on a precomputed id rank instead of comparing id strings: several times faster at
 * 100,000 plugins, where the builder sorts the catalog seven times.
 */
import { SORTS, type Ranked, type Sort } from "./orders";

type Compare = (a: number, b: number) => number;

function sortedIndices(count: number, compare: Compare): number[] {
  return Array.from({ length: count }, (_, i) => i).sort(compare);
}

function byString(keys: string[], tie: Compare, direction: 1 | -1): Compare {
  return (a, b) => (keys[a]! < keys[b]! ? -direction : keys[a]! > keys[b]! ? direction : tie(a, b));
}

/** SQLite's NOCASE collation folds ASCII letters only. */
function nocase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Each sort of orders.ts, plus `newest` (the feed: first seen desc, created_at desc, id NOCASE). */
export function sortAll<T extends Ranked>(entries: T[]): { bySort: Map<Sort, T[]>; newest: T[] } {
  const count = entries.length;
  const ids = entries.map((e) => e.record.id);
  // Equal ids (never in a snapshot) keep their input order, as the stable comparator sort would.
  const idOrder = sortedIndices(count, (a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
  const idRank = new Int32Array(count);
  idOrder.forEach((index, rank) => (idRank[index] = rank));
  const byId: Compare = (a, b) => idRank[a]! - idRank[b]!;
  const stars = Float64Array.from(entries, (e) => e.record.stars);
  const forks = Float64Array.from(entries, (e) => e.record.forks);
  const heat = Float64Array.from(entries, (e) => e.heat);
  const curated = Uint8Array.from(entries, (e) => Number(e.record.curated));
  const compare: Record<Sort, Compare> = {
    default: (a, b) => curated[b]! - curated[a]! || stars[b]! - stars[a]! || byId(a, b),
    name: byString(entries.map((e) => e.nameKey), byId, 1),
    stars: (a, b) => stars[b]! - stars[a]! || byId(a, b),
    forks: (a, b) => forks[b]! - forks[a]! || byId(a, b),
    updated: byString(entries.map((e) => e.record.pushed_at), byId, -1),
    heat: (a, b) => heat[b]! - heat[a]! || byId(a, b),
  };
  const pick = (order: number[]) => order.map((i) => entries[i]!);
  const bySort = new Map(SORTS.map((sort) => [sort, pick(sortedIndices(count, compare[sort]))] as const));
  const noCaseIds = ids.map(nocase);
  const byNoCaseId: Compare = (a, b) => (noCaseIds[a]! < noCaseIds[b]! ? -1 : noCaseIds[a]! > noCaseIds[b]! ? 1 : 0);
  const byCreated = byString(entries.map((e) => e.record.created_at), byNoCaseId, -1);
  const newest = pick(sortedIndices(count, byString(entries.map((e) => e.record.first_seen_at), byCreated, -1)));
  return { bySort, newest };
}
