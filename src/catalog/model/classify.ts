/**
 * Classification and editorial merge: repository facts + the editors' data (db/) → plugin records.
 * Rules live in db/categories.json; this module only interprets them.
 */
import type { PluginDetails } from "./details";
import { lookalikes } from "./lookalike";
import { takenMarketplaces } from "./marketplace-taken";
import { markSkillCopies } from "./skill-copies";
import { escapeRegExp } from "./text";
import { isoMillis, isoSeconds } from "./time";
import type { Category, Editorial, PluginRecord, RepoFacts } from "./types";

export const FALLBACK_CATEGORY = "other";

interface CompiledCategory {
  id: string;
  topics: Set<string>;
  keywords: RegExp | null;
  hints: string[];
}

function compile(category: Category): CompiledCategory {
  const words = category.keywords.map((k) => escapeRegExp(k.toLowerCase()).replace(/[\s_-]+/g, "[\\s_-]+"));
  return {
    id: category.id,
    topics: new Set(category.topics.map((t) => t.toLowerCase())),
    // Word boundaries that also work next to non-ASCII letters.
    keywords: words.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})(?![\\p{L}\\p{N}])`, "u") : null,
    hints: category.hints.map((h) => h.toLowerCase()),
  };
}

/** Assigns categories to repositories: every matching category, primary (highest priority) first. */
export class Classifier {
  private readonly compiled: CompiledCategory[];
  readonly ids: ReadonlySet<string>;

  constructor(categories: Category[]) {
    this.compiled = categories.map(compile);
    this.ids = new Set(categories.map((c) => c.id));
  }

  /** Topic and keyword rules decide; the source hint counts only when none of them matches. */
  categorize(facts: RepoFacts): string[] {
    const topics = (facts.topics ?? []).map((t) => t.toLowerCase());
    const repoName = facts.full_name.split("/")[1] ?? facts.full_name;
    const text = `${repoName.replace(/[-_]+/g, " ")} ${facts.description ?? ""}`.toLowerCase();
    const strong = this.compiled.filter(
      (c) => topics.some((t) => c.topics.has(t)) || (c.keywords !== null && c.keywords.test(text)),
    );
    if (strong.length) return strong.map((c) => c.id);
    const hint = facts.hint?.toLowerCase();
    const weak = hint ? this.compiled.filter((c) => c.hints.some((h) => hint.startsWith(h))) : [];
    return weak.length ? weak.map((c) => c.id) : [FALLBACK_CATEGORY];
  }
}

export interface RecordContext {
  firstSeenAt: string;
  etag?: string | null;
  /** Former ids of the plugin, oldest first. */
  previousIds?: string[];
  /** The platform's numeric id as published, for when this run's facts lack it. */
  repoId?: number | null;
  /** What the manifests said, this run or as published. */
  details?: PluginDetails | null;
}

/** Merges facts with the editors' data; null when the editors excluded the repository. */
export function toRecord(
  facts: RepoFacts,
  editorial: Editorial,
  classifier: Classifier,
  context: RecordContext,
  curatedZh: ReadonlyMap<string, string>,
): PluginRecord | null {
  const id = facts.full_name;
  const override = editorial.overrides[id];
  if (override?.exclude) return null;
  let categories = classifier.categorize(facts);
  if (override?.category) categories = [override.category, ...categories.filter((c) => c !== override.category)];
  const [owner, name] = id.split("/") as [string, string];
  return {
    id,
    name,
    full_name: id,
    url: `https://github.com/${owner}/${name}`,
    homepage: facts.homepage?.trim() ? facts.homepage.trim() : null,
    description: facts.description ?? "",
    description_zh: override?.description_zh ?? curatedZh.get(id) ?? null,
    category: categories[0] ?? FALLBACK_CATEGORY,
    categories,
    stars: facts.stars,
    forks: facts.forks,
    language: facts.language ?? "",
    license: facts.license ?? "",
    archived: facts.archived ?? false,
    created_at: isoSeconds(facts.created_at),
    pushed_at: isoSeconds(facts.pushed_at),
    topics: facts.topics ?? [],
    curated: curatedZh.has(id),
    first_seen_at: isoMillis(context.firstSeenAt),
    etag: context.etag ?? null,
    repo_id: facts.database_id ?? context.repoId ?? null,
    previous_ids: context.previousIds ?? [],
    details: context.details ?? null,
    lookalike_of: null,
  };
}

/** The record fields repository facts are made of. */
export type FactFields = Pick<
  PluginRecord,
  | "id"
  | "description"
  | "homepage"
  | "stars"
  | "forks"
  | "language"
  | "license"
  | "archived"
  | "created_at"
  | "pushed_at"
  | "topics"
>;

/** A record's repository facts, the inverse of toRecord's: the record's `""` for an unknown value is null again. */
export function recordFacts(r: FactFields): RepoFacts {
  return {
    full_name: r.id,
    description: r.description || null,
    homepage: r.homepage,
    stars: r.stars,
    forks: r.forks,
    language: r.language || null,
    license: r.license || null,
    archived: r.archived,
    created_at: r.created_at,
    pushed_at: r.pushed_at,
    topics: r.topics,
  };
}

/**
 * Turns a list of facts into records, dropping exclusions and duplicate ids (first wins; ids
 * compare case-insensitively, as on the platform).
 */
export function toRecords(
  facts: RepoFacts[],
  editorial: Editorial,
  firstSeen: (id: string) => RecordContext,
): PluginRecord[] {
  const classifier = new Classifier(editorial.categories);
  const curatedZh = new Map(editorial.curated.map((c) => [c.id, c.description_zh]));
  const seen = new Set<string>();
  const records: PluginRecord[] = [];
  for (const fact of facts) {
    const key = fact.full_name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const record = toRecord(fact, editorial, classifier, firstSeen(fact.full_name), curatedZh);
    if (record) records.push(record);
  }
  const imitated = lookalikes(records);
  const taken = takenMarketplaces(records);
  for (const record of records) {
    const key = record.id.toLowerCase();
    record.lookalike_of = imitated.get(key) ?? taken.get(key) ?? null;
  }
  markSkillCopies(records);
  return records;
}
