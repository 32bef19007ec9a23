/** @jsxImportSource preact */
/** A marketplace plugin's own parts on the plugin page (contents.plugins[].contents), folded under one line of counts. */
import { NOT_MEASURED, type PluginContextSummary } from "../catalog/model/context-cost";
import { number } from "./layout";

/** The content lists' headings. */
export const CONTENT_KINDS: Record<string, string> = {
  skills: "Skills",
  commands: "Commands",
  agents: "Agents",
  hooks: "Hooks",
  mcp_servers: "MCP servers",
  plugins: "Plugins",
};

/** A marketplace plugin's own parts, folded: one line of counts, each list when opened. */
export function PluginParts({ parts, install, context }: { parts: unknown; install: unknown; context?: unknown }) {
  const command = typeof install === "string" ? install : null;
  if (parts === null || typeof parts !== "object" || Array.isArray(parts))
    return command ? (
      <>
        {" "}
        <code>{command}</code>
      </>
    ) : null;
  const own = parts as Record<string, unknown>;
  const counts = (own.counts ?? {}) as Record<string, unknown>;
  const kinds = ["skills", "commands", "agents", "hooks", "mcp_servers"].filter(
    (k) => typeof counts[k] === "number" && (counts[k] as number) > 0,
  );
  const summary = kinds.map((k) => `${number(counts[k] as number)} ${CONTENT_KINDS[k]!.toLowerCase()}`).join(", ");
  return (
    <details>
      <summary>{summary || "nothing read in its folder"}</summary>
      {command ? (
        <p>
          Install: <code>{command}</code>
        </p>
      ) : null}
      <ContextLine context={context} />
      {kinds.map((k) => {
        const list = Array.isArray(own[k]) ? (own[k] as unknown[]) : [];
        const more = (counts[k] as number) - list.length;
        return (
          <p>
            {CONTENT_KINDS[k]}: {list.map(String).join(", ")}
            {more > 0 ? ` and ${number(more)} more` : null}
          </p>
        );
      })}
      {Array.isArray(own.risk) && own.risk.length > 0 ? (
        <p>
          Risk notes: {number(own.risk.length)} in its folder (see <a href="#risk">Risk notes</a>).
        </p>
      ) : null}
      {own.partial === true ? <p>Some of this plugin's parts were not read.</p> : null}
    </details>
  );
}

/** The plugin's own context cost (contents.plugins[].context): what installing it alone adds to every session. */
function ContextLine({ context }: { context: unknown }) {
  if (context === null || typeof context !== "object" || Array.isArray(context)) return null;
  const c = context as Partial<PluginContextSummary>;
  if (typeof c.always_on !== "number") return null;
  const caveats = [
    c.mcp_tools === NOT_MEASURED ? "MCP tool schemas not measured" : null,
    Array.isArray(c.hooks_add_context) && c.hooks_add_context.length > 0
      ? `${c.hooks_add_context.join(" and ")} hooks add what they print`
      : null,
    c.complete === false ? "not every file was read" : null,
  ].filter(Boolean);
  return (
    <p>
      Context cost: ~{number(c.always_on)} tokens in every session
      {caveats.length > 0 ? ` (${caveats.join("; ")})` : null}.
    </p>
  );
}
