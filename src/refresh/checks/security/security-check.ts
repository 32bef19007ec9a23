/**
 * The refresh step after the package checks: every fetched plugin's repository and the exact
 * versions its npm and PyPI install lines pin are asked of deps.dev (security-checker.ts), and the plugin's
 * `security` is set from the answers. Unknown stays unknown (null), never good; the details pass
 * their stored schema again before they replace the fetched ones. Nothing here fails the refresh.
 */

import { type PluginDetails, validDetails } from "../../../catalog/model/details";
import {
  MAX_ADVISORIES,
  MAX_SECURITY_PACKAGES,
  type PackageSecurity,
  type Security,
} from "../../../catalog/model/security";
import { isoMillis } from "../../../catalog/model/time";
import type { Outcome } from "../../fetch/outcome";
import { packageOf } from "../packages/packages-check";
import type { VersionAsk } from "./deps-dev";
import type { SecurityChecker } from "./security-checker";

type Fetched = Extract<Outcome, { kind: "fetched" }> & { details: PluginDetails };

/** An exact version: no range, tag or wildcard, which name no one release deps.dev could answer for. */
const EXACT = /^[0-9][0-9A-Za-z.+!_-]{0,99}$/;

export interface SecurityCounts {
  plugins: number;
  scored: number;
  notScored: number;
  scorecardUnknown: number;
  withAdvisories: number;
  advisoriesUnknown: number;
}

/** The exact package versions a plugin's npm and PyPI lines pin, once each. */
export function pinnedVersions(details: PluginDetails): VersionAsk[] {
  const seen = new Map<string, VersionAsk>();
  for (const entry of details.install) {
    if (entry.kind !== "npm" && entry.kind !== "pypi") continue;
    const pkg = packageOf(entry);
    if (pkg === null || !EXACT.test(pkg.version)) continue;
    const ask: VersionAsk = { system: entry.kind, name: pkg.name, version: pkg.version };
    seen.set(`${ask.system}:${ask.name}@${ask.version}`, ask);
  }
  return [...seen.values()].slice(0, MAX_SECURITY_PACKAGES);
}

/** A plugin's security from what the checker knows; `ids` are its id and former ids, lowercased. */
export function securityOf(checker: SecurityChecker, repo: string, pinned: VersionAsk[], ids: Set<string>): Security {
  const times: number[] = [];
  const project = checker.project(repo);
  if (project) times.push(project.at);
  const packages: PackageSecurity[] = pinned.map((ask) => {
    const known = checker.version(ask);
    if (known) times.push(known.at);
    const facts = known?.facts ?? null;
    return { ...ask, advisories: facts?.advisories ?? null, provenance: facts?.provenance ?? null };
  });
  const allKnown = packages.length > 0 && packages.every((p) => p.advisories !== null);
  const advisories = allKnown
    ? [...new Set(packages.flatMap((p) => p.advisories!))].sort().slice(0, MAX_ADVISORIES)
    : null;
  const ours = (p: PackageSecurity) =>
    p.provenance?.verified === true && ids.has(p.provenance.repository.toLowerCase());
  const scorecard = project?.facts?.scorecard ?? null;
  return {
    scorecard,
    scorecard_status: project === undefined ? "unknown" : scorecard === null ? "not_scored" : "scored",
    advisories,
    provenance: allKnown ? packages.every(ours) : null,
    packages,
    checked_at: times.length > 0 ? isoMillis(new Date(Math.min(...times))) : null,
  };
}

function tally(counts: SecurityCounts, s: Security): void {
  counts.plugins++;
  if (s.scorecard_status === "scored") counts.scored++;
  else if (s.scorecard_status === "not_scored") counts.notScored++;
  else counts.scorecardUnknown++;
  if (s.packages.length > 0 && s.advisories === null) counts.advisoriesUnknown++;
  if (s.advisories && s.advisories.length > 0) counts.withAdvisories++;
}

/**
 * Asks deps.dev about every fetched plugin (outcomes by the id asked for; `formerIds` gives a
 * repository's former ids) and sets each one's `security`. Plugins with pinned packages go first,
 * so a spent budget leaves the Scorecards of the others unknown rather than their advisories.
 */
export async function checkSecurity(
  outcomes: Iterable<[string, Outcome]>,
  formerIds: (id: string) => string[],
  checker: SecurityChecker,
): Promise<SecurityCounts> {
  const todo = [...outcomes]
    .filter((entry): entry is [string, Fetched] => entry[1].kind === "fetched" && !!entry[1].details)
    .map(([asked, outcome]) => ({ asked, outcome, pinned: pinnedVersions(outcome.details) }));
  todo.sort((a, b) => Number(b.pinned.length > 0) - Number(a.pinned.length > 0));
  await checker.ask(
    todo.flatMap((t) => t.pinned),
    todo.map((t) => t.outcome.facts.full_name),
  );
  const counts: SecurityCounts = {
    plugins: 0,
    scored: 0,
    notScored: 0,
    scorecardUnknown: 0,
    withAdvisories: 0,
    advisoriesUnknown: 0,
  };
  for (const { asked, outcome, pinned } of todo) {
    const repo = outcome.facts.full_name;
    const ids = new Set([repo, asked, ...formerIds(asked), ...formerIds(repo)].map((id) => id.toLowerCase()));
    const security = securityOf(checker, repo, pinned, ids);
    const checked = validDetails({ ...outcome.details, security });
    if (checked === null) continue;
    outcome.details = checked;
    tally(counts, security);
  }
  return counts;
}
