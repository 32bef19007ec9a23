/**
 * Marketplace names as Claude Code's CLI checks them, in its order: at `plugin validate` and at
 * `plugin marketplace add`, which then refuses the whole marketplace. The reasons are the CLI's own.
 */

/** Names of Anthropic's own marketplaces: exempt from the look-alike check, but only from `anthropics/` repositories. */
export const OFFICIAL_MARKETPLACES = new Set([
  "claude-code-marketplace",
  "claude-code-plugins",
  "claude-plugins-official",
  "anthropic-marketplace",
  "anthropic-plugins",
  "agent-skills",
  "anthropic-agent-skills",
  "life-sciences",
  "knowledge-work-plugins",
  "claude-for-legal",
  "claude-for-financial-services",
  "financial-services-plugins",
  "claude-community",
  "claude-plugins-community",
]);

/** The CLI's test for a name that passes itself off as an official Anthropic/Claude marketplace. */
const IMPERSONATES =
  /(?:official[^a-z0-9]*(anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official|^(?:anthropic|claude)[^a-z0-9]*(marketplace|plugins|official))/i;

/** Names the CLI keeps for its own sources. */
const RESERVED: Record<string, string> = {
  inline: "reserved for --plugin-dir session plugins",
  builtin: "reserved for built-in plugins",
  "skills-dir": "reserved for plugins auto-loaded from .claude/skills/",
};

/** Why Claude Code refuses marketplace `name` in repository `id`, or null when it adds it. */
export function marketplaceNameRefusal(name: unknown, id: string): string | null {
  if (typeof name !== "string" || name === "") return "marketplace has no name";
  if (/\s/.test(name)) return "marketplace name has spaces, which Claude Code refuses";
  if (/[/\\]|\.\./.test(name) || name === ".") return "marketplace name has path separators, which Claude Code refuses";
  const official = OFFICIAL_MARKETPLACES.has(name.toLowerCase());
  if (!official && (/[^\x20-\x7E]/.test(name) || IMPERSONATES.test(name)))
    return "marketplace name impersonates an official Anthropic marketplace, which Claude Code refuses";
  const reserved = RESERVED[name];
  if (reserved) return `marketplace name is ${reserved} in Claude Code`;
  if (official && !id.toLowerCase().startsWith("anthropics/"))
    return "marketplace name is reserved for Anthropic's own repositories, which Claude Code enforces";
  if (name.length > 100) return "marketplace name not accepted";
  return null;
}
