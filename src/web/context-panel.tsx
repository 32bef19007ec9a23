/** @jsxImportSource preact */
/**
 * A plugin page's context cost, shown beside its install lines: what installing it adds to every
 * Claude Code session, per component, as `claude plugin details` estimates it offline.
 */
import { NOT_MEASURED, type PluginContext } from "../catalog/model/context-cost";
import { number } from "./layout";
import { Section } from "./record-parts";

/** Components listed on the page at most; the JSON has them all. */
const SHOWN = 50;

const tokens = (n: number | null) => (n === null ? "not read" : `~${number(n)}`);

export function ContextCost({ context }: { context: unknown }) {
  if (context === null || typeof context !== "object") return null;
  const c = context as PluginContext;
  if (!Array.isArray(c.components) || typeof c.always_on !== "number") return null;
  const total = c.complete
    ? `~${number(c.always_on)} tokens`
    : `at least ~${number(c.always_on)} tokens (not measured in full)`;
  return (
    <Section id="context" title="Context cost">
      <p>
        Always on: <strong>{total}</strong> added to every Claude Code session
        {c.mcp_tools === NOT_MEASURED ? "; MCP tool schemas not measured" : ""}.
      </p>
      {c.components.length > 0 ? (
        <table class="context">
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col">Kind</th>
              <th scope="col">Always on</th>
              <th scope="col">On invoke</th>
            </tr>
          </thead>
          <tbody>
            {c.components.slice(0, SHOWN).map((k) => (
              <tr>
                <td>
                  <code>{k.name}</code>
                </td>
                <td>{k.kind}</td>
                <td>{tokens(k.always_on)}</td>
                <td>{tokens(k.on_invoke)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p class="note">
        Estimated as Claude Code estimates it offline: characters of each name, description and when_to_use over four.
      </p>
    </Section>
  );
}
