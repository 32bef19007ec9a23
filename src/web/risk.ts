/** The plugin page's risk notes, shown beside the install instructions: notes to read, not a verdict. */
import { RISK_RULE_TEXT, type RiskRule } from "../catalog/model/risk";
import { esc } from "./layout";

export function riskHtml(risk: unknown): string {
  if (!Array.isArray(risk) || risk.length === 0) return "";
  const items = (risk as Array<Record<string, unknown>>)
    .filter((n) => n !== null && typeof n === "object" && typeof n.rule === "string" && n.rule in RISK_RULE_TEXT)
    .map((n) => {
      const where = `${typeof n.file === "string" ? n.file : "?"}:${typeof n.line === "number" ? n.line : "?"}`;
      const excerpt = typeof n.excerpt === "string" ? n.excerpt : "";
      return (
        `<li><strong>${esc(RISK_RULE_TEXT[n.rule as RiskRule])}</strong> (<code>${esc(n.rule as string)}</code>) ` +
        `at <code>${esc(where)}</code>: <code>${esc(excerpt)}</code></li>`
      );
    });
  if (items.length === 0) return "";
  return (
    `<section aria-labelledby="risk"><h2 id="risk">Risk notes</h2>` +
    "<p>Places in the hooks, server commands and skills this plugin ships that are worth reading before running " +
    `it. Notes, not a verdict.</p><ul>${items.join("")}</ul></section>`
  );
}
