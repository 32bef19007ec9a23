/**
 * What one plugin of a marketplace holds, read where Claude Code reads it in that plugin's folder
 * (refresh/manifests/plugin-folders.ts): its skills, commands, agents, hook events and MCP servers,
 * each list bounded (`counts` keeps the true numbers). The repository's own contents stay the
 * union of its plugins'.
 */
import { type Static, Type } from "@sinclair/typebox";
import { SERVER_NAME_PATTERN } from "./install-rules";
import { RiskNoteSchema } from "./risk";

/** Risk notes kept per plugin. */
export const MAX_PLUGIN_NOTES = 10;

/** Items kept per list of one plugin; `counts` holds the true number. */
export const MAX_PART_ITEMS = 100;

const Name = Type.String({ minLength: 1, maxLength: 100 });
const List = (description: string, item = Name) => Type.Array(item, { maxItems: MAX_PART_ITEMS, description });
const Count = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const PluginPartsSchema = Type.Object(
  {
    skills: List("Skill names."),
    commands: List("Command names (files of `commands/` and the paths the entry or plugin.json lists)."),
    agents: List("Agent names."),
    hooks: List("Hook events."),
    mcp_servers: List("MCP server names.", Type.String({ minLength: 1, maxLength: 100, pattern: SERVER_NAME_PATTERN })),
    counts: Type.Object(
      { skills: Count, commands: Count, agents: Count, hooks: Count, mcp_servers: Count },
      { additionalProperties: false },
    ),
    risk: Type.Optional(
      Type.Array(RiskNoteSchema, {
        maxItems: MAX_PLUGIN_NOTES,
        description: "Risk notes of the files in this plugin's folder (hooks, MCP server commands, SKILL.md).",
      }),
    ),
    partial: Type.Optional(
      Type.Literal(true, {
        description:
          "Some of what the plugin holds was not read: a folder past the follow-up's share, or a path plugin.json lists.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "What this plugin of the marketplace holds, read in its own folder of the same repository.",
  },
);
export type PluginParts = Static<typeof PluginPartsSchema>;
