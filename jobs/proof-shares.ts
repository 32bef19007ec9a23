/**
 * For the embedded default's MCP servers (`db/depth.json`), offline and without a request: the
 * share whose package lines could be proven by what the repository itself shows, by kind, and the
 * share that needs a registry's answer (docs/clients.md, *Packages that belong to the repository*).
 *
 * Usage: `bun run jobs/proof-shares.ts [path-to-depth.json]`, or `bun run jobs/proof-shares.ts --copies
 * <folder>` for local copies of repositories (`<folder>/<owner>/<repo>/`, the files at their paths, as
 * `npm run default:depth` takes them), each read by the refresh's own reader first.
 *
 * Kinds, each MCP server counted under the first that fits:
 * - `ghcr`: a server.json image under the repository owner's ghcr.io namespace: proven offline.
 * - `server-json`: a server.json npm or PyPI package: proven once its registry names the repository back.
 * - `other image`: an image elsewhere: its labels never prove it; provenance is not read for images.
 * - `remote only`: an https remote and no package: nothing to prove.
 * - `no line`: provable only by signed provenance of the package its package file names, or the MCP
 *   registry's record in the owner's namespace listing it (a registry's answer either way).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { detailsProblem, type PluginDetails } from "../src/catalog/model/details";
import { ociVerdict } from "../src/refresh/checks/packages/package-verdict";
import { imageOf } from "../src/refresh/checks/packages/packages-check";
import { loadDiscoveryRules } from "../src/refresh/discover/discovery-rules";
import { workTreeFiles } from "../src/refresh/fetch/clone-files";
import { cloneReader } from "../src/refresh/fetch/clones";
import { GateCounts } from "../src/refresh/upstream/gate";

export const KINDS = ["ghcr", "server-json", "other image", "remote only", "no line"] as const;
export type Kind = (typeof KINDS)[number];

/** Which kind of proof an MCP server's lines could have (see the module comment). */
export function kindOf(id: string, details: PluginDetails): Kind {
  const own = details.install.filter((i) => i.from === "server.json");
  const images = own.filter((i) => i.kind === "oci").map(imageOf);
  if (images.some((image) => image !== null && ociVerdict(image, id).verified === true)) return "ghcr";
  if (own.some((i) => i.kind === "npm" || i.kind === "pypi")) return "server-json";
  if (images.length > 0) return "other image";
  if (own.some((i) => i.kind === "remote")) return "remote only";
  return "no line";
}

/** The count of each kind among the file's MCP servers whose details pass the stored schema. */
export function proofShares(depth: { plugins: Record<string, { details?: unknown }> }): {
  servers: number;
  counts: Record<Kind, number>;
} {
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  let servers = 0;
  for (const [id, entry] of Object.entries(depth.plugins)) {
    if (detailsProblem(entry.details) !== null) continue;
    const details = entry.details as PluginDetails;
    if (!details.works_with.includes("mcp")) continue;
    servers++;
    counts[kindOf(id, details)]++;
  }
  return { servers, counts };
}

/** The details the refresh's reader gives each copy in `folder` (`<owner>/<repo>/`), as a depth file's entries. */
export function readCopies(folder: string): { plugins: Record<string, { details: PluginDetails | null }> } {
  const read = cloneReader(new GateCounts(), loadDiscoveryRules(resolve(import.meta.dir, "..", "db")).evidence);
  const plugins: Record<string, { details: PluginDetails | null }> = {};
  for (const owner of readdirSync(folder))
    for (const repo of readdirSync(join(folder, owner))) {
      const id = `${owner}/${repo}`;
      plugins[id] = { details: read(workTreeFiles(join(folder, owner, repo)), id) };
    }
  return { plugins };
}

if (import.meta.main) {
  const copies = process.argv[2] === "--copies" ? process.argv[3] : undefined;
  if (process.argv[2] === "--copies" && !copies)
    throw new Error("usage: bun run jobs/proof-shares.ts --copies <folder>");
  const path = resolve(copies ?? process.argv[2] ?? "db/depth.json");
  const { servers, counts } = proofShares(copies ? readCopies(path) : JSON.parse(readFileSync(path, "utf8")));
  const pct = (n: number) => (servers === 0 ? "0.0" : ((n / servers) * 100).toFixed(1));
  console.log(`MCP servers in ${path}: ${servers}`);
  for (const kind of KINDS)
    console.log(`  ${kind.padEnd(12)} ${String(counts[kind]).padStart(5)}  ${pct(counts[kind])}%`);
  const offline = counts.ghcr;
  const registry = counts["server-json"] + counts["no line"];
  console.log(
    `  proven offline (ghcr): ${pct(offline)}%; needing a registry's answer (server.json package, package file): ${pct(registry)}%`,
  );
}
