/**
 * Plugin and marketplace names as the pinned Claude Code client (`@anthropic-ai/claude-code`,
 * 2.1.332) judges them, in one place for the refresh (an author's own marketplace), the
 * marketplaces the catalog serves and the plugin pages. Learned by running the client
 * (`claude plugin validate`, `plugin marketplace add`, `plugin install`); test/api/claude-names.test.ts
 * holds every rule here against the client itself, so a release that changes one fails there.
 */

/** The client's own wording of the rule, as `claude plugin validate` reports it (an error). */
export const RESERVED_PLUGIN_NAME_RULE =
  'A third party\'s plugin name cannot start with "claude-", "anthropic-", "anthropics-", or "cc-plugin-", ' +
  'be "claude", "anthropic", "anthropics", "claude-code", or "claude-mods", or put "official" beside "claude" or "anthropic".';

/** The reason the catalog records and shows for such a name (at most 200 characters, as records allow). */
export const RESERVED_PLUGIN_NAME =
  "plugin name is reserved for Anthropic's own plugins: Claude Code's plugin validate refuses a third party's " +
  'name starting "claude-", "anthropic-", "cc-plugin-" or with "official" beside "claude"';

/** Why the client cannot install a plugin under a name, or from a marketplace of that name: its id rule. */
export const ID_CHARACTERS =
  'Claude Code installs a plugin id (plugin@marketplace) only of letters, digits, ".", "_" and "-", from a letter or digit';

/** Each part of a plugin id, `<plugin>@<marketplace>`: what the client installs. */
const ID_PART = /^[A-Za-z0-9][-A-Za-z0-9._]*$/;

/** Whether the client installs a plugin named `name`, or from a marketplace named `name` (its id rule). */
export function idPartAccepted(name: string): boolean {
  return ID_PART.test(name);
}

/** The client's words of a name: its runs of letters and digits, lowercased. */
const words = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
const squashed = (names: string[]) => new Set(names.map((n) => words(n).join("")));
const MARKS = ["claude", "anthropic", "anthropics"];
/** A name's first words may not join to one of these with more words after them… */
const LEADS = squashed([...MARKS, "cc-plugin"]);
/** …and all its words may not join to one of these. */
const WHOLE = squashed([...MARKS, "claude-code", "claude-mods"]);
const LONGEST = Math.max(...[...LEADS, ...WHOLE].map((w) => w.length));
const OFFICIAL_BESIDE = /official[^a-z0-9]*(?:anthropic|claude)|(?:anthropic|claude)[^a-z0-9]*official/i;

/**
 * Whether the client reserves plugin name `name` for Anthropic (RESERVED_PLUGIN_NAME_RULE): the
 * name read as words (`claude_api`, `c-laude`, `Claude.API` are `claude` + …), its first words
 * joined (`cc-plugin-x`: `ccplugin` + `x`) or all of them (`claudecode`), and `official` beside
 * `claude`/`anthropic` as written or with the separators taken out (`officia-l-claude`). The client
 * first folds look-alike letters of a name outside printable ASCII; such a name fails its id rule
 * anyway (idPartAccepted), so the catalog never offers one and this reads ASCII as written.
 */
export function reservedByClient(name: string): boolean {
  const parts = words(name);
  let joined = "";
  for (const [i, part] of parts.entries()) {
    joined += part;
    if ((i === parts.length - 1 ? WHOLE : LEADS).has(joined)) return true;
    if (joined.length > LONGEST) break;
  }
  return OFFICIAL_BESIDE.test(name) || OFFICIAL_BESIDE.test(parts.join(""));
}

/** Anthropic's own marketplaces, whose entries the client does not hold to the reserved-name rule. */
export const ANTHROPIC_CATALOGS = new Set([
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
  "first-party-plugins",
  "claude-tag-plugins",
  "healthcare",
]);

/** Every marketplace name the client keeps for official Anthropic marketplaces: added only from github.com/anthropics/. */
export const OFFICIAL_MARKETPLACES = new Set([
  ...ANTHROPIC_CATALOGS,
  "claude-community",
  "claude-plugins-community",
  "anthropic-plugin-directory",
  "claude-plugin-directory",
]);

/**
 * Why the client refuses plugin `name` listed in marketplace `marketplace`, or null: a name its id
 * rule refuses, or one it reserves for Anthropic (unless the marketplace is one of Anthropic's own).
 */
export function pluginNameProblem(name: string, marketplace: string): string | null {
  if (!idPartAccepted(name)) return `plugin name not installable: ${ID_CHARACTERS}`;
  if (reservedByClient(name) && !ANTHROPIC_CATALOGS.has(marketplace.toLowerCase())) return RESERVED_PLUGIN_NAME;
  return null;
}

/** Why the client refuses an install line `/plugin install <name>@<marketplace>`, or null (any other line). */
export function pluginLineProblem(command: string): string | null {
  const id = /^\/plugin install (\S+)$/.exec(command)?.[1];
  if (id === undefined) return null;
  const at = id.lastIndexOf("@");
  if (at < 0) return null;
  const marketplace = id.slice(at + 1);
  if (!idPartAccepted(marketplace)) return `marketplace name not installable: ${ID_CHARACTERS}`;
  return pluginNameProblem(id.slice(0, at), marketplace);
}
