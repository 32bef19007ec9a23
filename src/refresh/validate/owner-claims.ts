/**
 * The owner files' claims checked against the next catalog, once its records are known: an
 * excluded plugin leaves it, and a replacement or canonical repository must be another plugin of
 * the catalog that is neither a look-alike, a copy itself, nor a fork of the one naming it. A
 * refused claim is dropped (the rest of the file still holds) and counted with its reason.
 */
import type { PluginDetails } from "../../catalog/model/details";
import type { PluginRecord } from "../../catalog/model/types";
import type { Outcome } from "../fetch/outcome";
import type { GateCounts } from "../upstream/gate";

/** The lowercased ids whose owner file says `exclude: true`. */
export function excludedByOwner(outcomes: ReadonlyArray<readonly [string, Outcome]>): Set<string> {
  const out = new Set<string>();
  for (const [, outcome] of outcomes)
    if (outcome.kind === "fetched" && outcome.excludedByOwner) out.add(outcome.facts.full_name.toLowerCase());
  return out;
}

/** Why `record` may not point at `target`, or the target's id as the catalog spells it. */
function check(
  record: PluginRecord,
  target: string,
  byId: ReadonlyMap<string, PluginRecord>,
  copies: ReadonlySet<string>,
): { id: string } | { reason: string } {
  const key = target.toLowerCase();
  if (key === record.id.toLowerCase()) return { reason: "names this repository itself" };
  const found = byId.get(key);
  if (!found) return { reason: "not in the catalog" };
  if (found.lookalike_of) return { reason: "names a look-alike" };
  if (found.details?.fork_of?.toLowerCase() === record.id.toLowerCase()) return { reason: "names a fork of this one" };
  if (copies.has(key)) return { reason: "names a copy of another repository" };
  return { id: found.id };
}

/** Checks every record's replacement and canonical in place; refusals are counted under `manifest <file>: …`. */
export function checkOwnerClaims(records: PluginRecord[], counts: GateCounts, file: string): void {
  const byId = new Map(records.map((r) => [r.id.toLowerCase(), r]));
  const copies = new Set(records.filter((r) => r.details?.canonical).map((r) => r.id.toLowerCase()));
  for (const record of records) {
    const d = record.details;
    if (!d || (!d.deprecation?.replacement && !d.canonical)) continue;
    const details: PluginDetails = { ...d };
    const replacement = d.deprecation?.replacement;
    if (d.deprecation && replacement) {
      const found = check(record, replacement, byId, copies);
      if ("reason" in found) counts.leaveOut(`manifest ${file}: replacement refused: ${found.reason}`, record.id);
      details.deprecation = { ...d.deprecation, replacement: "id" in found ? found.id : null };
    }
    if (d.canonical) {
      const found = check(record, d.canonical, byId, copies);
      if ("reason" in found) {
        counts.leaveOut(`manifest ${file}: canonical refused: ${found.reason}`, record.id);
        delete details.canonical;
      } else details.canonical = found.id;
    }
    record.details = details;
  }
}
