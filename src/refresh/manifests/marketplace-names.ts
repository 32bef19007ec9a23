/**
 * Marketplace names as Claude Code's CLI (2.1.332) checks them, in its order: at `plugin validate`
 * and at `plugin marketplace add`, which then refuses the whole marketplace. The reasons are the
 * CLI's own. Plugin names, and the names Anthropic keeps for itself, are in
 * catalog/model/claude-names.ts, which the served marketplaces and the pages read too.
 */
import { ID_CHARACTERS, idPartAccepted, OFFICIAL_MARKETPLACES } from "../../catalog/model/claude-names";

const BESIDE = "official[^a-z0-9]*(?:anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official";
/** `claude`/`anthropic` at the start, then one of the words of an official marketplace. */
const LEADING = new RegExp(
  `${BESIDE}|^(?:anthropic|claude)[^a-z0-9]*(?:marketplace|plugins|official|directory|directories)`,
  "i",
);
/** The same words with the separators taken out (`claude.plugins`, `claudeplugins`, `claude_directory`). */
const JOINED = /^(?:anthropic|claude)(?:marketplace|plugins|official|directory|directories)s?$/i;
const SQUASHED_BESIDE = /official(?:anthropic|claude)|(?:anthropic|claude)official/i;
/** The longest run of joined words JOINED can match. */
const JOINED_MAX = 9 + "directories".length + 1;

/** The CLI's test for a name that passes itself off as an official Anthropic/Claude marketplace. */
function impersonates(name: string): boolean {
  if (OFFICIAL_MARKETPLACES.has(name.toLowerCase())) return false;
  if (/[^\x20-\x7E]/.test(name) || LEADING.test(name) || LEADING.test(name.replace(/^[^a-z0-9]+/i, ""))) return true;
  if (SQUASHED_BESIDE.test(name.replace(/[^a-z0-9]+/gi, ""))) return true;
  let joined = "";
  for (const word of name.split(/[^a-z0-9]+/i).filter((w) => w !== "")) {
    joined += word;
    if (JOINED.test(joined)) return true;
    if (joined.length > JOINED_MAX) break;
  }
  return false;
}

/** Names the CLI keeps for its own sources (case aside). */
const RESERVED: Record<string, string> = {
  inline: "reserved for --plugin-dir session plugins",
  builtin: "reserved for built-in plugins",
  "skills-dir": "reserved for plugins auto-loaded from .claude/skills/",
  synced: "reserved for plugins synced from your claude.ai account",
  "claude-plugin-test": "reserved for plugins loaded by claude plugin test",
};

/** Why Claude Code refuses marketplace `name` in repository `id`, or null when it adds it. */
export function marketplaceNameRefusal(name: unknown, id: string): string | null {
  if (typeof name !== "string" || name === "") return "marketplace has no name";
  if (/\s/.test(name)) return "marketplace name has spaces, which Claude Code refuses";
  if (/[/\\]|\.\./.test(name) || name === ".") return "marketplace name has path separators, which Claude Code refuses";
  if (impersonates(name))
    return "marketplace name impersonates an official Anthropic marketplace, which Claude Code refuses";
  const reserved = Object.hasOwn(RESERVED, name.toLowerCase()) ? RESERVED[name.toLowerCase()] : undefined;
  if (reserved) return `marketplace name is ${reserved} in Claude Code`;
  if (OFFICIAL_MARKETPLACES.has(name.toLowerCase()) && !id.toLowerCase().startsWith("anthropics/"))
    return "marketplace name is reserved for Anthropic's own repositories, which Claude Code enforces";
  if (!idPartAccepted(name)) return `marketplace name not installable: ${ID_CHARACTERS}`;
  if (name.length > 100) return "marketplace name not accepted";
  return null;
}
