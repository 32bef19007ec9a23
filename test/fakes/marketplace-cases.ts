/**
 * Marketplace manifests in the shapes Claude Code's marketplace reference allows and refuses:
 * names its CLI takes or refuses, and one marketplace with an entry of every source kind. Shared
 * by the reader's tests and the test that runs the real client over the same files.
 */
export const SHA = "0123456789abcdef0123456789abcdef01234567";

export interface MarketCase {
  /** The marketplace.json, as written to `.claude-plugin/marketplace.json`. */
  manifest: { name: string; owner: { name: string }; description: string; plugins: Array<Record<string, unknown>> };
}

const entry = (name: string, source: unknown) => ({ name, source, description: `The ${name} plugin` });
const market = (name: string, plugins: Array<Record<string, unknown>>): MarketCase => ({
  manifest: { name, owner: { name: "Acme" }, description: "A test marketplace", plugins },
});

/** Names the CLI refuses as impersonating an official Anthropic marketplace. */
export const IMPERSONATING = [
  "claude-plugins-x",
  "claude-official-tools",
  "anthropic-marketplace-extra",
  "my-claude-official",
  "official_anthropic_tools",
  "claudeofficial",
  "claude_plugins",
  "acmé-tools",
  // Since 2.1.3xx: `directory` too, and the words read with their separators taken out.
  "claude-directory",
  "anthropic_directories",
  "claude.plugins",
  "-claude-plugins",
  "claudeplugins",
];
/** Names the CLI adds, although they start with `claude`/`anthropic` or are not kebab-case. */
export const ALLOWED = [
  "claude-foo",
  "anthropic-foo",
  "anthropic-tools",
  "cc-plugin-foo",
  "xclaude-plugins",
  "Acme-Tools",
  "my-claude-directory",
  "claude-code-plugins-x",
];
/**
 * Names the CLI refuses for other reasons: spaces, path separators, its own source names (case
 * aside), Anthropic's own names (outside github.com/anthropics/), characters a plugin id cannot hold.
 */
export const REFUSED_OTHERWISE = [
  "acme space",
  "a/b",
  "..x",
  "inline",
  "builtin",
  "skills-dir",
  "claude-plugins-official",
  "claude-community",
  // Since 2.1.3xx: two more source names, more of Anthropic's own names, and the plugin id's characters.
  "synced",
  "Claude-Plugin-Test",
  "healthcare",
  "first-party-plugins",
  "claude-plugin-directory",
  "acme+tools",
  "_acme",
];

/** A marketplace named `name` with one plugin at `./p`. */
export const named = (name: string) => market(name, [entry("foo", "./p")]);

/** Entries of every source kind the CLI installs. */
export const ACCEPTED_SOURCES = market("acme-tools", [
  entry("root", "."),
  entry("root-slash", "./"),
  entry("nested", "./plugins/nested"),
  entry("gh", { source: "github", repo: "octo/repo" }),
  entry("gh-pinned", { source: "github", repo: "octo/repo", ref: "v1.0.0", sha: SHA }),
  entry("by-url", { source: "url", url: "https://gitlab.com/team/plugin.git" }),
  entry("by-ssh", { source: "url", url: "git@gitlab.com:team/plugin.git", ref: "main", sha: SHA }),
  entry("sub", { source: "git-subdir", url: "https://github.com/octo/mono.git", path: "tools/claude-plugin" }),
  entry("sub-bare", { source: "git-subdir", url: "octo/mono", path: "plugins/sub2", ref: "main", sha: SHA }),
  entry("from-npm", { source: "npm", package: "@acme/claude-plugin" }),
]);

/** Entries the CLI refuses, beside one it takes. */
export const REFUSED_SOURCES = market("acme-tools", [
  entry("good", "./good"),
  entry("no-prefix", "plugins/foo"),
  entry("up", "../foo"),
  entry("sub-no-path", { source: "git-subdir", url: "octo/mono" }),
  entry("pip", { source: "pip", package: "acme-plugin" }),
  entry("git", { source: "git", url: "https://example.com/x.git" }),
  entry("bad-sha", { source: "github", repo: "octo/repo", sha: "ABC123" }),
  entry("mystery", { source: "unsupported" }),
  entry("my plugin", "./spaced"),
]);

/** Two entries under one name: the CLI's validation refuses it; its install takes the first. */
export const DUPLICATE = market("acme-dup", [entry("foo", "./a"), entry("foo", "./b")]);
