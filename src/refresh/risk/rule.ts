/** One rule of the risk engine: cheap hints first, then bounded regular expressions over one line. */
import type { RiskRule } from "../../catalog/model/risk";

export interface LineRule {
  rule: RiskRule;
  /** Lower-case words of which the line must hold one before any expression runs. */
  hints: readonly string[];
  /**
   * Expressions tested on the line (at most MAX_WINDOW characters). Each is bounded: every
   * repetition between two anchors has a fixed cap, so a long hostile line costs linear time.
   */
  patterns: readonly RegExp[];
  /** Only for these files (by their kind); every file when absent. */
  only?: ReadonlyArray<"json" | "markdown" | "script">;
  /** In Markdown, only inside code (fenced blocks and inline spans): the word in prose is talk, not a command. */
  codeOnly?: boolean;
  /** A line that also matches this says not to do it ("never run `sudo …`"): no note. */
  unless?: RegExp;
}

/** Where a rule matched on a line, or -1. */
export function matchAt(rule: LineRule, line: string, lower: string): number {
  if (!rule.hints.some((h) => lower.includes(h))) return -1;
  for (const pattern of rule.patterns) {
    const found = pattern.exec(line);
    if (found) return found.index;
  }
  return -1;
}
