/** The raw query string of a request URL ("" when there is none). */
export function rawQuery(url: string): string {
  const at = url.indexOf("?");
  return at === -1 ? "" : url.slice(at + 1);
}
