/**
 * What the refresher decided about each candidate repository it met, so an author can learn why
 * a repository is listed or not: the last decision per repository, carried from snapshot to
 * snapshot for CANDIDATE_DAYS and at most MAX_CANDIDATES of them, newest first.
 */
import { daysBefore } from "./time";

/**
 * Why a candidate was not published: the one list of reasons. Each reason has its sentence in
 * routes/listing.ts (a Record over this list, so a new reason cannot go without one).
 */
export const REJECTIONS = [
  /** Nothing says it extends a coding-agent harness: no evidence topic, file or listing. */
  "no_evidence",
  /**
   * Below the star floor of the searches that could find it. The platform applies a search's floor
   * itself, so a run never meets such a repository; an unseen answer names the floors instead.
   */
  "star_floor",
  /** The editors excluded it (db/overrides.json). */
  "excluded",
  /** Its owner excluded it: its owner file says `exclude: true` (refresh/manifests/owner-file.ts). */
  "excluded_by_owner",
  /** The platform answered with a name the platform's own rules do not allow. */
  "invalid_name",
  /** A fact a record cannot do without (stars, dates) was missing or malformed. */
  "invalid_facts",
  /** Its source had already added as many new candidates as it may in one run. */
  "over_source_cap",
  /** Its sources had already vouched for as many repositories without evidence as they may in one run. */
  "over_vouch_cap",
  /** A run that would have grown the catalog too much holds its newcomers for the editors' review. */
  "held_for_review",
  /** Archived by its owner before it was ever listed (a run lists archived newcomers, so gives no such reason). */
  "archived",
  /** The platform does not know it (deleted, private, or a misspelt link). */
  "not_found",
  /** Its name now belongs to a different repository (another numeric id). */
  "replaced",
  /** The operator's policy keeps it out (policy.ts): the decision's `detail` names the rule. */
  "policy",
] as const;

export type Rejection = (typeof REJECTIONS)[number];
export type Decision = "published" | Rejection;

/** How long a decision is kept after the run that made it. */
export const CANDIDATE_DAYS = 90;
/** The most decisions a snapshot carries: three times the catalog, so their share of the file stays bounded. */
export const MAX_CANDIDATES = 30_000;

/** The evidence the refresher looked for, and what it found. */
export interface EvidenceFound {
  /** Rules (curated lists, marketplaces, the repository list) that list it. */
  listed_by: string[];
  /** Whether the editors' overrides name it (and do not exclude it). */
  editors: boolean;
  /** The evidence topics it carries. */
  topics: string[];
  /** The evidence files present at its HEAD. */
  files: string[];
  /** Whether the files were looked up (a run without a token does not). */
  files_checked: boolean;
}

/** One repository's last decision. */
export interface CandidateDecision {
  /** `owner/repo` as the platform spelt it when checked. */
  id: string;
  repo_id: number | null;
  decision: Decision;
  /** Keys of the discovery rules that found it this run; empty for a plugin kept from before. */
  found_by: string[];
  evidence: EvidenceFound | null;
  stars: number | null;
  /** The id it answers under now, when it was met under a former name. */
  current_id: string | null;
  /** The snapshotAt of the run that decided. */
  checked_at: string;
  /** A `policy` decision's rule (`deny repo someone/thing`, `require.scorecard_min 5: scorecard 3.1`). */
  detail?: string;
}

/**
 * The decisions a snapshot at `snapshotAt` carries: this run's, then the earlier ones this run did
 * not replace (ids compare case-insensitively), none older than CANDIDATE_DAYS, at most `max`.
 */
export function carryCandidates(
  previous: readonly CandidateDecision[],
  current: readonly CandidateDecision[],
  snapshotAt: string,
  max = MAX_CANDIDATES,
): CandidateDecision[] {
  const horizon = daysBefore(snapshotAt, CANDIDATE_DAYS);
  const kept = new Map<string, CandidateDecision>();
  for (const decision of current) kept.set(decision.id.toLowerCase(), decision);
  const older = previous.filter((d) => d.checked_at >= horizon && !kept.has(d.id.toLowerCase()));
  older.sort((a, b) => (a.checked_at < b.checked_at ? 1 : a.checked_at > b.checked_at ? -1 : 0));
  for (const decision of older) {
    if (kept.size >= max) break;
    kept.set(decision.id.toLowerCase(), decision);
  }
  return [...kept.values()].slice(0, max);
}

