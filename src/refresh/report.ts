/**
 * The end-of-run summary a person reads: what changed, what each discovery rule found, what the
 * gate cleaned, what it cost, how long each phase took.
 */

import { type PackageCounts, PROOF_KINDS } from "./checks/packages/packages-check";
import type { RemoteCounts } from "./checks/remotes/remotes-check";
import type { SecurityCounts } from "./checks/security/security-check";
import type { DiscoverySummary } from "./discover/evidence";
import { REJECTION } from "./discover/source-caps";
import type { RefreshResult, RunReport } from "./run";
import { GateCounts } from "./upstream/gate";

const LIST_AT_MOST = 10;

function names(list: string[]): string {
  if (list.length === 0) return "";
  const shown = list.slice(0, LIST_AT_MOST).join(", ");
  return list.length > LIST_AT_MOST ? `: ${shown}, …` : `: ${shown}`;
}

function costLines(report: RunReport): string[] {
  const phases = report.phases.map(([name, seconds]) => `${name} ${seconds}s`).join(", ");
  return [
    `  API calls: ${report.usage.total} (${report.usage.callsText()})`,
    `  API budget left: ${report.usage.budgetText()}`,
    `  time: ${phases || "none"}${report.resumed ? " (resumed an earlier run's progress)" : ""}`,
  ];
}

/** One line per rule (found, new, rejected for lack of evidence), then every capped search slice. */
export function discoveryLines(discovery: DiscoverySummary): string[] {
  const lines = ["  discovery (found / new / rejected without evidence):"];
  for (const r of discovery.rules) lines.push(`    ${r.rule}: ${r.found} / ${r.new} / ${r.rejected}`);
  lines.push(`  rejected without evidence ${discovery.rejected.length}${names(discovery.rejected)}`);
  for (const c of discovery.capped) lines.push(`  capped at 1,000 of ${c.count} (cannot split further): ${c.query}`);
  for (const t of discovery.truncated ?? []) {
    lines.push(`  truncated at its ${t.cap} cap: ${t.rule}: kept ${t.kept} of ${t.size} ${t.cap}`);
  }
  const reasons = new Map<string, number>();
  for (const reason of Object.values(discovery.reasons ?? {})) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  for (const [reason, n] of reasons) {
    if (reason !== REJECTION.noEvidence && reason !== REJECTION.heldForReview) lines.push(`  left out ${reason} ${n}`);
  }
  return lines;
}

function gateLines(report: RunReport): string[] {
  return [
    `  cleaned fields: ${GateCounts.text(report.gate.cleaned)}`,
    `  left out: ${GateCounts.text(report.gate.leftOut)}`,
  ];
}

/** The summary lines of a run's result. */
export function formatResult(result: RefreshResult): string[] {
  if (result.status === "locked") return [`refresh skipped: ${result.reason}`];
  const { report } = result;
  if (result.status === "refused")
    return [`refresh refused, snapshot left as it was: ${result.reason}`, ...costLines(report)];
  if (result.status === "incomplete") {
    return [
      `refresh unfinished, snapshot left as it was: ${result.reason}`,
      `  progress kept; run again after ${result.resetAt}`,
      ...costLines(report),
    ];
  }
  const s = report.summary!;
  return [
    `refresh published ${report.snapshotAt}: ${report.total} plugins${report.served === undefined ? "" : `, ${report.served} served under the policy`}`,
    `  added ${s.added.length}${names(s.added)}`,
    `  removed ${s.removed.length}${names(s.removed.map((r) => `${r.id} (${r.reason})`))}`,
    `  renamed ${s.renamed.length}${names(s.renamed.map((r) => `${r.from} → ${r.to}`))}`,
    `  replaced ${s.replaced.length}${names(s.replaced.map((r) => `${r.id} (repository ${r.from} → ${r.to})`))}`,
    ...(report.pinMismatches ?? []).map(
      (m) =>
        `  pinned id not matched, entry not applied: ${m.entry} pins ${m.pinned}, the name answers with ${m.found}`,
    ),
    `  changed ${s.changed}, unchanged ${s.unchanged}`,
    ...(report.held?.length
      ? [`  held for review ${report.held.length} newcomers (more than REFRESH_MAX_GROWTH)${names(report.held)}`]
      : []),
    ...(report.packages ? packageLines(report.packages) : []),
    ...(report.security ? [securityLine(report.security)] : []),
    ...(report.remotes ? [remoteLine(report.remotes)] : []),
    ...(report.discovery ? discoveryLines(report.discovery) : []),
    ...gateLines(report),
    ...costLines(report),
  ];
}

/** The package lines by verdict, then the share of MCP servers each kind of proof gives a line of their own. */
function packageLines(p: PackageCounts): string[] {
  const share = (n: number) => `${n} (${p.mcp_servers === 0 ? 0 : Math.round((n / p.mcp_servers) * 100)}%)`;
  const proofs = PROOF_KINDS.map((kind) => `${kind} ${share(p.proven_servers[kind] ?? 0)}`).join(", ");
  return [
    `  package lines verified ${p.verified}, not verified ${p.unverified} ` +
      `(unproven ${p.unproven ?? 0}), unknown ${p.unknown}; derived from package files ${p.derived}`,
    `  MCP servers checked ${p.mcp_servers ?? 0}, with a line proven by ${proofs}; only unproven lines ${share(p.unproven_servers ?? 0)}`,
  ];
}

/** What deps.dev said of the fetched plugins: their Scorecards, and the advisories of their pinned versions. */
function securityLine(s: SecurityCounts): string {
  return (
    `  deps.dev: Scorecard for ${s.scored}, not scored ${s.notScored}, unknown ${s.scorecardUnknown}; ` +
    `plugins with advisories ${s.withAdvisories}, advisories unknown ${s.advisoriesUnknown}`
  );
}

/** The remote MCP servers' line: how many were asked, reused or left for lack of time, and what they were. */
function remoteLine(r: RemoteCounts): string {
  return (
    `  remote servers asked ${r.asked}, reused ${r.reused}, not reached in time ${r.late}; answering ${r.answering}, ` +
    `auth required ${r.auth_required}, not MCP ${r.not_mcp}, down ${r.down}`
  );
}

/** The process exit code of a result: 0 published, 3 refused, 4 another run holds the lock, 5 out of API budget. */
export function exitCode(result: RefreshResult): number {
  return { published: 0, refused: 3, locked: 4, incomplete: 5 }[result.status];
}
