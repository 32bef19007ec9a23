/** Repository names as the hosting platform allows them: the one pattern the refresher's gate and the routes apply. */

/** Owner: letters, digits, hyphens, at most 39; name: letters, digits, `.`, `_`, `-`, at most 100, never `.`/`..`. */
export const REPO_ID_PATTERN = "^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\\.\\.?$)[A-Za-z0-9._-]{1,100}$";
const REPO_ID = new RegExp(REPO_ID_PATTERN);

/** Whether `id` is an `owner/repo` the platform could have. */
export function isPlatformName(id: string): boolean {
  return REPO_ID.test(id);
}
