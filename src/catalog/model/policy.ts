/**
 * An organization's policy (docs/operations.md, "A catalog held to a policy"): which plugins the
 * catalog serves. A pure judgement of one record: the first rule it breaks, named as the listing
 * answer shows it (`deny repo someone/thing`, `require.scorecard_min 5: scorecard 3.1`), or null.
 */
import { createHash } from "node:crypto";
import { measuredTokens } from "./context-cost";
import type { Harness } from "./details";
import type { RiskRule } from "./risk";
import type { PluginRecord } from "./types";

/** One allow or deny entry: every repository of an owner, or one repository (allowed at one commit). */
export type PolicyEntry = { owner: string } | { repo: string; commit?: string };

export interface PolicyRequire {
  licences?: string[];
  verified_owner?: boolean;
  packages_verified?: boolean;
  scorecard_min?: number;
  advisories?: "none";
  risk_rules_absent?: RiskRule[];
  context_max?: number;
  archived?: boolean;
  harnesses?: Harness[];
}

export interface Policy {
  /** The file it was read from, as configured. */
  file: string;
  /** Null: every plugin the public rules list. */
  allow: PolicyEntry[] | null;
  deny: PolicyEntry[];
  require: PolicyRequire;
  /** Null: every category. */
  categories: string[] | null;
}

const lower = (text: string) => text.toLowerCase();
const ownerOf = (id: string) => lower(id.slice(0, id.indexOf("/")));

function matches(entry: PolicyEntry, id: string): boolean {
  return "owner" in entry ? lower(entry.owner) === ownerOf(id) : lower(entry.repo) === lower(id);
}

function entryText(entry: PolicyEntry): string {
  return "owner" in entry ? `owner ${entry.owner}` : `repo ${entry.repo}`;
}

/** The allow entry that admits `id`, a repository's own entry before its owner's; null when none does. */
export function allowEntry(policy: Policy, id: string): PolicyEntry | null {
  const all = policy.allow ?? [];
  return all.find((e) => "repo" in e && matches(e, id)) ?? all.find((e) => matches(e, id)) ?? null;
}

/** The commit an allow entry pins `id` to, or null when it is allowed at any commit. */
export function approvedCommit(policy: Policy, id: string): string | null {
  const entry = allowEntry(policy, id);
  return entry && "repo" in entry ? (entry.commit ?? null) : null;
}

const list = (items: readonly string[]) => (items.length ? items.join(", ") : "none");

type Check = (record: PluginRecord, require: PolicyRequire) => string | null;

/** Each `require` key's check, in the order the docs list them: the broken rule and what the record has. */
const REQUIRE: Array<[keyof PolicyRequire, Check]> = [
  [
    "licences",
    (r, q) => (q.licences!.some((l) => lower(l) === lower(r.license)) ? null : `licence ${r.license || "none"}`),
  ],
  ["verified_owner", (r, q) => (!q.verified_owner || r.details?.owner_verified ? null : "owner not verified")],
  [
    "packages_verified",
    (r, q) => {
      if (!q.packages_verified) return null;
      const bad = (r.details?.install ?? []).filter((i) => i.package_verified === false);
      return bad.length ? `package not the repository's: ${list(bad.map((i) => i.command ?? i.kind))}` : null;
    },
  ],
  [
    "scorecard_min",
    (r, q) => {
      const score = r.details?.security?.scorecard?.score;
      if (score === undefined) return `scorecard ${r.details?.security?.scorecard_status ?? "unknown"}`;
      return score >= q.scorecard_min! ? null : `scorecard ${score}`;
    },
  ],
  [
    "advisories",
    (r) => {
      const s = r.details?.security;
      if (!s || s.packages.length === 0) return null;
      if (s.advisories === null) return "advisories unknown";
      return s.advisories.length ? `advisories ${list(s.advisories)}` : null;
    },
  ],
  [
    "risk_rules_absent",
    (r, q) => {
      const found = [...new Set((r.details?.risk ?? []).map((n) => n.rule))].filter((rule) =>
        q.risk_rules_absent!.includes(rule),
      );
      return found.length ? `risk ${list(found)}` : null;
    },
  ],
  [
    "context_max",
    (r, q) => {
      const context = r.details?.context;
      if (!context) return null;
      const tokens = measuredTokens(context);
      if (tokens === null) return "context not measured";
      return tokens <= q.context_max! ? null : `context ${tokens}`;
    },
  ],
  ["archived", (r, q) => (q.archived === false && r.archived ? "archived" : null)],
  [
    "harnesses",
    (r, q) => {
      const works = r.details?.works_with ?? [];
      return works.some((h) => q.harnesses!.includes(h)) ? null : `works with ${list(works)}`;
    },
  ],
];

function requiredValue(value: unknown): string {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * The rule of `policy` that keeps `record` out, named with what the record has; null when the
 * policy admits it. The commit an allow entry pins is judged apart (approvedCommit): a record
 * read at another commit is the review's business, not a rule it breaks.
 */
export function policyRule(policy: Policy, record: PluginRecord): string | null {
  const denied = policy.deny.find((e) => matches(e, record.id));
  if (denied) return `deny ${entryText(denied)}`;
  if (policy.allow !== null && allowEntry(policy, record.id) === null) return "not in allow";
  if (policy.categories !== null && !record.categories.some((c) => policy.categories!.includes(c))) {
    return `categories ${list(policy.categories)}: ${list(record.categories)}`;
  }
  for (const [key, check] of REQUIRE) {
    if (policy.require[key] === undefined) continue;
    const broken = check(record, policy.require);
    if (broken !== null) return `require.${key} ${requiredValue(policy.require[key])}: ${broken}`;
  }
  return null;
}

/** What a policy says, whatever file it came from: a snapshot built under it is marked with this. */
export function policyFingerprint(policy: Policy): string {
  const { file: _file, ...rules } = policy;
  return createHash("sha256").update(JSON.stringify(rules)).digest("hex");
}
