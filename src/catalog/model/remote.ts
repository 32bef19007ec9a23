/**
 * What a plugin's remote MCP server said when the refresh asked it (src/refresh/checks/remotes/): whether
 * it answered, and the tools it lists. Stored with the details; served with `include=tools`.
 */
import { type Static, Type } from "@sinclair/typebox";

export const REMOTE_STATUSES = ["answering", "auth_required", "not_mcp", "down"] as const;
export type RemoteStatus = (typeof REMOTE_STATUSES)[number];

export const MAX_TOOLS = 100;
export const MAX_TOOL_NAME = 128;
export const MAX_TOOL_DESCRIPTION = 300;
/** Characters of tool names the search index reads of one plugin at most: as much as a description holds. */
export const MAX_TOOL_INDEX_CHARS = 1000;

export const RemoteSchema = Type.Object(
  {
    status: Type.Union(
      REMOTE_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          "`answering`: an MCP server answered `initialize` (or its server card listed its tools); `auth_required`: " +
          "it asks for credentials (401/403, a WWW-Authenticate challenge, or a card naming a required header); " +
          "`not_mcp`: something answered, but not MCP (an HTML page, not JSON-RPC); `down`: no answer in time, " +
          "refused, or an address the catalog does not connect to.",
      },
    ),
    checked_at: Type.String({ format: "date-time", description: "When the server was last asked." }),
    url: Type.String({ minLength: 1, maxLength: 500, pattern: "^https://", description: "The remote asked." }),
    reason: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "Why the status is not `answering`, when known." }),
    ),
  },
  { additionalProperties: false },
);
export type RemoteAnswer = Static<typeof RemoteSchema>;

export const ToolSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_TOOL_NAME, pattern: "^[A-Za-z0-9_./-]+$" }),
    description: Type.Union([Type.String({ maxLength: MAX_TOOL_DESCRIPTION }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type RemoteTool = Static<typeof ToolSchema>;

export const ToolsSchema = Type.Array(ToolSchema, {
  maxItems: MAX_TOOLS,
  description: "The tools the remote server lists (at most 100), names and descriptions cleaned.",
});
