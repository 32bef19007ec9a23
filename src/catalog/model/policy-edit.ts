/**
 * Approving a plugin at a commit in the policy file: the file's YAML document edited in place, so
 * its comments, order and layout stay, then checked as a policy before it is written (atomically).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { isMap, isSeq, parseDocument } from "yaml";
import { writeAtomically } from "../../base/atomic-write";
import type { Policy } from "./policy";
import { PolicyError, parsePolicy } from "./policy-file";

/** `owner/repo@<40 hex>` → its parts; null when it is not that. */
export function approvalOf(text: string): { repo: string; commit: string } | null {
  const match = /^([A-Za-z0-9-]+\/[A-Za-z0-9._-]+)@([0-9a-f]{40})$/.exec(text);
  return match ? { repo: match[1]!, commit: match[2]! } : null;
}

/**
 * The policy text with `repo` approved at `commit`: its allow entry's commit set (or the entry
 * added at the end of `allow`). Throws PolicyError when the policy has no allow list (it admits
 * every plugin then, and an entry would narrow it to this one) or the result is no valid policy.
 */
export function approved(text: string, file: string, repo: string, commit: string, categoryIds: string[]): string {
  const doc = parseDocument(text);
  const allow = doc.get("allow", true);
  if (!isSeq(allow))
    throw new PolicyError(`${file}: no allow list to approve ${repo} in (without one, every plugin is admitted)`);
  const entry = allow.items.find(
    (item) => isMap(item) && String(item.get("repo") ?? "").toLowerCase() === repo.toLowerCase(),
  );
  if (isMap(entry)) entry.set("commit", commit);
  else allow.add(doc.createNode({ repo, commit }));
  const out = doc.toString();
  parsePolicy(out, file, categoryIds);
  return out;
}

/** Approves `repo` at `commit` in the policy file at `path`; the policy as written. */
export function approveInFile(path: string, repo: string, commit: string, categoryIds: string[]): Policy {
  const text = approved(readFileSync(path, "utf8"), path, repo, commit, categoryIds);
  writeAtomically(path, (tmp) => writeFileSync(tmp, text));
  return parsePolicy(text, path, categoryIds);
}
