/** The repository id of a path's `owner` and `repo`, checked before any lookup. */
import { isPlatformName } from "../catalog/model/names";
import { HttpError } from "./errors";

/** 400 unless `id` is a name the platform allows: such a repository cannot exist. */
export function checkedId(owner: string, repo: string): string {
  const id = `${owner}/${repo}`;
  if (!isPlatformName(id)) {
    throw new HttpError(
      400,
      `Invalid repository "${id.slice(0, 200)}": owner is letters, digits and hyphens (at most 39), repository letters, digits, ".", "_" and "-" (at most 100).`,
    );
  }
  return id;
}
