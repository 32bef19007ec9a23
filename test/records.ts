/**
 * The one plugin-record builder and the one seeded generator that tests and benches share: every
 * synthetic record, catalog and random draw starts here.
 */
import type { PluginRecord } from "../src/catalog/model/types";

export const SNAPSHOT_AT = "2026-08-22T00:00:00.000Z";

/** A plugin record with sensible defaults; `id` decides name, full_name and url. */
export function plugin(id: string, fields: Partial<PluginRecord> = {}): PluginRecord {
  const [owner, name] = id.split("/") as [string, string];
  return {
    id,
    name,
    full_name: id,
    url: `https://github.com/${owner}/${name}`,
    homepage: null,
    description: "",
    description_zh: null,
    category: fields.categories?.[0] ?? "other",
    categories: ["other"],
    stars: 0,
    forks: 0,
    language: "",
    license: "",
    archived: false,
    created_at: "2025-01-01T00:00:00Z",
    pushed_at: "2026-08-01T00:00:00Z",
    topics: [],
    curated: false,
    first_seen_at: SNAPSHOT_AT,
    etag: null,
    repo_id: null,
    previous_ids: [],
    ...fields,
  };
}

/** mulberry32: small, fast, seeded; a test or a bench draws the same data every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
