/**
 * Wire shapes of a plugin, mapped explicitly from records so the format cannot drift with the schema.
 * The builder serializes them once per snapshot; requests only concatenate the stored JSON.
 */
import type { PluginRecord } from "./types";

/** Full form (contract 2.2), returned by /api/v1/*. */
export interface PluginView {
  id: string;
  name: string;
  full_name: string;
  url: string;
  homepage: string | null;
  description: string;
  description_zh: string | null;
  category: string;
  categories: string[];
  stars: number;
  forks: number;
  language: string;
  license: string;
  archived: boolean;
  created_at: string;
  pushed_at: string;
  topics: string[];
}

/** Short form (contract 2.3), returned by /market/v1/plugins. */
export interface PluginShortView {
  id: string;
  name: string;
  full_name: string;
  url: string;
  description: string;
  category: string;
  stars: number;
  pushed_at: string;
}

export function fullView(r: PluginRecord): PluginView {
  return {
    id: r.id,
    name: r.name,
    full_name: r.full_name,
    url: r.url,
    homepage: r.homepage,
    description: r.description,
    description_zh: r.description_zh,
    category: r.category,
    categories: r.categories,
    stars: r.stars,
    forks: r.forks,
    language: r.language,
    license: r.license,
    archived: r.archived,
    created_at: r.created_at,
    pushed_at: r.pushed_at,
    topics: r.topics,
  };
}

export function shortView(r: PluginRecord): PluginShortView {
  return {
    id: r.id,
    name: r.name,
    full_name: r.full_name,
    url: r.url,
    description: r.description,
    category: r.category,
    stars: r.stars,
    pushed_at: r.pushed_at,
  };
}

/** The catalog form (catalog.json, changes): the full form plus what a mirror keeps. */
export interface PluginCatalogView extends PluginView {
  curated: boolean;
  first_seen_at: string;
  repo_id: number | null;
  previous_ids: string[];
}

/** The catalog form's JSON from the stored full form and the columns beside it. */
export function catalogJson(
  fullJson: string,
  curated: boolean,
  firstSeenAt: string,
  repoId: number | null,
  previousIds: string,
): string {
  const extra = `"curated":${curated},"first_seen_at":${JSON.stringify(firstSeenAt)},"repo_id":${repoId},"previous_ids":${previousIds}`;
  return `${fullJson.slice(0, -1)},${extra}}`;
}

export function catalogView(r: PluginRecord): PluginCatalogView {
  return {
    ...fullView(r),
    curated: r.curated,
    first_seen_at: r.first_seen_at,
    repo_id: r.repo_id,
    previous_ids: r.previous_ids,
  };
}
