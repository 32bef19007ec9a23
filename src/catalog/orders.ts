/** The list orders of the contract and decisions.md. Every order ends with id ascending. */
import type { PluginRecord } from "./types";

export const SORTS = ["default", "name", "stars", "forks", "updated", "heat"] as const;
export type Sort = (typeof SORTS)[number];

/** Half-life of the recency part of heat, in days. */
export const HEAT_HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * Heat = log10(1 + stars + 2·forks) · 0.5^(days since pushed_at / 30), against the snapshot time
 * (never the wall clock), so one snapshot always yields one order.
 */
export function heat(stars: number, forks: number, pushedAt: string, snapshotAt: string): number {
  const days = Math.max(0, (Date.parse(snapshotAt) - Date.parse(pushedAt)) / DAY_MS);
  return Math.log10(1 + stars + 2 * forks) * 0.5 ** (days / HEAT_HALF_LIFE_DAYS);
}

export interface Ranked {
  record: PluginRecord;
  heat: number;
  nameKey: string;
}

function byId(a: Ranked, b: Ranked): number {
  return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
}

function desc(a: number, b: number): number {
  return b - a;
}

/** Comparators of each sort (for `default`, the order without a search query). */
export const COMPARATORS: Record<Sort, (a: Ranked, b: Ranked) => number> = {
  default: (a, b) => Number(b.record.curated) - Number(a.record.curated) || desc(a.record.stars, b.record.stars) || byId(a, b),
  name: (a, b) => (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : byId(a, b)),
  stars: (a, b) => desc(a.record.stars, b.record.stars) || byId(a, b),
  forks: (a, b) => desc(a.record.forks, b.record.forks) || byId(a, b),
  updated: (a, b) => (a.record.pushed_at < b.record.pushed_at ? 1 : a.record.pushed_at > b.record.pushed_at ? -1 : byId(a, b)),
  heat: (a, b) => desc(a.heat, b.heat) || byId(a, b),
};

/** The key of a precomputed order: the sort and the filters that restrict it. */
export function orderKey(sort: Sort, category: string | null, curated: boolean): string {
  return `${sort}${category === null ? "" : `|c:${category}`}${curated ? "|curated" : ""}`;
}
