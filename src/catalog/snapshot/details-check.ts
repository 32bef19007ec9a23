/**
 * A snapshot row's stored details, checked before they are served (model/stored.ts): once per
 * row and snapshot, on first use. A file is anyone's who can write it (a disk, Redis, another
 * instance), so its details are never trusted: a row that fails is served as a plugin never read,
 * and logged once.
 */
import type { Log } from "../../base/log";
import type { DetailFragments } from "../model/fragments";
import { fragmentsProblem, NO_FRAGMENTS } from "../model/stored";

/** The detail columns of a row, with what names it. */
export interface DetailRow {
  rowid: number;
  id: string;
  x_contents: string;
  x_install: string;
  x_flags: string;
  x_works_with: string;
  x_risk: string;
  x_security: string;
  x_tools: string;
  x_context: string;
}

export function rowFragments(row: DetailRow): DetailFragments {
  return {
    contents: row.x_contents,
    install: row.x_install,
    flags: row.x_flags,
    works_with: row.x_works_with,
    risk: row.x_risk,
    security: row.x_security,
    tools: row.x_tools,
    context: row.x_context,
  };
}

const UNCHECKED = 0;
const SOUND = 1;
const DROPPED = 2;

export class DetailChecks {
  /** Per rowid: unchecked, sound, or dropped. */
  private readonly state: Uint8Array;

  constructor(
    total: number,
    private readonly log: Log | null,
  ) {
    this.state = new Uint8Array(Math.max(0, total) + 1);
  }

  /** The row's fragments if they pass the stored schema and its install rules; a never-read plugin's otherwise. */
  of(row: DetailRow): DetailFragments {
    const inRange = row.rowid >= 0 && row.rowid < this.state.length;
    const known = inRange ? this.state[row.rowid] : UNCHECKED;
    if (known === SOUND) return rowFragments(row);
    if (known === DROPPED) return NO_FRAGMENTS;
    const problem = fragmentsProblem(rowFragments(row));
    if (inRange) this.state[row.rowid] = problem === null ? SOUND : DROPPED;
    if (problem === null) return rowFragments(row);
    this.log?.("snapshot.details_dropped", { id: String(row.id).slice(0, 140), problem: problem.slice(0, 200) });
    return NO_FRAGMENTS;
  }
}
