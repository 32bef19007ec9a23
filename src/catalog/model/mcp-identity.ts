/** The identity a `server.json` states, in the MCP registry's own terms. */
import { type Static, Type } from "@sinclair/typebox";

/** An MCP registry server name: a reverse-DNS namespace, one slash, the server's own name. */
export const MCP_SERVER_NAME = "^[a-zA-Z0-9.-]{1,100}/[a-zA-Z0-9._-]{1,100}$";
/** An exact version as server.json may state it: no range, no wildcard, not `latest` (checked apart). */
export const MCP_SERVER_VERSION = "^[0-9A-Za-z][0-9A-Za-z.+_-]{0,99}$";

/** The identity a server.json states: its full name and its own version, when exact. */
export const McpRegistrySchema = Type.Object(
  {
    name: Type.String({ pattern: MCP_SERVER_NAME }),
    version: Type.Union([Type.String({ pattern: MCP_SERVER_VERSION }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type McpRegistryIdentity = Static<typeof McpRegistrySchema>;
