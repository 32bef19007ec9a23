/** @jsxImportSource preact */
/** The plugin page's remote MCP server: what it said when the refresh last asked it, and the tools it lists. */
import type { RemoteStatus } from "../catalog/model/remote";
import { DateText } from "./layout";
import { Section } from "./record-parts";

const STATUS_TEXT: Record<RemoteStatus, string> = {
  answering: "answers as an MCP server",
  auth_required: "asks for credentials before it answers",
  not_mcp: "answers, but not as an MCP server",
  down: "did not answer",
};

interface Remote {
  status: RemoteStatus;
  checked_at: string;
  url: string;
  reason?: string;
}

interface Tool {
  name: string;
  description: string | null;
}

const isRemote = (r: unknown): r is Remote =>
  r !== null &&
  typeof r === "object" &&
  typeof (r as Remote).status === "string" &&
  (r as Remote).status in STATUS_TEXT &&
  typeof (r as Remote).checked_at === "string" &&
  typeof (r as Remote).url === "string";

const isTool = (t: unknown): t is Tool => t !== null && typeof t === "object" && typeof (t as Tool).name === "string";

export function RemoteTools({ remote, tools }: { remote: unknown; tools: unknown }) {
  if (!isRemote(remote)) return null;
  const listed = Array.isArray(tools) ? tools.filter(isTool) : [];
  return (
    <Section id="tools" title="Remote server and tools">
      <p>
        <code>{remote.url}</code> {STATUS_TEXT[remote.status]} (<code>{remote.status}</code>
        {remote.reason ? `: ${remote.reason}` : ""}), last asked without credentials on{" "}
        <DateText at={remote.checked_at} />.
      </p>
      {listed.length > 0 ? (
        <ul>
          {listed.map((t) => (
            <li>
              <code>{t.name}</code>
              {typeof t.description === "string" ? `: ${t.description}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
