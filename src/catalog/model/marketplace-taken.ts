/**
 * Marketplaces that take another repository's marketplace name. Claude Code knows a marketplace by
 * its name alone: `/plugin install x@name` is the same line under both, and whichever one a user
 * added first answers it, so the copy can stand in for the genuine one. Per name (case aside), the
 * marketplace with the most stars keeps it (ties: the earlier created, then the id); each other
 * owner's is flagged `lookalike_of` the keeper, like a name imitation. Computed once per snapshot.
 */
import type { PluginDetails } from "./details";

interface Candidate {
  id: string;
  stars: number;
  created_at: string;
  details?: PluginDetails | null;
}

/** The marketplace name a record's install lines answer to: one Claude Code adds, nothing refused. */
function nameOf(record: Candidate): string | null {
  const market = record.details?.contents?.marketplace;
  return market && market.refused === null ? market.name.toLowerCase() : null;
}

const ownerOf = (id: string) => id.slice(0, id.indexOf("/")).toLowerCase();

/** Lowercased id of each marketplace taking another owner's name → the id of the one that keeps it. */
export function takenMarketplaces(records: readonly Candidate[]): Map<string, string> {
  const byName = new Map<string, Candidate[]>();
  for (const record of records) {
    const name = nameOf(record);
    if (name !== null) byName.set(name, [...(byName.get(name) ?? []), record]);
  }
  const taken = new Map<string, string>();
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    const [keeper, ...others] = [...group].sort(
      (a, b) => b.stars - a.stars || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
    );
    for (const other of others)
      if (ownerOf(other.id) !== ownerOf(keeper!.id)) taken.set(other.id.toLowerCase(), keeper!.id);
  }
  return taken;
}
