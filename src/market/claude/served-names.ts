/**
 * The names the catalog's Claude Code marketplaces serve their entries under: unique in every
 * marketplace of a snapshot (they are all cut from one list), each one the client accepts, and
 * stable: a name depends on the entry alone and on which other entries share its name.
 */
import { idPartAccepted, reservedByClient } from "../../catalog/model/claude-names";

/** What names an entry: its own name, the repository holding it, its folder there (`""` at the root). */
export interface Nameable {
  name: string;
  id: string;
  path: string;
}

/** Whether the client takes `name` as a plugin's name in a third party's marketplace. */
export const clientTakes = (name: string) => idPartAccepted(name) && !reservedByClient(name);

const key = (name: string) => name.toLowerCase();

function counted(names: string[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const n of names) seen.set(key(n), (seen.get(key(n)) ?? 0) + 1);
  return seen;
}

const ownerOf = (e: Nameable) => e.id.slice(0, e.id.indexOf("/")).toLowerCase();
/** The second try: the owner appended. */
const withOwner = (e: Nameable) => `${e.name}-${ownerOf(e)}`;
/** The third: the repository and the folder too. */
const withRepo = (e: Nameable) => {
  const repo = e.id.slice(e.id.indexOf("/") + 1).toLowerCase();
  const folder = e.path === "" ? "" : `-${e.path.replace(/[^A-Za-z0-9._-]/g, "-")}`;
  return `${withOwner(e)}-${repo}${folder}`;
};

/**
 * Each entry's served name, index for index, or null for an entry left out. An entry keeps its own
 * name when no other entry has it (case aside). One whose own name the client refuses (one it
 * reserves for Anthropic, or its plugin ids cannot hold) is left out, never renamed: the client
 * holds a renamed entry's own manifest name to the same rule. One sharing its name with others
 * takes `<name>-<owner>`, else `<name>-<owner>-<repo>[-<folder>]`, each only when the client takes
 * it, no entry's own name is it and no other entry takes it at the same try; else it is left out.
 */
export function servedNames(entries: readonly Nameable[]): Array<string | null> {
  const out: Array<string | null> = entries.map(() => null);
  const own = counted(entries.map((e) => e.name));
  const taken = new Set<string>();
  let pending: number[] = [];
  entries.forEach((e, i) => {
    if (!clientTakes(e.name)) return;
    if (own.get(key(e.name)) === 1) {
      out[i] = e.name;
      taken.add(key(e.name));
    } else pending.push(i);
  });
  for (const rename of [withOwner, withRepo]) {
    const names = pending.map((i) => rename(entries[i]!));
    const tries = counted(names);
    const left: number[] = [];
    pending.forEach((i, k) => {
      const name = names[k]!;
      const free = tries.get(key(name)) === 1 && !own.has(key(name)) && !taken.has(key(name));
      if (free && clientTakes(name)) {
        out[i] = name;
        taken.add(key(name));
      } else left.push(i);
    });
    pending = left;
  }
  return out;
}
