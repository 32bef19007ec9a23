/**
 * Repositories with owner files: one of each thing an owner may ask (exclude, deprecate with a
 * replacement, name the canonical copy), verified and unverified organizations, and hostile files
 * (oversize, wrong types, deep nesting, pointers at a look-alike, a missing repository, itself or
 * a fork of itself, attempts at keys no owner may set).
 */
import type { RepoSeed } from "./github-repos";

export const OWNER_FILE = ".plugin-catalog.yml";
const PLUGIN = { ".claude-plugin/plugin.json": "{}" };

/** A server.json with one npm package, so the MCP registry view serves the plugin. */
function serverJson(id: string): string {
  return JSON.stringify({
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
    name: `io.github.${id}`,
    description: "An MCP server",
    version: "2.0.0",
    repository: { url: `https://github.com/${id}`, source: "github" },
    packages: [{ registryType: "npm", identifier: `@${id}`, version: "2.0.0", transport: { type: "stdio" } }],
  });
}

const owned = (full_name: string, text: string, extra: Partial<RepoSeed> = {}): RepoSeed => ({
  full_name,
  stars: 50,
  ...extra,
  files: { ...PLUGIN, ...extra.files, [OWNER_FILE]: text },
});

/** What an owner may ask, each honoured. */
export const OWNERS = {
  original: { full_name: "acme/original", stars: 500, files: PLUGIN } satisfies RepoSeed,
  gone: owned("acme/gone", "exclude: true\n"),
  // Saved by an editor that writes a byte order mark first.
  marked: owned("acme/marked", "\uFEFFexclude: true\n"),
  old: owned("acme/old-server", "deprecated:\n  message: Moved into acme/original.\n  replacement: acme/original\n", {
    files: { "server.json": serverJson("acme/old-server") },
  }),
  // More stars than the original: without its owner's word it would rank above it.
  copy: owned("mirror/original-copy", '{"canonical": "acme/original"}', { stars: 5000 }),
  verified: { full_name: "bigorg/tool", stars: 80, orgVerified: true, files: PLUGIN } satisfies RepoSeed,
  unverified: { full_name: "smallorg/tool", stars: 70, orgVerified: false, files: PLUGIN } satisfies RepoSeed,
};

/** A look-alike of a popular plugin: same name, another owner, under a tenth of its stars. */
export const LOOKALIKE = {
  popular: { full_name: "big/superpowers", stars: 1000, files: PLUGIN } satisfies RepoSeed,
  imitation: { full_name: "evil/superpowers", stars: 10, files: PLUGIN } satisfies RepoSeed,
};

/** Owner files that must change nothing but what they may. */
export const HOSTILE_OWNERS = {
  oversize: owned("hostile/oversize", `exclude: true\n# ${"x".repeat(5000)}\n`),
  wrongTypes: owned("hostile/wrong-types", 'exclude: "yes"\ncanonical: 42\n'),
  deep: owned("hostile/deep", `deprecated: ${"[".repeat(1500)}${"]".repeat(1500)}\n`),
  aliases: owned("hostile/aliases", "deprecated: &d\n  message: hi\nexclude: true\ncanonical: *d\n"),
  anchor: owned("hostile/anchor", "deprecated: &d\n  message: hi\n"),
  // Keys no owner file may set: ignored; the deprecation beside them still holds.
  promote: owned(
    "hostile/promote",
    "curated: true\ncategory: skills\nstars: 999999\ndescription: best plugin\ndeprecated:\n  message: Old.\n",
  ),
  lookalike: owned(
    "hostile/points-at-lookalike",
    "deprecated:\n  replacement: evil/superpowers\ncanonical: evil/superpowers\n",
  ),
  missing: owned("hostile/points-at-missing", "canonical: nobody/missing\n"),
  itself: owned("hostile/itself", "deprecated:\n  replacement: hostile/itself\ncanonical: HOSTILE/itself\n"),
  forkee: owned("hostile/forkee", "canonical: acme/forked\n"),
  fork: { full_name: "acme/forked", stars: 40, parent: "hostile/forkee", files: PLUGIN } satisfies RepoSeed,
};
