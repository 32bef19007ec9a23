/**
 * The bodies of bench:lookup's swarm: clients syncing the plugins they have installed, each
 * POSTing `/api/v1/lookup` with its own list again and again (the same body, spelled one way or
 * another), now and then after installing or removing one (a new body), a few teams sharing one
 * list. The ids come from the catalog the service serves: listed ones, popular ones most often,
 * former ids of renamed plugins, removed ones, and local plugins the catalog never saw.
 */
import { Database } from "bun:sqlite";
import { GZIP } from "./cost-requests";
import type { SwarmRequest } from "./cost-swarm";
import { random } from "./synthetic";

/** What a client may hold, read from the snapshot file the service serves. */
export interface HeldIds {
  /** Listed ids, most stars first. */
  listed: string[];
  /** Former ids of renamed plugins. */
  former: string[];
  /** Ids the history says were removed. */
  removed: string[];
}

export function heldIds(path: string): HeldIds {
  const db = new Database(path, { readonly: true });
  try {
    const ids = (sql: string) =>
      db
        .query<{ id: string }, []>(sql)
        .all()
        .map((row) => row.id);
    return {
      listed: ids(`SELECT id FROM plugins ORDER BY rowid`),
      former: ids(`SELECT old_id AS id FROM aliases`),
      removed: ids(`SELECT id FROM history_events WHERE kind = 'removed'`),
    };
  } finally {
    db.close();
  }
}

/** Per request: the share that installs or removes one plugin first; the share spelled otherwise (same ids). */
const CHANGES = 0.08;
const RESPELLED = 0.2;
/** Clients in each team that shares one list of plugins (managed settings). */
const TEAMS = [5, 3];

interface Client {
  ids: string[];
  since: string | null;
}

/**
 * A body per request of client `i` (0 to `clients` - 1): its current list and the snapshotAt it
 * read, as JSON; `times` are the catalog's snapshot times, oldest first.
 */
export function lookupBodies(held: HeldIds, times: string[], clients: number): (i: number) => string {
  const next = random(48);
  const one = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  let local = 0;
  /** One installed plugin: a popular one most often, some renamed, removed or never listed. */
  const installed = (): string => {
    const u = next();
    if (u < 0.04) return one(held.former);
    if (u < 0.06) return held.removed.length > 0 ? one(held.removed) : one(held.listed);
    if (u < 0.1) return `someone${++local}/local-plugin`;
    return held.listed[Math.floor(held.listed.length * next() ** 3)]!;
  };
  const list = (): string[] => {
    const size = 3 + Math.floor(97 * next() ** 2);
    return [...new Set(Array.from({ length: size }, installed))];
  };
  const read = (): string | null => {
    const u = next();
    return u < 0.05 ? null : u < 0.65 ? times.at(-1)! : u < 0.9 ? times.at(-2)! : one(times);
  };
  const teams = TEAMS.map((): Client => ({ ids: list(), since: times.at(-1)! }));
  const team = (i: number) => (i < TEAMS[0]! ? 0 : i < TEAMS[0]! + TEAMS[1]! ? 1 : null);
  const all = Array.from({ length: clients }, (_, i): Client => {
    const t = team(i);
    return t === null ? { ids: list(), since: read() } : teams[t]!;
  });
  return (i) => {
    const client = all[i]!;
    if (team(i) === null && next() < CHANGES) {
      if (client.ids.length < 100 && next() < 0.7) client.ids = [...new Set([...client.ids, installed()])];
      else if (client.ids.length > 1) {
        // One uninstalled: its index drawn once, so a list never empties.
        const gone = Math.floor(next() * client.ids.length);
        client.ids = client.ids.filter((_, k) => k !== gone);
      }
      client.since = times.at(-1)!;
    }
    const { ids, since } = client;
    if (next() >= RESPELLED) return JSON.stringify({ ids, since });
    return since === null ? JSON.stringify({ ids }, null, 2) : JSON.stringify({ since, ids }, null, 1);
  };
}

/** bench:cost's lookup mix: each client POSTs `/api/v1/lookup` with its installed plugins. */
export function lookupMix(held: HeldIds, times: string[], clients: number): SwarmRequest[] {
  const body = lookupBodies(held, times, clients);
  const headers = { ...GZIP, "content-type": "application/json" };
  return [(_junk, client) => ["/api/v1/lookup", headers, "POST", body(client)]];
}
