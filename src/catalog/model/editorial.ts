/**
 * The data in db/: the editors' category rules, curated list and overrides, and the embedded
 * default snapshot's repository facts. Read and checked here, so a bad edit fails loudly.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ListingRules, listingRulesOf, NO_LISTING_RULES, type RulesForAuthors } from "./candidates";
import { FALLBACK_CATEGORY } from "./classify";
import { stripInvisible } from "./invisible";
import type { Category, CategoryInfo, CuratedEntry, Editorial, Override, RepoFacts } from "./types";

/** The repository's db/ folder. */
export const DB_DIR = join(import.meta.dir, "..", "..", "..", "db");

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/**
 * Strips invisible characters from the named text fields of `item` in place, noting each field
 * cleaned as `file: what.field` in `cleaned`: the editors' files pass the same cleaner as upstream text.
 */
function clean<T extends object>(item: T, fields: Array<keyof T & string>, where: string, cleaned: string[]): T {
  for (const field of fields) {
    const value = item[field];
    if (typeof value !== "string") continue;
    const { text, removed } = stripInvisible(value);
    if (removed === 0) continue;
    (item as Record<string, unknown>)[field] = text;
    cleaned.push(`${where}.${field}`);
  }
  return item;
}

/** Loads and checks categories.json, curated.json and overrides.json. */
export function loadEditorial(dir = DB_DIR): Editorial {
  const { categories } = readJson<{ categories: Category[] }>(join(dir, "categories.json"));
  const { plugins: curated } = readJson<{ plugins: CuratedEntry[] }>(join(dir, "curated.json"));
  const { overrides } = readJson<{ overrides: Record<string, Override> }>(join(dir, "overrides.json"));
  const ids = new Set(categories.map((c) => c.id));
  if (!ids.has(FALLBACK_CATEGORY))
    throw new Error(`categories.json lacks the fallback category "${FALLBACK_CATEGORY}"`);
  for (const [id, o] of Object.entries(overrides)) {
    if (o.category !== undefined && !ids.has(o.category))
      throw new Error(`overrides.json: ${id} names unknown category ${o.category}`);
  }
  const cleaned: string[] = [];
  for (const c of categories) clean(c, ["name", "name_zh", "description"], `categories.json: ${c.id}`, cleaned);
  for (const c of curated) clean(c, ["description_zh", "reason"], `curated.json: ${c.id}`, cleaned);
  for (const [id, o] of Object.entries(overrides))
    clean(o, ["description_zh", "note"], `overrides.json: ${id}`, cleaned);
  for (const c of curated) {
    if (!c.description_zh?.trim()) throw new Error(`curated.json: ${c.id} lacks description_zh`);
  }
  const pinned: Array<[string, { repo_id?: unknown }]> = [
    ...curated.map((c): [string, CuratedEntry] => [`curated.json: ${c.id}`, c]),
    ...Object.entries(overrides).map(([id, o]): [string, Override] => [`overrides.json: ${id}`, o]),
  ];
  for (const [where, entry] of pinned) {
    const pin = entry.repo_id;
    if (pin !== undefined && !(Number.isSafeInteger(pin) && (pin as number) > 0))
      throw new Error(`${where}: repo_id must be the platform's numeric repository id`);
  }
  return { categories, curated, overrides, cleaned };
}

export interface DefaultData {
  snapshotAt: string;
  facts: RepoFacts[];
}

/** The embedded default snapshot's facts (db/plugins.json). */
export function loadDefaultData(dir = DB_DIR): DefaultData {
  const data = readJson<{ snapshot_at: string; plugins: RepoFacts[] }>(join(dir, "plugins.json"));
  return { snapshotAt: data.snapshot_at, facts: data.plugins };
}

/** The category set as clients see it: ids, names and descriptions, without the rules. */
export function categoryInfo(editorial: Editorial): CategoryInfo[] {
  return editorial.categories.map(({ id, name, name_zh, description }) => ({ id, name, name_zh, description }));
}

/** Word groups of one meaning each (db/synonyms.json), lowercase; none when the file is absent. */
export function loadSynonyms(dir = DB_DIR): string[][] {
  const path = join(dir, "synonyms.json");
  if (!existsSync(path)) return [];
  const { groups } = readJson<{ groups: string[][] }>(path);
  for (const group of groups) {
    for (const word of group) {
      if (!/^[a-z0-9]+$/.test(word)) throw new Error(`synonyms.json: "${word}" is not one lowercase word`);
    }
  }
  return groups;
}

/** What the discovery rules in `dir` (discovery.json) tell an author; none when the file is absent. */
export function loadListingRules(dir = DB_DIR): ListingRules {
  const path = join(dir, "discovery.json");
  if (!existsSync(path)) return NO_LISTING_RULES;
  const rules = readJson<Partial<RulesForAuthors>>(path);
  return listingRulesOf({
    evidence: rules.evidence ?? { topics: [], files: [] },
    searches: rules.searches ?? [],
    code: rules.code ?? [],
    lists: rules.lists ?? [],
    marketplaces: rules.marketplaces ?? [],
  });
}
