/** A remote server's tools as the catalog keeps them: capped, names and descriptions cleaned like any text. */
import { MAX_TOOL_DESCRIPTION, MAX_TOOL_NAME, MAX_TOOLS, type RemoteTool } from "../../../catalog/model/remote";
import { cleanText } from "../../upstream/gate";

export type { RemoteTool };

/** Tool names as MCP allows them (letters, digits, `_`, `-`, `.`, `/`); anything else is not a name. */
const TOOL_NAME = /^[A-Za-z0-9_./-]+$/;

/** The first MAX_TOOLS well-named, distinct tools of `list`, each with its cleaned description or null. */
export function cleanTools(list: unknown[]): RemoteTool[] {
  const tools: RemoteTool[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    if (tools.length >= MAX_TOOLS) break;
    if (typeof item !== "object" || item === null) continue;
    const { name, description } = item as { name?: unknown; description?: unknown };
    if (typeof name !== "string" || name.length > MAX_TOOL_NAME || !TOOL_NAME.test(name) || seen.has(name)) continue;
    seen.add(name);
    const text = typeof description === "string" ? cleanText(description, MAX_TOOL_DESCRIPTION) : null;
    tools.push({ name, description: text });
  }
  return tools;
}
