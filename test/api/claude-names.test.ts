/**
 * The name rules of src/catalog/model/claude-names.ts and src/refresh/manifests/marketplace-names.ts
 * against the real Claude Code client (the pinned devDependency), offline: hundreds of plugin
 * names in one marketplace under `claude plugin validate` (the names it reserves for Anthropic, the
 * characters its plugin ids hold), Anthropic's own marketplaces that it exempts, and marketplace
 * names under `validate` and `plugin marketplace add`. A release that changes a rule fails here.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ANTHROPIC_CATALOGS,
  idPartAccepted,
  RESERVED_PLUGIN_NAME_RULE,
  reservedByClient,
} from "../../src/catalog/model/claude-names";
import { marketplaceNameRefusal } from "../../src/refresh/manifests/marketplace-names";
import { claude, validateErrors } from "../claude-cli";
import { ALLOWED, IMPERSONATING, REFUSED_OTHERWISE } from "../fakes/marketplace-cases";
import { PLANTED_RESERVED } from "../fakes/reserved-names";

const root = mkdtempSync(join(tmpdir(), "claude-names-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Names met in the catalog and at the edges of the rule, each read by hand once. */
const SEEN = [
  ...PLANTED_RESERVED,
  ...["claude", "Claude", "CLAUDE-api", "claude_api", "claude.api", "claudeapi", "claude--x", "claude-", "-claude"],
  ...["anthropic", "anthropics", "anthropics-x", "anthropicx", "anthropicss", "anthropic-s", "anthro-pic"],
  ...["cc-plugin", "cc-pluginx", "cc-plugins-x", "CC-Plugin-x", "ccplugin-x", "ccplugin", "c-c-plugin-x", "cc-plugin-"],
  ...["claude-code", "claudecode", "cla-udecode", "claudecode-x", "claude-mods", "claudemods", "claudemods-x"],
  ...["official-claude", "my-claude-official", "claudeofficial", "officialxclaude", "officia-l-claude"],
  ...["unofficial-claude", "officially-claude", "anthropicsofficial", "anthropicofficials", "claude0fficial"],
  ...["claude-mem", "claude-hud-jarrodwatts", "jarrodwatts-claude-hud", "edmunds-claude-code", "context7-anthropics"],
  ...["c-laude", "c.l.a.u.d.e", "clau-de-x", "cla-udex", "claude1", "claude1-x", "claude.1", "c1aude-x", "claudia"],
  ...["foo+bar", "_foo", "foo@x", "foo~1", "foo.bar", "Foo_Bar", "9lives", "-lint", "lint-", "a"],
];

/** Every name of up to three words from pieces that meet the rule, joined by each separator. */
function generated(): string[] {
  const pieces = ["claude", "anthropic", "anthropics", "cc", "plugin", "code", "mods", "official", "api", "x", "c"];
  const seps = ["-", "_", ".", ""];
  const out = new Set<string>();
  for (const a of pieces)
    for (const b of pieces) {
      for (const s of seps) out.add(`${a}${s}${b}`);
      for (const c of ["x", "official", "plugin", "claude"]) out.add(`${a}-${b}-${c}`);
    }
  return [...out];
}

const NAMES = [...new Set([...SEEN, ...generated()])];

/** A marketplace file of `names`, each a plugin at an https address (nothing is fetched by validate). */
function marketFile(label: string, marketplace: string, names: string[]): string {
  const plugins = names.map((name) => ({
    name,
    source: { source: "url", url: "https://github.com/acme/plugin.git" },
    description: "A plugin.",
  }));
  const file = join(root, `${label}.json`);
  writeFileSync(file, JSON.stringify({ name: marketplace, owner: { name: "Acme" }, description: "d", plugins }));
  return file;
}

