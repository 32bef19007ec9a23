/** One spelling of a package across registries and records: `npm:<name>`, `pypi:<PEP 503 name>`. */

/** PyPI answers a name in its normalised form (PEP 503); npm names are lowercase already. */
export const pypiNormalised = (name: string) => name.toLowerCase().replace(/[-_.]+/g, "-");

export function packageKey(kind: "npm" | "pypi", name: string): string {
  return kind === "npm" ? `npm:${name.toLowerCase()}` : `pypi:${pypiNormalised(name)}`;
}
