/**
 * Whether a package line is the repository's own, by what proves it, in one short note. Proof is
 * what a stranger publishing a package cannot write: signed build provenance naming this
 * repository, the official MCP registry's record in its owner's verified namespace listing the
 * package, a ghcr.io image under its owner's namespace, or the repository's own server.json
 * naming a package whose metadata names the repository back. Metadata alone (a repository field,
 * project URLs, an MCP registry name, an image label) is written by whoever publishes the
 * package: a line it supports is `unproven`, never this repository's to copy.
 */
import type { Evidence } from "./package-evidence";

/** What proved a line (`package_proof`), or `unproven`: the metadata names this repository and nothing proves it. */
export type Proof = "provenance" | "mcp-registry" | "server-json" | "ghcr" | "unproven";

export interface Verdict {
  verified: boolean | null;
  note: string;
  proof?: Proof;
}

export type RegistryName = "npm" | "PyPI" | "OCI";

/** Where a line comes from, for the proof server.json gives: the name it states, when the line is its own. */
export interface LineSource {
  serverJson: boolean;
  /** server.json's `name` (`io.github.<owner>/<name>` or a domain's), when stated. */
  name: string | null;
  /** The official MCP registry's record in this owner's `io.github.` namespace lists the package. */
  registry?: boolean;
}

const NO_SOURCE: LineSource = { serverJson: false, name: null };

/**
 * Signed provenance decides first: built from this repository is proven, from another is not.
 * Then the official MCP registry's record in this owner's namespace listing the package proves it.
 * Otherwise the metadata must name this repository (this id or a former one) or carry this
 * owner's MCP registry name; that proves the line only when the repository's server.json names
 * the package (both sides agree), else the line is unproven.
 */
export function verdict(
  registry: RegistryName,
  e: Evidence,
  repo: string,
  formerIds: readonly string[] = [],
  source: LineSource = NO_SOURCE,
): Verdict {
  // A package published before a rename names the repository by its former id.
  const ids = new Set([repo, ...formerIds].map((id) => id.toLowerCase()));
  const same = (other: string) => ids.has(other.toLowerCase());
  const owner = repo.slice(0, repo.indexOf("/")).toLowerCase();
  if (e.provenance !== null) {
    return same(e.provenance)
      ? { verified: true, note: `${registry} provenance: built from this repository`, proof: "provenance" }
      : { verified: false, note: `${registry} provenance: built from ${e.provenance}, not this repository` };
  }
  if (source.registry === true && registry !== "OCI")
    return {
      verified: true,
      note: "the MCP registry lists it under this owner's namespace, which it verified",
      proof: "mcp-registry",
    };
  // An image's labels are not read as a server.json agreement: only its ghcr.io namespace proves it.
  const agreed = source.serverJson && registry !== "OCI";
  if (e.repositories.some(same))
    return agreed
      ? {
          verified: true,
          note: `server.json names it and ${registry} names this repository back`,
          proof: "server-json",
        }
      : unproven(`${registry} names this repository`);
  const named = source.name !== null && e.mcpName?.toLowerCase() === source.name.toLowerCase();
  if (agreed && named)
    return {
      verified: true,
      note: `server.json names it and ${registry} carries its MCP registry name`,
      proof: "server-json",
    };
  if (e.mcpOwner !== null && e.mcpOwner.toLowerCase() === owner)
    return unproven(`${registry} carries this owner's MCP registry name`);
  if (e.repositories.length > 0)
    return { verified: false, note: `${registry} names another repository: ${e.repositories[0]}` };
  if (e.mcpOwner !== null)
    return { verified: false, note: `${registry} carries another owner's MCP registry name: ${e.mcpOwner}` };
  return { verified: false, note: `${registry} names no repository for this package` };
}

/** A self-declared link: what the package's publisher wrote, which anyone publishing that name could write. */
function unproven(claim: string): Verdict {
  return {
    verified: false,
    note: `Unproven: ${claim}, but whoever publishes a package writes that; no signed provenance or server.json agrees`,
    proof: "unproven",
  };
}

export function unknownVerdict(registry: RegistryName, reason: string): Verdict {
  return { verified: null, note: `${registry} not checked: ${reason}` };
}

/**
 * An OCI image on ghcr.io lives under a GitHub account's namespace, so its owner is read from the
 * reference itself, without a request; other registries' namespaces are not GitHub's: their
 * images are judged by their labels (registries/oci.ts), which prove nothing alone, or unknown when those are not read.
 */
export function ociVerdict(image: string, repo: string, formerIds: readonly string[] = []): Verdict {
  const ghcr = /^ghcr\.io\/([a-z0-9][a-z0-9-]{0,38})\//i.exec(image);
  if (!ghcr) return { verified: null, note: "OCI image ownership not checked outside ghcr.io" };
  const owners = new Set([repo, ...formerIds].map((id) => id.slice(0, id.indexOf("/")).toLowerCase()));
  const namespace = ghcr[1]!.toLowerCase();
  return owners.has(namespace)
    ? { verified: true, note: "ghcr.io image under this repository's owner", proof: "ghcr" }
    : { verified: false, note: `ghcr.io image under another owner: ${namespace}` };
}
