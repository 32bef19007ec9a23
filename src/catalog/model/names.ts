/** Repository names as the hosting platform allows them: the one pattern the refresher's gate and the routes apply. */

/** Owner: letters, digits, hyphens, at most 39; name: letters, digits, `.`, `_`, `-`, at most 100, never `.`/`..`. */
const OWNER = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})";
const REPO = "(?!\\.\\.?$)[A-Za-z0-9._-]{1,100}";
export const REPO_ID_PATTERN = `^${OWNER}/${REPO}$`;
/** The owner and the repository name alone, as a path's segments document them. */
export const OWNER_PATTERN = `^${OWNER}$`;
export const REPO_PATTERN = `^${REPO}$`;
/** A comma list of 1 to `max` ids, as a query parameter documents it (a name is never `.`/`..`). */
export function repoIdListPattern(max: number): string {
  const id = `${OWNER}/(?!\\.\\.?(?:,|$))[A-Za-z0-9._-]{1,100}`;
  return `^${id}(?:,${id}){0,${max - 1}}$`;
}
/** A badge's file: a repository name, then `.svg` or `.json`. */
export const BADGE_FILE_PATTERN = "^(?!\\.\\.?\\.(?:svg|json)$)[A-Za-z0-9._-]{1,100}\\.(svg|json)$";
const REPO_ID = new RegExp(REPO_ID_PATTERN);

/** Whether `id` is an `owner/repo` the platform could have. */
export function isPlatformName(id: string): boolean {
  return REPO_ID.test(id);
}
