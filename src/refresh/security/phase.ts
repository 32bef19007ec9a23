/** The security phase of a refresh: deps.dev's signals for every fetched plugin, within deps.dev's own budget. */
import type { Run } from "../context";
import { SecurityChecker } from "./checker";
import { checkSecurity, type SecurityCounts } from "./step";

/**
 * Sets each fetched plugin's `security` (Scorecard, advisories, provenance); skipped when deps.dev
 * is off (DEPSDEV_URL=off). Its cache is saved whatever happens; it only saves requests.
 */
export async function securityPhase(run: Run): Promise<SecurityCounts | undefined> {
  const options = run.security;
  if (options === null) return undefined;
  run.progress.phase("security", "plugins");
  const checker = new SecurityChecker(options, run.databasePath, () => run.now().getTime());
  try {
    const formerIds = (id: string) => run.previous.plugins.get(id.toLowerCase())?.previousIds ?? [];
    const counts = await checkSecurity(run.checkpoint.outcomes.entries(), formerIds, checker);
    run.log("refresh.security", { ...counts, ...checker.counts, requests: checker.budget.requests });
    return counts;
  } finally {
    try {
      checker.save();
    } catch (error) {
      run.log("refresh.security_cache_unsaved", { error: String(error) });
    }
  }
}
