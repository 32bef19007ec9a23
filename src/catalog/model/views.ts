/**
 * A record in each wire form (wire.ts), mapped field by field so the format cannot drift with the
 * record. The builder serializes them once per snapshot; requests only concatenate the stored JSON.
 */
import { type DetailFragments, detailFragments } from "./fragments";
import type { PluginRecord } from "./types";
import type { PluginCatalogView, PluginShortView, PluginView } from "./wire";

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
  const parts = `${fragments.contents},${fragments.install},${fragments.flags},${fragments.works_with},${fragments.context}`;
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
