/**
 * Wire shapes of a plugin, mapped explicitly from records so the format cannot drift with the schema.
 * The builder serializes them once per snapshot; requests only concatenate the stored JSON.
 */
import { type DetailFragments, detailFragments } from "./details";
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

/** The catalog form (catalog.json, changes): the full form plus what a mirror keeps and every `include=` part. */
export interface PluginCatalogView extends PluginView {
  curated: boolean;
  first_seen_at: string;
  repo_id: number | null;
  previous_ids: string[];
}

/** The `include=` parts of a record, as stored (one JSON member list each). */
export function fragmentsOf(r: PluginRecord): DetailFragments {
  return detailFragments(r.details ?? null, r.lookalike_of ?? null);
}

/** The catalog form's JSON from the stored full form and the columns beside it. */
export function catalogJson(
  fullJson: string,
  curated: boolean,
  firstSeenAt: string,
  repoId: number | null,
  previousIds: string,
  fragments: DetailFragments,
): string {
  const extra = `"curated":${curated},"first_seen_at":${JSON.stringify(firstSeenAt)},"repo_id":${repoId},"previous_ids":${previousIds}`;
  const parts = `${fragments.contents},${fragments.install},${fragments.flags},${fragments.works_with}`;
  return `${fullJson.slice(0, -1)},${extra},${parts}}`;
}

/** The catalog form's JSON of a record: byte for byte what catalogJson makes of its stored row. */
export function catalogRecordJson(r: PluginRecord): string {
  return catalogJson(
    JSON.stringify(fullView(r)),
    r.curated,
    r.first_seen_at,
    r.repo_id,
    JSON.stringify(r.previous_ids),
    fragmentsOf(r),
  );
}

export function catalogView(r: PluginRecord): PluginCatalogView {
  return JSON.parse(catalogRecordJson(r)) as PluginCatalogView;
}
