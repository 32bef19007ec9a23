/**
 * The checks after the fetch, each within its own budget and each a phase of the run: the package
 * registries (checks/packages), deps.dev's security signals (checks/security) and the remote MCP
 * servers (checks/remotes). Each folder takes plain arguments; only these phases read the run.
 */

import { validDetails } from "../catalog/model/details";
import { packageKey } from "./checks/packages/package-keys";
import { PackageVerifier } from "./checks/packages/package-verifier";
import { checkPackages, type PackageCounts, packageOf } from "./checks/packages/packages-check";
import { checkRemotes, type Earlier, type RemoteCounts } from "./checks/remotes/remotes-check";
import { checkSecurity, type SecurityCounts } from "./checks/security/security-check";
import { SecurityChecker } from "./checks/security/security-checker";
import type { Discovery } from "./discover/discover";
import { ManifestReader } from "./manifests/reader";
import type { Run } from "./run-state";

/** The ids a published plugin had before its renames, by the id it is fetched under. */
const formerIdsOf = (run: Run) => (id: string) => run.previous.plugins.get(id.toLowerCase())?.previousIds ?? [];

/**
 * The packages the official MCP registry's records in a repository owner's namespace list: seen by
 * this run's read of the registry, or proven so on the previous snapshot's lines (a run reads only
 * the registry's entries changed since the last).
 */
const registeredOf = (run: Run, discovery: Discovery) => (ids: string[]) => {
  const keys = new Set<string>();
  for (const id of ids.map((i) => i.toLowerCase())) {
    for (const key of discovery.found.get(id)?.registryPackages ?? []) keys.add(key);
    for (const line of run.previous.plugins.get(id)?.details?.install ?? []) {
      const pkg = line.package_proof === "mcp-registry" ? packageOf(line) : null;
      if (pkg && (line.kind === "npm" || line.kind === "pypi")) keys.add(packageKey(line.kind, pkg.name));
    }
  }
  return keys;
};

/**
 * Runs a check whose answers are cached beside the snapshot, and saves the cache whatever happens:
 * the cache only saves requests, so a run that cannot write it still publishes (logged as `event`).
 */
async function savingCache<T>(run: Run, event: string, cache: { save(): void }, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } finally {
    try {
      cache.save();
    } catch (error) {
      run.log(event, { error: String(error) });
    }
  }
}

/**
 * Asks the package registries whether each npm, PyPI and OCI line's package belongs to its repository,
 * and derives lines from the packages MCP servers' package files name; within the registries' own budget.
 */
export async function packagesPhase(run: Run, discovery: Discovery): Promise<PackageCounts | undefined> {
  const options = run.registries;
  if (options === null || (options.npm === null && options.pypi === null && !options.oci)) return undefined;
  run.progress.phase("packages", "repositories");
  const verifier = new PackageVerifier(options, run.databasePath);
  const reader = new ManifestReader(run.gate.counts, run.rules.evidence, run.ownerFile);
  return savingCache(run, "refresh.packages_cache_unsaved", verifier, async () => {
    const outcomes = run.checkpoint.outcomes.entries();
    const counts = await checkPackages(outcomes, formerIdsOf(run), verifier, reader, registeredOf(run, discovery));
    run.log("refresh.packages", { ...counts, requests: verifier.budget.requests });
    return counts;
  });
}

/**
 * Sets each fetched plugin's `security` (Scorecard, advisories, provenance); skipped when deps.dev
 * is off (DEPSDEV_URL=off). Its cache is saved whatever happens; it only saves requests.
 */
export async function securityPhase(run: Run): Promise<SecurityCounts | undefined> {
  const options = run.security;
  if (options === null) return undefined;
  run.progress.phase("security", "plugins");
  const checker = new SecurityChecker(options, run.databasePath, () => run.now().getTime());
  return savingCache(run, "refresh.security_cache_unsaved", checker, async () => {
    const counts = await checkSecurity(run.checkpoint.outcomes.entries(), formerIdsOf(run), checker);
    run.log("refresh.security", { ...counts, ...checker.counts, requests: checker.budget.requests });
    return counts;
  });
}

/** The run's remote check, when configured: after the packages, before validation; logged with its counts. */
export async function remotesPhase(run: Run): Promise<RemoteCounts | undefined> {
  const options = run.remotes;
  if (options === null || options.limits.budgetMs <= 0) return undefined;
  run.progress.phase("remotes", "servers");
  const earlier: Earlier = (id) => {
    const details = run.previous.plugins.get(id.toLowerCase())?.details;
    return details ? { remote: details.remote, tools: details.tools } : undefined;
  };
  const counts = await checkRemotes(run.checkpoint.outcomes.entries(), earlier, options, run.now);
  run.log("refresh.remotes", { ...counts });
  return counts;
}

/**
 * Marks each fetched plugin whose server.json name the official MCP registry lists with this
 * repository's URL (`mcp_registry.registry_listed`, which keeps the name in /v0.1/servers): seen
 * so by this run's read of the registry, or by an earlier run's (the previous snapshot's mark of
 * the same name, since a run reads only the entries changed since the last). Returns how many.
 */
export function registryListedPhase(run: Run, discovery: Discovery): number {
  let marked = 0;
  for (const [asked, outcome] of run.checkpoint.outcomes.entries()) {
    if (outcome.kind !== "fetched" || !outcome.details?.mcp_registry) continue;
    const identity = outcome.details.mcp_registry;
    const name = identity.name.toLowerCase();
    const ids = [asked, outcome.facts.full_name].map((id) => id.toLowerCase());
    const seen = ids.some((id) => discovery.found.get(id)?.registryNames?.some((n) => n.toLowerCase() === name));
    const earlier = ids.some((id) => {
      const before = run.previous.plugins.get(id)?.details?.mcp_registry;
      return before?.registry_listed === true && before.name.toLowerCase() === name;
    });
    if (!seen && !earlier) continue;
    const checked = validDetails({ ...outcome.details, mcp_registry: { ...identity, registry_listed: true } });
    if (checked === null) continue;
    outcome.details = checked;
    marked++;
  }
  return marked;
}
