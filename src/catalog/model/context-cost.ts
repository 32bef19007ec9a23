/**
 * What a plugin costs a session's context, as Claude Code's own offline estimator counts it
 * (`claude plugin details`): per component, the characters of its name, description and
 * `when_to_use` over four, rounded; the plugin's always-on total is the rounded sum. The refresh
 * computes it (src/refresh/manifests/context-files.ts); the schema here is what records store and serve.
 */
import { type Static, Type } from "@sinclair/typebox";

/** How the numbers are made: said in every record, so a reader never mistakes them for a tokenizer's count. */
export const CONTEXT_METHOD =
  "claude-code-2.1.197-offline: tokens = Math.round(chars / 4), chars = UTF-16 length of " +
  '[name, description, when_to_use].join(" ") per component, total rounded over the sum';

/** What `mcp_tools` says when the catalog cannot see a plugin's MCP tool lists (never zero). */
export const NOT_MEASURED = "not measured";

/** The `context_max=` values: each is a filter the snapshot stores once. */
export const CONTEXT_MAX_VALUES = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000] as const;

/** Hook events whose command's output Claude Code adds to the session's context: any amount, never counted. */
export const CONTEXT_HOOKS = ["SessionStart", "UserPromptSubmit"] as const;

/** Components kept per plugin: one list of each kind at its cap. */
export const MAX_COMPONENTS = 1500;

const Tokens = Type.Integer({ minimum: 0, maximum: 100_000_000 });

export const ComponentSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("skill"), Type.Literal("command"), Type.Literal("agent")]),
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "As the client counts it: `<plugin>:<folder or file>` for skills and commands, the file's basename for agents.",
    }),
    always_on: Type.Integer({ minimum: 0, maximum: 100_000_000, description: "Tokens added to every session." }),
    on_invoke: Type.Union([Tokens, Type.Null()], {
      description: "Tokens of its body, paid each time it fires; null when the file was not read whole.",
    }),
  },
  { additionalProperties: false },
);
export type ContextComponent = Static<typeof ComponentSchema>;

export const ContextSchema = Type.Object(
  {
    components: Type.Array(ComponentSchema, { maxItems: MAX_COMPONENTS }),
    always_on: Type.Integer({
      minimum: 0,
      maximum: 100_000_000,
      description: "Tokens the plugin's skills, commands and agents add to every session: Math.round(Σ chars / 4).",
    }),
    mcp_tools: Type.Union([Type.Literal(NOT_MEASURED), Type.Literal(0)], {
      description: "Tokens of MCP tool schemas: 0 when the plugin declares no MCP server, else `not measured`.",
    }),
    complete: Type.Boolean({
      description:
        "Whether every component was read: false when some file was left unread or the manifest names other component paths.",
    }),
    method: Type.String({ minLength: 1, maxLength: 300 }),
    hooks_add_context: Type.Optional(
      Type.Array(Type.Union(CONTEXT_HOOKS.map((event) => Type.Literal(event))), {
        maxItems: CONTEXT_HOOKS.length,
        description:
          "The plugin's hook events whose output Claude Code adds to the session (SessionStart, UserPromptSubmit): " +
          "what they print is unbounded and not counted, so the cost is not complete.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PluginContext = Static<typeof ContextSchema>;

/**
 * The tokens a plugin is sorted and filtered by: its always-on total when fully measured, else
 * null. MCP tools the catalog cannot see leave it unmeasured: their schemas can cost more than
 * every skill together, so a plugin declaring servers is never offered as the lightest.
 */
export function measuredTokens(context: PluginContext | undefined | null): number | null {
  return context?.complete && context.mcp_tools !== NOT_MEASURED ? context.always_on : null;
}

/** The `context_max` values a plugin passes: every one at or above its measured total. */
export function contextMaxValues(context: PluginContext | undefined | null): number[] {
  const tokens = measuredTokens(context);
  return tokens === null ? [] : CONTEXT_MAX_VALUES.filter((max) => tokens <= max);
}

/**
 * One marketplace plugin's context cost (`contents.plugins[].context`): what installing that plugin
 * alone adds to every session, counted by the same method as the repository's `context` (which is
 * the root plugin's only), from the files of that plugin's folder in the marketplace's repository.
 */
export const PluginContextSummarySchema = Type.Object(
  {
    always_on: Type.Integer({
      minimum: 0,
      maximum: 100_000_000,
      description: "Tokens this plugin's skills, commands and agents add to every session: Math.round(Σ chars / 4).",
    }),
    mcp_tools: Type.Union([Type.Literal(NOT_MEASURED), Type.Literal(0)], {
      description: "0 when the plugin declares no MCP server, else `not measured`.",
    }),
    complete: Type.Boolean({
      description:
        "Whether every component was read: false when a file was past the follow-up's share, a listed folder was not read, or a hook adds context.",
    }),
    counts: Type.Object(
      {
        skills: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
        commands: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
        agents: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
      },
      { additionalProperties: false, description: "The components counted, by kind." },
    ),
    hooks_add_context: Type.Optional(
      Type.Array(Type.Union(CONTEXT_HOOKS.map((event) => Type.Literal(event))), { maxItems: CONTEXT_HOOKS.length }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "This marketplace plugin's own context cost, by the method of the repository's `context.method`; the repository's `context` stays its root plugin's.",
  },
);
export type PluginContextSummary = Static<typeof PluginContextSummarySchema>;
