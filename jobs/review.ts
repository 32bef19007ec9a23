/**
 * `npm run review`: what a catalog held to a policy waits on (plugins served at their approved
 * commit while their head moved on, each with what the newer reading adds, plugins a rule keeps out, plugins newly seen under an allowed
 * owner), from the published snapshot alone.
 *
 * `npm run review approve owner/repo@<sha>` approves that commit in the policy file (its comments
 * and order kept) and re-applies the policy to the served snapshot at once, without fetching.
 * `npm run review apply` re-applies the policy file as it stands.
 *
 * Exit codes: 0 done · 1 failed · 2 bad arguments, configuration or policy · 4 a refresh is running.
 */
import { acquireLock, LockHeld, lockPath } from "../src/base/refresh-lock";
import { categoryInfo, loadEditorial } from "../src/catalog/model/editorial";
import { approvalOf, approveInFile } from "../src/catalog/model/policy-edit";
import { loadPolicy, PolicyError } from "../src/catalog/model/policy-file";
import { changeLines } from "../src/catalog/model/update-lines";
import { type ReviewItem, reapplyPolicy, reviewList } from "../src/catalog/snapshot/policy-review";
import { ConfigError, loadConfig, policyPath } from "../src/config";

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const USAGE = "Usage: npm run review [-- approve owner/repo@<40 hex sha> | apply]";

function line(item: ReviewItem): string {
  if (item.kind === "waiting") {
    const changes = item.diff ? changeLines(item.diff).map((l) => `\n  ${l}`) : [];
    return `waiting   ${item.id}  ${item.approved} → ${item.head ?? "unknown"}${changes.join("")}`;
  }
  if (item.kind === "kept_out") return `kept out  ${item.id}  ${item.rule}`;
  return `new       ${item.id}  at ${item.commit ?? "an unknown commit"} (its owner is allowed)`;
}

function main(args: string[]): number {
  const config = loadConfig();
  const file = policyPath(config);
  const editorial = loadEditorial(config.refreshDataDir);
  const categoryIds = categoryInfo(editorial).map((c) => c.id);
  let policy = loadPolicy(file, categoryIds);
  if (policy === null) {
    console.error(`No policy file at ${file}: the catalog is the public one, nothing to review.`);
    return 2;
  }
  const [command, target] = args;
  if (command === undefined) {
    const items = reviewList(config.databasePath, policy);
    if (items === null) {
      console.log(`The snapshot at ${config.databasePath} was not built under a policy: run a refresh first.`);
      return 0;
    }
    for (const item of items) console.log(line(item));
    console.log(`${items.length} to review (policy ${file})`);
    return 0;
  }
  const approval = command === "approve" ? approvalOf(target ?? "") : null;
  if ((command !== "approve" && command !== "apply") || (command === "approve" && approval === null)) {
    console.error(USAGE);
    return 2;
  }
  const lock = acquireLock(lockPath(config.databasePath));
  try {
    if (approval) {
      policy = approveInFile(file, approval.repo, approval.commit, categoryIds);
      console.log(`approved ${approval.repo} at ${approval.commit} in ${file}`);
    }
    const stats = reapplyPolicy(config.databasePath, policy, new Date(), editorial)!;
    console.log(`policy applied: ${stats.total} plugins served, snapshot ${stats.snapshotAt}`);
    const out = approval && reviewList(config.databasePath, policy)?.find((i) => sameId(i.id, approval.repo));
    // No snapshot read that commit: the next refresh reads it there (src/refresh/pinned-reads.ts).
    if (out && out.kind === "kept_out")
      console.log(`${out.id} stays out until a refresh reads it at ${approval!.commit}: ${out.rule}`);
    return 0;
  } finally {
    lock.release();
  }
}

try {
  process.exit(main(process.argv.slice(2)));
} catch (error) {
  if (error instanceof PolicyError || error instanceof ConfigError) {
    console.error(`Invalid ${error instanceof PolicyError ? "policy" : "configuration"}: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof LockHeld) {
    console.error(`A refresh is running: ${error.message}`);
    process.exit(4);
  }
  console.error(`review failed, snapshot left as it was: ${(error as Error).message}`);
  process.exit(1);
}
