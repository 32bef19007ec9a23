/**
 * The sentence a listing answer ends with: what became of a repository and what its author can
 * change. One sentence per rejection reason (catalog/candidates.ts), made from the rules the
 * snapshot was refreshed by.
 */
import type { CandidateDecision, ListingRules, Rejection } from "../../catalog/model/candidates";

const code = (text: string) => `\`${text}\``;

/** `a, b or c` */
function oneOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** What to add so a refresh takes the repository for a plugin. */
function evidenceToAdd(rules: ListingRules): string {
  const ways: string[] = [];
  if (rules.files.length) ways.push(`add ${oneOf(rules.files.map((f) => code(f.path)))} at the repository's root`);
  if (rules.folders.length) ways.push(`keep your skills or commands in ${oneOf(rules.folders.map(code))}`);
  const sdks = rules.dependencies.map((d) => d.slice(d.indexOf(": ") + 2));
  if (sdks.length) ways.push(`depend on an MCP SDK (${oneOf([...new Set(sdks)].slice(0, 3).map(code))}, …)`);
  if (rules.topics.length) ways.push(`give it the topic ${oneOf(rules.topics.slice(0, 4).map(code))}`);
  if (rules.listings.length) ways.push("get it into one of the curated lists or marketplaces the catalog reads");
  return ways.length ? oneOf(ways) : "ask the editors to add it";
}

/** What gets a repository found at any star count, or null when no search finds evidence alone. */
function findableBy(rules: ListingRules): string | null {
  const ways: string[] = [];
  const { files, topics } = rules.findable;
  if (files.length) ways.push(`add ${oneOf(files.map(code))} (full runs search code for it)`);
  if (topics.length) ways.push(`give it the topic ${oneOf(topics.map(code))}`);
  return ways.length ? oneOf(ways) : null;
}

/** The lowest star floor of the keyword searches, or null when none has one. */
function lowestFloor(rules: ListingRules): number | null {
  return rules.floors.length ? Math.min(...rules.floors.map((f) => f.stars)) : null;
}

function when(next: string | null): string {
  return next === null ? "at the next refresh" : `at the next refresh (${next})`;
}

type Say = (decision: CandidateDecision, rules: ListingRules, next: string | null) => string;

const REJECTED: Record<Rejection, Say> = {
  no_evidence: (d, rules, next) => {
    const unchecked = d.evidence?.files_checked === false ? " (its files were not looked at in that run)" : "";
    return `Found, but nothing showed it is a plugin${unchecked}: ${evidenceToAdd(rules)}; it is checked again ${when(next)}.`;
  },
  star_floor: (d, rules, next) =>
    `It has ${d.stars ?? 0} stars and the keyword searches start at ${lowestFloor(rules) ?? 0}: ${findableBy(rules) ?? evidenceToAdd(rules)}; it is checked again ${when(next)}.`,
  excluded: () =>
    "The catalog's editors excluded it (an override in their data); only they can take it back, so ask them.",
  excluded_by_owner: (_d, _rules, next) =>
    `Excluded by its owner: the repository's owner file says \`exclude: true\`; remove that line to be listed again ${when(next)}.`,
  invalid_name: (_d, _rules, next) =>
    `The platform answered with a name its own rules do not allow; it is checked again ${when(next)}.`,
  invalid_facts: (_d, _rules, next) =>
    `The platform's record lacked a fact every plugin needs (stars, forks, dates or the archived flag); it is checked again ${when(next)}.`,
  over_source_cap: (_d, rules, next) =>
    `The source that found it had already brought as many new candidates as it may in one run; ${evidenceToAdd(rules)} so another search finds it, or wait: it is checked again ${when(next)}.`,
  over_vouch_cap: (_d, rules, next) =>
    `Only a listing vouched for it, and that listing had vouched for as many repositories without evidence as it may in one run: ${evidenceToAdd(rules)} so it stands on its own; it is checked again ${when(next)}.`,
  held_for_review: (_d, _rules, next) =>
    `It has evidence, but the run found so many newcomers at once that the editors review them before they are listed; nothing to change, it is checked again ${when(next)}.`,
  archived: (_d, _rules, next) =>
    `It is archived, and archived repositories are not added: unarchive it to be considered ${when(next)}.`,
  not_found: (_d, _rules, next) =>
    `The platform does not show it (deleted, private, or a misspelt link named it): make it public; it is checked again ${when(next)}.`,
  replaced: () =>
    "Its name now belongs to a different repository than the one the catalog knew, so the listing does not carry over to it.",
  policy: (d) =>
    `This catalog's policy keeps it out (${d.detail ?? "a rule of the policy"}); only the catalog's operator can change that.`,
};

/** The sentence for a rejected repository. */
export function rejectedAdvice(d: CandidateDecision, reason: Rejection, rules: ListingRules, next: string | null) {
  return REJECTED[reason](d, rules, next);
}

/** `at least 10 stars (some of them 20, 50 or 100)`: the searches' floors, lowest first. */
function floorsText(rules: ListingRules): string {
  const [lowest, ...higher] = [...new Set(rules.floors.map((f) => f.stars))].sort((a, b) => a - b);
  const some = higher.length ? ` (some of them ${oneOf(higher.map(String))})` : "";
  return `at least ${lowest} stars${some}`;
}

/** The sentence for a repository no refresh has met. */
export function unseenAdvice(rules: ListingRules, next: string | null): string {
  const floors = rules.floors.length
    ? `; the keyword searches look only at repositories with ${floorsText(rules)}`
    : "";
  const again = next === null ? "" : ` at ${next}`;
  const findable = findableBy(rules);
  const find = findable === null ? "" : ` To be found at any star count, ${findable}.`;
  const list = ` Once found, it is listed with evidence: ${evidenceToAdd(rules)}.`;
  return `No refresh has met this repository${floors}.${find}${list} The next refresh looks again${again}.`;
}

/** The sentence for a listed plugin, with the badge's Markdown. */
export function listedAdvice(id: string, current: string | null, baseUrl: string): string {
  const [owner, repo] = id.split("/") as [string, string];
  const badge = `[![Plugin Catalog](${baseUrl}/badge/${owner}/${repo}.svg)](${baseUrl}/plugin/${owner}/${repo})`;
  const renamed = current === null ? "" : ` under its new name ${id}`;
  return `Listed${renamed}. Show it in a README with ${badge}`;
}