/** What the client says of each plugin name: reserved for Anthropic, and whether its id rule takes it. */
async function judgePlugins(marketplace: string, names: string[]) {
  const { out } = await claude(root, ["plugin", "validate", marketFile(marketplace, marketplace, names)]);
  const errors = validateErrors(out);
  const of = (i: number) => errors.filter((e) => e.startsWith(`plugins[${i}].name:`));
  return names.map((name, i) => ({
    name,
    reserved: of(i).some((e) => e.includes("is reserved: it passes as one of Anthropic's own")),
    id: !of(i).some((e) => e.includes("Claude Code cannot install plugin")),
    rule: of(i).some((e) => e.includes(RESERVED_PLUGIN_NAME_RULE)),
  }));
}

describe("plugin names, as the real client judges them", () => {
  test(
    `reservedByClient and the id rule agree with claude plugin validate on ${NAMES.length} names`,
    async () => {
      const judged = await judgePlugins("acme-tools", NAMES);
      const ours = NAMES.map((name) => ({
        name,
        reserved: reservedByClient(name),
        id: idPartAccepted(name),
        rule: reservedByClient(name),
      }));
      expect(ours).toEqual(judged);
      // Both outcomes, many times over: the agreement is not vacuous.
      expect(judged.filter((j) => j.reserved).length).toBeGreaterThan(100);
      expect(judged.filter((j) => !j.reserved).length).toBeGreaterThan(100);
      expect(judged.filter((j) => !j.id).map((j) => j.name)).toEqual([
        "-claude",
        "foo+bar",
        "_foo",
        "foo@x",
        "foo~1",
        "-lint",
      ]);
      for (const name of PLANTED_RESERVED) expect(judged.find((j) => j.name === name)!.reserved).toBe(true);
    },
    { timeout: 60_000 },
  );

  test(
    "Anthropic's own marketplaces are exempt, and only they: the client's list and ours are the same",
    async () => {
      const names = ["claude-api", "claude-code-setup"];
      const official = [...ANTHROPIC_CATALOGS, "claude-community", "claude-plugin-directory", "acme-tools"];
      const judged = await Promise.all(
        official.map(async (m) => ({ m, exempt: !(await judgePlugins(m, names)).some((j) => j.reserved) })),
      );
      expect(judged).toEqual(official.map((m) => ({ m, exempt: ANTHROPIC_CATALOGS.has(m) })));
    },
    { timeout: 120_000 },
  );
});

/** The case as a marketplace folder with one plugin, `foo`, at `./p`. */
function folder(label: string, name: string): string {
  const dir = join(root, label);
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  mkdirSync(join(dir, "p", ".claude-plugin"), { recursive: true });
  const manifest = { name, owner: { name: "Acme" }, description: "d", plugins: [{ name: "foo", source: "./p" }] };
  writeFileSync(join(dir, ".claude-plugin/marketplace.json"), JSON.stringify(manifest));
  const plugin = { name: "foo", version: "1.0.0", description: "d", author: { name: "Acme" } };
  writeFileSync(join(dir, "p/.claude-plugin/plugin.json"), JSON.stringify(plugin));
  return dir;
}

describe("marketplace names, as the real client judges them", () => {
  test(
    "marketplaceNameRefusal agrees with validate and marketplace add (a local folder: not Anthropic's GitHub)",
    async () => {
      const names = [...IMPERSONATING, ...ALLOWED, ...REFUSED_OTHERWISE].filter((n) => !/\s/.test(n));
      const judged: Array<{ name: string; refused: boolean }> = [];
      for (let i = 0; i < names.length; i += 6) {
        const batch = names.slice(i, i + 6).map(async (name, k) => {
          const dir = folder(`m${i + k}`, name);
          const validated = validateErrors((await claude(root, ["plugin", "validate", dir])).out);
          if (validated.some((e) => e.startsWith("name:"))) return { name, refused: true };
          // What validate passes, add may still refuse: Anthropic's names outside its GitHub repositories.
          return { name, refused: (await claude(root, ["plugin", "marketplace", "add", dir])).code !== 0 };
        });
        judged.push(...(await Promise.all(batch)));
      }
      const ours = names.map((name) => ({ name, refused: marketplaceNameRefusal(name, "acme/repo") !== null }));
      expect(ours).toEqual(judged);
      expect(judged.filter((j) => !j.refused).map((j) => j.name)).toEqual(ALLOWED);
    },
    { timeout: 180_000 },
  );
});
