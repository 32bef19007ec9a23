/**
 * The discovery rules (db/discovery.json): which platform searches find plugins, which code search
 * finds plugin manifests, and which repositories are always included. Data, not code; checked here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface SearchRule {
  query: string;
  note?: string;
}

export interface DiscoveryRules {
  /** A full discovery (every window since the platform began, and the code searches) at least this often. */
  fullEveryDays: number;
  /** Repository searches, e.g. `topic:claude-code-plugin`. */
  searches: SearchRule[];
  /** Code searches whose hits name plugin repositories, e.g. `filename:marketplace.json path:.claude-plugin`. */
  code: SearchRule[];
  /** `owner/repo` ids included whatever the searches say. */
  repositories: string[];
}

const REPO_ID = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;
/** Qualifiers the refresher adds itself; a rule that sets them would fight the window splitting. */
const RESERVED = /\b(created|pushed):/i;

function checkRule(file: string, rule: SearchRule, index: number): void {
  if (typeof rule?.query !== "string" || !rule.query.trim()) throw new Error(`${file}: rule ${index} lacks a query`);
  if (RESERVED.test(rule.query)) throw new Error(`${file}: "${rule.query}" must not set created: or pushed:`);
}

/** Reads and checks `discovery.json` in `dir`. */
export function loadDiscoveryRules(dir: string): DiscoveryRules {
  const file = join(dir, "discovery.json");
  const raw = JSON.parse(readFileSync(file, "utf8")) as Partial<DiscoveryRules>;
  const rules: DiscoveryRules = {
    fullEveryDays: raw.fullEveryDays ?? 7,
    searches: raw.searches ?? [],
    code: raw.code ?? [],
    repositories: raw.repositories ?? [],
  };
  if (!Number.isFinite(rules.fullEveryDays) || rules.fullEveryDays <= 0) throw new Error(`${file}: fullEveryDays must be a positive number`);
  rules.searches.forEach((r, i) => checkRule(file, r, i));
  rules.code.forEach((r, i) => checkRule(file, r, i));
  for (const id of rules.repositories) {
    if (!REPO_ID.test(id)) throw new Error(`${file}: "${id}" is not an owner/repo id`);
  }
  return rules;
}
