/**
 * The real Claude Code CLI (the pinned devDependency) judges the marketplace fixtures, offline:
 * `claude plugin validate` for names and entries, `claude plugin marketplace add` for the names it
 * keeps for Anthropic's own repositories. The reader must agree with it on every one. The client
 * runs with a throw-away HOME, its non-essential traffic off, and a proxy on the loopback range, so
 * nothing leaves the machine.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pluginNameRefusal } from "../../../src/refresh/manifests/plugin-manifest";
import { claude, validateErrors } from "../../claude-cli";
import {
  ACCEPTED_SOURCES,
  ALLOWED,
  DUPLICATE,
  IMPERSONATING,
  type MarketCase,
  named,
  REFUSED_SOURCES,
} from "../../fakes/marketplace-cases";
import { json, readRepo } from "./read";

const root = mkdtempSync(join(tmpdir(), "claude-client-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
/** The case written out as a marketplace folder, with a plugin folder for each relative source. */
function folder(c: MarketCase): string {
  const dir = join(root, `m${dirs++}`);
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  writeFileSync(join(dir, ".claude-plugin/marketplace.json"), json(c.manifest));
  for (const p of c.manifest.plugins) {
    if (typeof p.source !== "string" || !p.source.startsWith("./") || pluginNameRefusal(p.name)) continue;
    mkdirSync(join(dir, p.source, ".claude-plugin"), { recursive: true });
    const manifest = { name: p.name, version: "1.0.0", description: "d", author: { name: "Acme" } };
    writeFileSync(join(dir, p.source, ".claude-plugin/plugin.json"), json(manifest));
  }
  return dir;
}

const run = (args: string[]) => claude(root, args);

/** Indices of entries the CLI refuses; of duplicates, all but the first (the one it installs). */
function refusedByClient(c: MarketCase, errs: string[]): number[] {
  const out = new Set<number>();
  for (const e of errs) {
    const index = /^plugins(?:\.(\d+)|\[(\d+)\])/.exec(e);
    if (!index) continue;
    const i = Number(index[1] ?? index[2]);
    const name = c.manifest.plugins[i]!.name;
    if (e.includes("Duplicate plugin name") && c.manifest.plugins.findIndex((p) => p.name === name) === i) continue;
    out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

/** Indices of entries the reader refuses: not listed (a name it cannot list) or listed with `refused`. */
function refusedByReader(c: MarketCase): { marketplace: boolean; entries: number[] } {
  const contents = readRepo({ ".claude-plugin/marketplace.json": json(c.manifest) }).details!.contents!;
  const listed = [...contents.plugins];
  const entries: number[] = [];
  c.manifest.plugins.forEach((p, i) => {
    if (pluginNameRefusal(p.name)) entries.push(i);
    else if (listed.shift()?.refused) entries.push(i);
  });
  return { marketplace: contents.marketplace?.refused != null, entries };
}

/** A sample of each kind of name (each call of the client takes seconds), and both entry cases. */
const names = [IMPERSONATING[0]!, "acmé-tools", ...ALLOWED.slice(0, 2), "acme space", "a/b", "claude-plugins-official"];
/** `validate` passes Anthropic's own names; `marketplace add` is what refuses them outside its repositories. */
const ADDED = new Set(["claude-plugins-official", ALLOWED[0]!]);
const cases = [
  ...names.map((name) => ({ label: name, c: named(name) })),
  { label: "every accepted source", c: ACCEPTED_SOURCES },
  { label: "refused sources", c: REFUSED_SOURCES },
  { label: "duplicate names", c: DUPLICATE },
];

/** What the client says of one case. */
async function judge(label: string, c: MarketCase) {
  const dir = folder(c);
  const validated = await run(["plugin", "validate", dir]);
  const errs = validateErrors(validated.out);
  expect({ label, exit: validated.code }).toEqual({ label, exit: errs.length ? 1 : 0 });
  const added = ADDED.has(label) ? await run(["plugin", "marketplace", "add", dir]) : { code: 0 };
  const nameRefused = errs.some((e) => e.startsWith("name:")) || added.code !== 0;
  return { label, marketplace: nameRefused, entries: refusedByClient(c, errs) };
}

describe("the real Claude Code CLI agrees with the reader", () => {
  test(
    "on every marketplace fixture: the marketplace refused or not, and each entry",
    async () => {
      const judged: Array<{ label: string; marketplace: boolean; entries: number[] }> = [];
      for (let i = 0; i < cases.length; i += 3)
        judged.push(...(await Promise.all(cases.slice(i, i + 3).map(({ label, c }) => judge(label, c)))));
      const reader = cases.map(({ label, c }) => ({ label, ...refusedByReader(c) }));
      expect(reader).toEqual(judged);
      // The fixtures hold both outcomes, so the agreement is not vacuous.
      expect(judged.filter((j) => j.marketplace).map((j) => j.label)).toEqual([
        IMPERSONATING[0]!,
        "acmé-tools",
        "acme space",
        "a/b",
        "claude-plugins-official",
      ]);
      expect(judged.at(-2)!.entries).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(judged.at(-1)!.entries).toEqual([1]);
    },
    { timeout: 60_000 },
  );
});
