/** @jsxImportSource preact */
/** The plugin page's risk notes, shown beside the install instructions: notes to read, not a verdict. */
import { RISK_RULE_TEXT, type RiskRule } from "../catalog/model/risk";
import { Section } from "./record-parts";

interface Note {
  rule: RiskRule;
  file: string;
  line: number;
  excerpt: string;
}

const isNote = (n: unknown): n is Note =>
  n !== null &&
  typeof n === "object" &&
  typeof (n as Note).rule === "string" &&
  (n as Note).rule in RISK_RULE_TEXT &&
  typeof (n as Note).file === "string" &&
  typeof (n as Note).line === "number" &&
  typeof (n as Note).excerpt === "string";

export function RiskNotes({ risk }: { risk: unknown }) {
  const notes = Array.isArray(risk) ? risk.filter(isNote) : [];
  if (notes.length === 0) return null;
  return (
    <Section id="risk" title="Risk notes">
      <p>
        Places in the hooks, server commands and skills this plugin ships that are worth reading before running it.
        Notes, not a verdict.
      </p>
      <ul>
        {notes.map((n) => (
          <li>
            <strong>{RISK_RULE_TEXT[n.rule]}</strong> (<code>{n.rule}</code>) at{" "}
            <code>
              {n.file}:{n.line}
            </code>
            : <code>{n.excerpt}</code>
          </li>
        ))}
      </ul>
    </Section>
  );
}
