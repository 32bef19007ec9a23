/**
 * An update's diff (update-diff.ts) in plain lines, for `npm run review` beside each plugin waiting
 * past its approved commit; the plugin and review pages say the same in HTML (web/update-panel.tsx).
 */
import { type Changed, COMPONENT_LISTS, type ComponentList } from "./update-diff";

/** Each component list as the diff's readers name it. */
export const LIST_NAMES: Record<ComponentList, string> = {
  skills: "Skills",
  commands: "Commands",
  agents: "Agents",
  hooks: "Hook events",
  mcp_servers: "MCP servers",
  plugins: "Marketplace plugins",
};

const names = (kept: string[], total: number) =>
  `${kept.join(", ")}${total > kept.length ? ` and ${total - kept.length} more` : ""}`;

/** What `diff` adds and drops, one line each, in the order the plugin page shows them. */
export function changeLines(diff: Changed): string[] {
  const lines: string[] = [];
  for (const way of ["added", "removed"] as const) {
    for (const list of COMPONENT_LISTS) {
      const total = diff.counts[way][list];
      if (total > 0) lines.push(`${LIST_NAMES[list]} ${way}: ${names(diff[way][list], total)}`);
    }
  }
  for (const way of ["added", "removed"] as const) {
    for (const line of diff.install[way])
      lines.push(`Install line ${way} (${line.harness}, ${line.kind}): ${line.text}`);
  }
  const { counts, context } = diff;
  if (counts.install_added + counts.install_removed > diff.install.added.length + diff.install.removed.length)
    lines.push(`${counts.install_added} install lines added and ${counts.install_removed} removed in all`);
  for (const p of diff.packages) lines.push(`Package changed (${p.kind}, from ${p.from}): ${p.before} → ${p.after}`);
  for (const note of diff.risk_added) lines.push(`New risk note: ${note.rule} at ${note.file}:${note.line}`);
  if (counts.risk_added > diff.risk_added.length)
    lines.push(`${counts.risk_added - diff.risk_added.length} more new risk notes`);
  if (context.before !== context.after) {
    const delta = context.delta === null ? "" : ` (${context.delta >= 0 ? "+" : ""}${context.delta})`;
    lines.push(`Context cost: ${context.before ?? "not measured"} → ${context.after ?? "not measured"} tokens${delta}`);
  }
  if (diff.version_unchanged)
    lines.push(
      `Same version: the content changed while the declared version (${diff.to.version ?? "none"}) did not move`,
    );
  return lines;
}
