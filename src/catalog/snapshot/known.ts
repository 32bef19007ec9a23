/**
 * What the snapshot knows of one repository: listed (under its id or a former one), rejected by
 * the last refresh that met it, or unseen; what a listing answer and a badge are made from.
 */
import { type CandidateDecision, REJECTIONS, type Rejection } from "../model/candidates";
import type { Snapshot } from "./snapshot";

export type ListingStatus = "listed" | "rejected" | "unseen";

/** What the snapshot knows of one repository: the facts a listing answer and a badge are made from. */
export interface Known {
  status: ListingStatus;
  /** The id it is listed under (current casing), or the id as asked. */
  id: string;
  /** Its current id, when asked under a former one. */
  current: string | null;
  decision: CandidateDecision | null;
  reason: Rejection | null;
  /** The listed plugin's category id and stars. */
  plugin: { category: string; stars: number } | null;
}

const isRejection = (decision: string): decision is Rejection => (REJECTIONS as readonly string[]).includes(decision);

/** The listing of `id` in `snapshot`. */
export function known(snapshot: Snapshot, id: string): Known {
  const listed = (json: string, current: string | null): Known => {
    const p = JSON.parse(json) as { id: string; category: string; stars: number };
    const decision = snapshot.candidate(p.id);
    return { status: "listed", id: p.id, current, decision, reason: null, plugin: p };
  };
  const plugin = snapshot.plugin(id);
  if (plugin !== null) return listed(plugin, null);
  const alias = snapshot.currentId(id);
  const aliased = alias === null ? null : snapshot.plugin(alias);
  if (alias !== null && aliased !== null) return listed(aliased, alias);
  const decision = snapshot.candidate(id);
  const moved = decision?.current_id ? snapshot.plugin(decision.current_id) : null;
  if (decision?.current_id && moved !== null) return listed(moved, decision.current_id);
  if (decision !== null && isRejection(decision.decision)) {
    const { id: decided, current_id: current } = decision;
    return { status: "rejected", id: decided, current, decision, reason: decision.decision, plugin: null };
  }
  return { status: "unseen", id, current: null, decision: null, reason: null, plugin: null };
}