/**
 * What the refresher looks for, as an author reads it: the evidence accepted and the searches'
 * star floors. Stored with each snapshot, so the listing answers name the rules it was built by.
 */
export interface ListingRules {
  topics: string[];
  files: Array<{ path: string; note: string }>;
  /** Folders taken as evidence, as the refresher writes them when found (`skills/`). */
  folders: string[];
  /** Dependencies taken as evidence, as the refresher writes them when found (`package.json: @modelcontextprotocol/sdk`). */
  dependencies: string[];
  /** Each repository search with a star floor: its query and the floor. */
  floors: Array<{ query: string; stars: number }>;
  /** Repositories whose listing is evidence: curated lists and marketplaces. */
  listings: string[];
  /** Evidence the searches find at any star count: topics searched without a floor, files code-searched for. */
  findable: { topics: string[]; files: string[] };
}

export const NO_LISTING_RULES: ListingRules = {
  topics: [],
  files: [],
  folders: [],
  dependencies: [],
  floors: [],
  listings: [],
  findable: { topics: [], files: [] },
};

/** The parts of the discovery rules (db/discovery.json, checked by the refresher) an author needs. */
export interface RulesForAuthors {
  evidence: {
    topics: string[];
    files: Array<{ path: string; note: string }>;
    folders?: Array<{ path: string }>;
    dependencies?: Array<{ file: string; name: string }>;
  };
  searches: Array<{ query: string }>;
  code: Array<{ query: string }>;
  lists: Array<{ repository: string }>;
  marketplaces: Array<{ repository: string }>;
}

const FLOOR = /(?:^|\s)stars:(>=|>)(\d+)(?:\s|$)/;
const TOPIC_ONLY = /^topic:([a-z0-9-]+)$/;
const QUALIFIER = (name: string) => new RegExp(`(?:^|\\s)${name}:(\\S+)`);

/** The file a code search looks for: `filename:plugin.json path:.claude-plugin` → `.claude-plugin/plugin.json`. */
function codeSearchFile(query: string): string | null {
  const name = QUALIFIER("filename").exec(query)?.[1];
  if (!name) return null;
  const dir = QUALIFIER("path")
    .exec(query)?.[1]
    ?.replace(/^\/|\/$/g, "");
  return dir ? `${dir}/${name}` : name;
}

/** What an author needs to know of the rules: the evidence accepted, the searches' star floors, the listings. */
export function listingRulesOf(rules: RulesForAuthors): ListingRules {
  const floors: ListingRules["floors"] = [];
  for (const { query } of rules.searches) {
    const match = FLOOR.exec(query);
    if (match) floors.push({ query, stars: Number(match[2]) + (match[1] === ">" ? 1 : 0) });
  }
  const topics = rules.searches.map((r) => TOPIC_ONLY.exec(r.query.trim())?.[1]).filter((t) => t !== undefined);
  const files = rules.code.map((r) => codeSearchFile(r.query)).filter((f) => f !== null);
  return {
    topics: [...rules.evidence.topics],
    files: rules.evidence.files.map(({ path, note }) => ({ path, note })),
    folders: (rules.evidence.folders ?? []).map((f) => `${f.path}/`),
    dependencies: (rules.evidence.dependencies ?? []).map((d) => `${d.file}: ${d.name}`),
    floors,
    listings: [...new Set([...rules.lists, ...rules.marketplaces].map((r) => r.repository))],
    findable: {
      topics: topics.filter((t) => rules.evidence.topics.includes(t)),
      files: files.filter((f) => rules.evidence.files.some((e) => e.path === f)),
    },
  };
}
