/**
 * Catalogs whose marketplaces name plugins as the Claude Code client refuses them: names it
 * reserves for Anthropic, and names that two or three entries share so that a rename would land on
 * another entry's name or on a reserved one. Shared by the served marketplaces' tests and the test
 * that runs the real client over them.
 */
import { marketplacePlugin, snapshotInput } from "../helpers";

/** The reserved names planted, each refused by the client (test/api/claude-names.test.ts). */
export const PLANTED_RESERVED = ["claude-api", "anthropic-tools", "cc-plugin-x", "claude-official-thing"];

/** A catalog with names the client reserves for Anthropic, and renames that would land on taken names. */
export const reservedCatalog = (commit?: string) =>
  snapshotInput([
    marketplacePlugin(
      "acme/market",
      [
        ...PLANTED_RESERVED.map((name): [string, string] => [name, `./plugins/${name}`]),
        ["lint", "./plugins/lint"],
        ["kept", "./"],
      ],
      { stars: 50, curated: true, categories: ["skills"] },
      commit,
    ),
    // `lint` is taken twice, and `lint-acme` is a third entry's own name: acme's rename goes on.
    marketplacePlugin("beta/market", [["lint", "./lint"]], { stars: 40, categories: ["skills"] }, commit),
    marketplacePlugin("gamma/market", [["lint-acme", "./"]], { stars: 30, categories: ["skills"] }, commit),
    // `tool` twice: the owner appended would read `tool-official-claude`, a reserved name; so would the
    // repository after it, so that entry is left out rather than named as the client refuses.
    marketplacePlugin("official-claude/kit", [["tool", "./tool"]], { stars: 20, categories: ["skills"] }, commit),
    marketplacePlugin("delta/kit", [["tool", "./tool"]], { stars: 10, categories: ["skills"] }, commit),
  ]);
