/**
 * Evidence before publishing: a repository a search found is a candidate, not a plugin. A new one
 * is published only when something says it extends a coding-agent harness: a curated list, a
 * marketplace or the editors list it, it carries one of the evidence topics, or it holds one of
 * the evidence files (looked up in the fetch's own GraphQL queries). Published plugins keep their
 * place; evidence is asked of newcomers only.
 */
import type { EvidenceFound } from "../../catalog/model/candidates";
import type { Override, RepoFacts } from "../../catalog/model/types";
import type { CappedSlice } from "../github/search";
import type { Discovery, Found } from "./discover";
import type { DiscoveryRules } from "./discovery-rules";
import { REJECTION, type Rejection, type Truncation } from "./source-caps";

export type Evidence = "listed" | "editors" | "topic" | "file";

/**
 * The first evidence a candidate has, or null: its own (the editors, a topic, a file) before being
 * listed, since a listing vouches for a bounded number of repositories only (source-caps.ts).
 */
export function evidenceOf(
  found: Found | undefined,
  facts: RepoFacts,
  files: readonly string[] | undefined,
  rules: DiscoveryRules,
  overrides: Readonly<Record<string, Override>>,
): Evidence | null {
  const override = overrides[facts.full_name] ?? (found ? overrides[found.id] : undefined);
  if (override && !override.exclude) return "editors";
  // A repository only a registry entry led to needs a file of its own: anyone may publish the entry
  // and set the topic, so the two together are still one stranger's word.
  const registryOnly =
    found !== undefined && found.rules.length > 0 && found.rules.every((r) => r.startsWith("registry "));
  if (!registryOnly && (facts.topics ?? []).some((t) => rules.evidence.topics.includes(t))) return "topic";
  if (files && files.length > 0) return "file";
  if (found && found.listed.length > 0) return "listed";
  return null;
}

/** Every kind of evidence looked for, and what of it the candidate has: what a listing answer shows. */
export function evidenceFound(
  found: Found | undefined,
  facts: RepoFacts,
  files: readonly string[] | undefined,
  rules: DiscoveryRules,
  overrides: Readonly<Record<string, Override>>,
): EvidenceFound {
  const override = overrides[facts.full_name] ?? (found ? overrides[found.id] : undefined);
  return {
    listed_by: [...(found?.listed ?? [])],
    editors: override !== undefined && !override.exclude,
    topics: (facts.topics ?? []).filter((t) => rules.evidence.topics.includes(t)),
    files: [...(files ?? [])],
    files_checked: files !== undefined,
  };
}

/** One rule's effect on a run: candidates it found, how many of them were new, how many of those had no evidence. */
export interface RuleCount {
  rule: string;
  found: number;
  new: number;
  rejected: number;
}

export interface DiscoverySummary {
  rules: RuleCount[];
  capped: Array<CappedSlice & { rule: string }>;
  /** New candidates left out for lack of evidence (lowercased ids). */
  rejected: string[];
  /** Sources cut short by a cap, with their size. */
  truncated: Truncation[];
  /** Why each new candidate was left out, by lowercased id (see REJECTION in source-caps.ts). */
  reasons: Record<string, Rejection>;
}

/** Counts per rule, in the order the rules are written, then any rule met only while fetching. */
export function countRules(
  discovery: Discovery,
  isKnown: (key: string) => boolean,
  reasons: ReadonlyMap<string, Rejection>,
  order: string[],
  truncated: Truncation[],
): DiscoverySummary {
  const rejected = new Set([...reasons].filter(([, reason]) => reason === REJECTION.noEvidence).map(([key]) => key));
  const counts = new Map<string, RuleCount>(order.map((rule) => [rule, { rule, found: 0, new: 0, rejected: 0 }]));
  for (const [key, found] of discovery.found) {
    for (const rule of found.rules) {
      const count = counts.get(rule) ?? counts.set(rule, { rule, found: 0, new: 0, rejected: 0 }).get(rule)!;
      count.found++;
      if (!isKnown(key)) count.new++;
      if (reasons.has(key)) count.rejected++;
    }
  }
  return {
    rules: [...counts.values()],
    capped: discovery.capped,
    rejected: [...rejected],
    truncated,
    reasons: Object.fromEntries(reasons),
  };
}
