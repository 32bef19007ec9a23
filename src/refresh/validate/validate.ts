/**
 * The checks a new catalog passes before it may replace the published one: facts a record cannot
 * do without, fields that vanished everywhere (a broken query, not a platform change), and a
 * plugin count that fell too far.
 */
import type { RepoFacts } from "../../catalog/model/types";

/** A record without these would invent numbers or times; such a record is left out. */
const REQUIRED: Record<string, (f: RepoFacts) => boolean> = {
  full_name: (f) => typeof f.full_name === "string" && /^[^/\s]+\/[^/\s]+$/.test(f.full_name),
  stars: (f) => Number.isInteger(f.stars) && f.stars >= 0,
  forks: (f) => Number.isInteger(f.forks) && f.forks >= 0,
  created_at: (f) => typeof f.created_at === "string" && !Number.isNaN(Date.parse(f.created_at)),
  pushed_at: (f) => typeof f.pushed_at === "string" && !Number.isNaN(Date.parse(f.pushed_at)),
  archived: (f) => typeof f.archived === "boolean",
};

/** Often empty for one repository, never for all of them: gone everywhere means the fetch broke. */
const EXPECTED: Record<string, (f: RepoFacts) => boolean> = {
  description: (f) => typeof f.description === "string" && f.description !== "",
  language: (f) => typeof f.language === "string" && f.language !== "",
  stars: (f) => typeof f.stars === "number" && f.stars > 0,
};
/** Below this many plugins an expected field may be empty everywhere by chance. */
const EXPECTED_MIN_PLUGINS = 20;

export class Refused extends Error {
  override name = "Refused";
}

export interface FactCheck {
  valid: RepoFacts[];
  invalid: Array<{ id: string; fields: string[] }>;
}

/** Splits facts into usable and invalid ones; throws Refused when a field is missing from every one. */
export function checkFacts(facts: RepoFacts[]): FactCheck {
  const result: FactCheck = { valid: [], invalid: [] };
  for (const f of facts) {
    const fields = Object.entries(REQUIRED)
      .filter(([, ok]) => !ok(f))
      .map(([name]) => name);
    if (fields.length) result.invalid.push({ id: String(f.full_name), fields });
    else result.valid.push(f);
  }
  if (facts.length === 0) return result;
  const everywhere = Object.entries(REQUIRED);
  if (facts.length >= EXPECTED_MIN_PLUGINS) everywhere.push(...Object.entries(EXPECTED));
  for (const [field, ok] of everywhere) {
    if (!facts.some(ok)) throw new Refused(`${field} is missing from every one of ${facts.length} repositories`);
  }
  return result;
}

/** Throws Refused when `next` plugins would replace `previous` after falling by more than `maxDrop` (a share). */
export function checkCount(previous: number, next: number, maxDrop: number): void {
  if (previous > 0 && next < previous * (1 - maxDrop)) {
    const share = (((previous - next) / previous) * 100).toFixed(1);
    throw new Refused(
      `plugin count would fall from ${previous} to ${next} (${share}%, more than the allowed ${(maxDrop * 100).toFixed(1)}%)`,
    );
  }
}
