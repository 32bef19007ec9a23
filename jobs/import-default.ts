/**
 * Builds `db/plugins.json`, the reviewable source of the embedded default snapshot,
 * from a real-data file of repository records.
 *
 * Usage: `bun run jobs/import-default.ts <path-to-records.json>`
 *
 * Rules:
 * - Only records whose `stars`, `forks`, `created_at` and `pushed_at` are all known are
 *   kept: numbers and timestamps are never invented.
 * - Facts are copied as they are. The only normalisation: a `homepage` that is not an
 *   http(s) URL (some sources serialised "none" as `{}`) becomes null.
 * - A repository listed under an old and a new name (the platform redirects the old one)
 *   is detected by an identical `created_at` and kept once, under its current name; the
 *   dropped names go to `previous_names`. The current name is the one an old record's
 *   `homepage` points at when a source recorded the redirect, otherwise the record seen
 *   most recently (`as_of.stars`, then `as_of.pushed_at`), otherwise the higher star count.
 * - Output is sorted by `full_name` (case-insensitive) so diffs stay stable.
 *
 * The run is deterministic: the same input always gives the same file.
 */
import { resolve } from "node:path";
import type { RepoFacts } from "../src/catalog/model/types";

/** One record of the shared data file; only the fields this job reads are typed strictly. */
interface SourceRecord {
  full_name: string;
  description: string | null;
  homepage: string | null;
  stars: number | null;
  forks: number | null;
  language: string | null;
  license: string | null;
  archived: boolean | null;
  created_at: string | null;
  pushed_at: string | null;
  topics: string[] | null;
  category: string | null;
  as_of: Record<string, string | undefined>;
}

/** A source record whose numbers and timestamps are all known. */
type KnownRecord = SourceRecord & {
  stars: number;
  forks: number;
  created_at: string;
  pushed_at: string;
};

/** One plugin as written to `db/plugins.json`: the facts the builder reads, plus the names it replaced. */
type OutputPlugin = RepoFacts & { hint: string | null; previous_names?: string[] };

interface OutputFile {
  snapshot_at: string;
  source: string;
  plugins: OutputPlugin[];
}

/** A merged repository: the record kept and the records found under its old names. */
interface Merge {
  kept: KnownRecord;
  dropped: KnownRecord[];
}

const REPO_ROOT = resolve(import.meta.dir, "..");
const OUTPUT = resolve(REPO_ROOT, "db/plugins.json");
const SOURCE_NOTE =
  "Public snapshots of awesome-lists and plugin catalogs (best-of-mcp-servers, awesome-claude-code, " +
  "claude-code-insights, claudemarketplaces.com, claude-plugins-official, claude-code-templates, the MCP registry " +
  "seed) taken 2025-05 to 2026-08, keeping only repositories whose stars, forks, creation and push times are known.";

function isKnown(record: SourceRecord): record is KnownRecord {
  return record.stars !== null && record.forks !== null && record.created_at !== null && record.pushed_at !== null;
}

function cleanHomepage(homepage: string | null): string | null {
  return homepage !== null && /^https?:\/\//i.test(homepage) ? homepage : null;
}

/** The `owner/repo` a homepage points at when it is a GitHub repository URL, lowercased. */
function githubTarget(homepage: string | null): string | null {
  const match = homepage?.match(/^https?:\/\/github\.com\/([^/\s]+\/[^/\s#?]+?)\/?$/i);
  return match?.[1]?.toLowerCase() ?? null;
}

/** True when some other record of the group names `record` as its redirect target. */
function isRedirectTarget(record: KnownRecord, group: KnownRecord[]): boolean {
  const name = record.full_name.toLowerCase();
  return group.some((other) => other !== record && githubTarget(other.homepage) === name);
}

/** Negative when `a` is more likely the current name than `b`. */
function compareCurrentness(a: KnownRecord, b: KnownRecord, group: KnownRecord[]): number {
  const target = Number(isRedirectTarget(b, group)) - Number(isRedirectTarget(a, group));
  if (target !== 0) return target;
  for (const field of ["stars", "pushed_at"]) {
    const byDate = (b.as_of[field] ?? "").localeCompare(a.as_of[field] ?? "");
    if (byDate !== 0) return byDate;
  }
  return b.stars - a.stars || a.full_name.localeCompare(b.full_name);
}

function groupByCreation(records: KnownRecord[]): KnownRecord[][] {
  const groups = new Map<string, KnownRecord[]>();
  for (const record of records) {
    const group = groups.get(record.created_at) ?? [];
    group.push(record);
    groups.set(record.created_at, group);
  }
  return [...groups.values()];
}

function mergeGroup(group: KnownRecord[]): Merge {
  const [kept, ...dropped] = [...group].sort((a, b) => compareCurrentness(a, b, group));
  if (kept === undefined) throw new Error("empty group");
  return { kept, dropped };
}

function toPlugin({ kept, dropped }: Merge): OutputPlugin {
  const plugin: OutputPlugin = {
    full_name: kept.full_name,
    description: kept.description,
    homepage: cleanHomepage(kept.homepage),
    stars: kept.stars,
    forks: kept.forks,
    language: kept.language,
    license: kept.license,
    archived: kept.archived,
    created_at: kept.created_at,
    pushed_at: kept.pushed_at,
    topics: kept.topics,
    hint: kept.category,
  };
  if (dropped.length > 0) plugin.previous_names = dropped.map((r) => r.full_name).sort();
  return plugin;
}

function byNameInsensitive(a: OutputPlugin, b: OutputPlugin): number {
  const x = a.full_name.toLowerCase();
  const y = b.full_name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.full_name.localeCompare(b.full_name);
}

/** The latest `as_of` date among the kept records, as a millisecond UTC timestamp. */
function latestAsOf(records: KnownRecord[]): string {
  const dates = records.flatMap((r) => Object.values(r.as_of)).filter((d): d is string => !!d);
  const latest = dates.reduce((max, d) => (d > max ? d : max), "");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(latest)) throw new Error(`no usable as_of date (got "${latest}")`);
  return `${latest}T00:00:00.000Z`;
}

async function readRecords(path: string): Promise<SourceRecord[]> {
  const data: unknown = await Bun.file(path).json();
  if (!Array.isArray(data)) throw new Error(`${path}: expected a JSON array of records`);
  return data as SourceRecord[];
}

function describeMerges(merges: Merge[]): string[] {
  return merges
    .filter((m) => m.dropped.length > 0)
    .map((m) => `  ${m.dropped.map((r) => r.full_name).join(", ")} -> ${m.kept.full_name}`);
}

async function main(): Promise<void> {
  const path = process.argv[2];
  if (path === undefined) {
    console.error("usage: bun run jobs/import-default.ts <path-to-records.json>");
    process.exit(2);
  }
  const input = resolve(process.cwd(), path);
  const known = (await readRecords(input)).filter(isKnown);
  const merges = groupByCreation(known).map(mergeGroup);
  const kept = merges.map((m) => m.kept);
  const output: OutputFile = {
    snapshot_at: latestAsOf(kept),
    source: SOURCE_NOTE,
    plugins: merges.map(toPlugin).sort(byNameInsensitive),
  };
  await Bun.write(OUTPUT, `${JSON.stringify(output, null, 1)}\n`);
  const merged = describeMerges(merges);
  console.log(`${known.length} known records, ${merged.length} renamed repositories merged:`);
  console.log(merged.join("\n"));
  console.log(`wrote ${output.plugins.length} plugins to ${OUTPUT} (snapshot_at ${output.snapshot_at})`);
}

await main();
