/**
 * The editors' data follows the repository, not the name. Each curated entry and override names a
 * repository by `owner/repo`; the first refresh that sees it notes the platform's numeric id behind
 * that name (kept in the snapshot), or the editors pin one (`repo_id`). From then on the entry
 * applies to the repository with that id, under whatever name it has, and never to another
 * repository that takes the name. A pinned id that the name no longer answers with is reported.
 */

import type { Editorial, RepoFacts } from "../../catalog/model/types";
import type { PreviousCatalog } from "../../catalog/snapshot/previous";

/** An editors' entry whose pinned repository id is not the one its name answers with now. */
export interface PinMismatch {
  entry: string;
  pinned: number;
  found: number;
}

export interface EditorialIdentity {
  /** The editors' data keyed by the current name of the repository each entry is about. */
  editorial: Editorial;
  /** The repository id of each entry (by lowercased name as written), for the next run. */
  ids: Record<string, number>;
  mismatches: PinMismatch[];
}

/**
 * Re-keys the editors' entries to the repositories they are about among `facts`; `repoIdOf` gives
 * a fact's repository id (null when unknown, then the name decides).
 */
export function editorialByIdentity(
  editorial: Editorial,
  facts: readonly RepoFacts[],
  repoIdOf: (fact: RepoFacts) => number | null,
  previous: Pick<PreviousCatalog, "plugins" | "editorialIds">,
): EditorialIdentity {
  const byName = new Map(facts.map((f) => [f.full_name.toLowerCase(), f]));
  const byId = new Map<number, RepoFacts>();
  for (const f of facts) {
    const id = repoIdOf(f);
    if (id !== null) byId.set(id, f);
  }
  const ids: Record<string, number> = {};
  const mismatches: PinMismatch[] = [];
  const pins = new Map<string, number>();
  for (const c of editorial.curated) if (c.repo_id !== undefined) pins.set(c.id.toLowerCase(), c.repo_id);
  for (const [id, o] of Object.entries(editorial.overrides))
    if (o.repo_id !== undefined) pins.set(id.toLowerCase(), o.repo_id);

  /** The current name of the repository the entry `name` is about, or null when it is not among the facts. */
  const resolve = (name: string): string | null => {
    const key = name.toLowerCase();
    const pinned = pins.get(key);
    const known = pinned ?? previous.editorialIds[key] ?? previous.plugins.get(key)?.repoId ?? null;
    const atName = byName.get(key);
    const atNameId = atName ? repoIdOf(atName) : null;
    if (pinned !== undefined && atNameId !== null && atNameId !== pinned) {
      mismatches.push({ entry: name, pinned, found: atNameId });
    }
    const target = known === null ? atName : (byId.get(known) ?? (atNameId === null ? atName : undefined));
    const id = (target ? repoIdOf(target) : null) ?? known;
    if (id !== null) ids[key] = id;
    return target?.full_name ?? null;
  };

  const curated = editorial.curated.flatMap((c) => {
    const current = resolve(c.id);
    return current === null ? [] : [{ ...c, id: current }];
  });
  const overrides: Editorial["overrides"] = {};
  for (const [name, o] of Object.entries(editorial.overrides)) {
    const current = resolve(name);
    if (current !== null && !(current in overrides)) overrides[current] = o;
  }
  return { editorial: { ...editorial, curated, overrides }, ids, mismatches };
}
