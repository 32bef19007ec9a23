/** Whether a registry's evidence ties a package to the repository it is listed under, and why, in one short note. */
import type { Evidence } from "./package-evidence";

export interface Verdict {
  verified: boolean | null;
  note: string;
}

export type RegistryName = "npm" | "PyPI" | "OCI";

/**
 * Signed provenance decides first: built from this repository is verified, from another is not.
 * Otherwise the repository the metadata names (this id or a former one), or the MCP registry name's owner, must be this one's.
 */
export function verdict(registry: RegistryName, e: Evidence, repo: string, formerIds: readonly string[] = []): Verdict {
  // A package published before a rename names the repository by its former id.
  const ids = new Set([repo, ...formerIds].map((id) => id.toLowerCase()));
  const same = (other: string) => ids.has(other.toLowerCase());
  const owner = repo.slice(0, repo.indexOf("/")).toLowerCase();
  if (e.provenance !== null) {
    return same(e.provenance)
      ? { verified: true, note: `${registry} provenance: built from this repository` }
      : { verified: false, note: `${registry} provenance: built from ${e.provenance}, not this repository` };
  }
  if (e.repositories.some(same)) return { verified: true, note: `${registry} names this repository` };
  if (e.mcpOwner !== null && e.mcpOwner.toLowerCase() === owner)
    return { verified: true, note: `${registry} carries this owner's MCP registry name` };
  if (e.repositories.length > 0)
    return { verified: false, note: `${registry} names another repository: ${e.repositories[0]}` };
  if (e.mcpOwner !== null)
    return { verified: false, note: `${registry} carries another owner's MCP registry name: ${e.mcpOwner}` };
  return { verified: false, note: `${registry} names no repository for this package` };
}

export function unknownVerdict(registry: RegistryName, reason: string): Verdict {
  return { verified: null, note: `${registry} not checked: ${reason}` };
}

/**
 * An OCI image on ghcr.io lives under a GitHub account's namespace, so its owner is read from the
 * reference itself, without a request; other registries' namespaces are not GitHub's: their
 * images are judged by their labels (registries/oci.ts), or unknown when those are not read.
 */
export function ociVerdict(image: string, repo: string, formerIds: readonly string[] = []): Verdict {
  const ghcr = /^ghcr\.io\/([a-z0-9][a-z0-9-]{0,38})\//i.exec(image);
  if (!ghcr) return { verified: null, note: "OCI image ownership not checked outside ghcr.io" };
  const owners = new Set([repo, ...formerIds].map((id) => id.slice(0, id.indexOf("/")).toLowerCase()));
  const namespace = ghcr[1]!.toLowerCase();
  return owners.has(namespace)
    ? { verified: true, note: "ghcr.io image under this repository's owner" }
    : { verified: false, note: `ghcr.io image under another owner: ${namespace}` };
}
