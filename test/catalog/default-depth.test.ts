/**
 * The embedded default as a newcomer meets it: db/depth.json's details are on its records, so
 * `has=skills` and `has=install` find what the data file says (hundreds), `include=` answers the
 * file's details, and a plugin page shows its real install commands. Every expectation is read
 * from the data files, none written by hand.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pluginLineProblem } from "../../src/catalog/model/claude-names";
import { readDepthFile } from "../../src/catalog/model/depth";
import { type HasKind, hasKinds } from "../../src/catalog/model/details";
import { DB_DIR, loadDefaultData, loadEditorial } from "../../src/catalog/model/editorial";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { startServer, type TestServer } from "../helpers";

const depth = readDepthFile(DB_DIR).plugins;
const excluded = new Set(
  Object.entries(loadEditorial().overrides)
    .filter(([, o]) => o.exclude)
    .map(([id]) => id.toLowerCase()),
);
const served = new Set(
  loadDefaultData()
    .facts.map((f) => f.full_name.toLowerCase())
    .filter((id) => !excluded.has(id)),
);
/** The file's entries whose repository the default serves. */
const entries = Object.entries(depth).filter(([id]) => served.has(id.toLowerCase()));
const having = (kind: HasKind) => entries.filter(([, e]) => hasKinds(e.details).includes(kind)).length;

let server: TestServer;
beforeAll(() => {
  server = startServer(defaultSnapshotInput());
});
afterAll(() => server.stop());

describe("the embedded default carries db/depth.json", () => {
  test("every entry names a repository of the default, read at a commit on a date", () => {
    const ids = new Set(loadDefaultData().facts.map((f) => f.full_name));
    for (const [id, entry] of Object.entries(depth)) {
      expect({ id, known: ids.has(id) }).toEqual({ id, known: true });
      expect(Date.parse(entry.read_at)).toBeGreaterThan(Date.parse("2025-01-01T00:00:00Z"));
    }
  });

  test("has= finds the plugins the file gives skills, MCP servers or install lines: hundreds of them", async () => {
    for (const kind of ["skills", "mcp", "install"] as const) {
      const { data } = await server.json(`/api/v1/plugins?has=${kind}&pageSize=1`);
      expect({ kind, total: data.total }).toEqual({ kind, total: having(kind) });
      expect({ kind, some: data.total > 0 }).toEqual({ kind, some: true });
    }
    for (const kind of ["skills", "mcp", "install"] as const)
      expect({ kind, hundreds: having(kind) > 100 }).toEqual({ kind, hundreds: true });
  });

  test("every command the default serves is pasted into a shell as it is: no redirection, quote or expansion", async () => {
    const commands: string[] = [];
    for (let page = 1; ; page++) {
      const { data } = await server.json(`/api/v1/plugins?has=install&include=install&pageSize=100&page=${page}`);
      for (const p of data.items as Array<{ install?: Array<{ command?: string }> }>)
        for (const line of p.install ?? []) if (line.command) commands.push(line.command);
      if (page * 100 >= data.total) break;
    }
    expect(commands.length).toBeGreaterThan(100);
    // The file holds placeholders for the user's values: each must be a word a shell passes on.
    expect(commands.some((c) => /=YOUR_[A-Z]/.test(c))).toBe(true);
    expect(commands.filter((c) => /[<>|;&$`"'\\(){}*?!#~]/.test(c))).toEqual([]);
    // And none the current Claude Code refuses (a name it reserves for Anthropic, an id it cannot parse).
    expect(commands.filter((c) => pluginLineProblem(c) !== null)).toEqual([]);
  });

  test("include= answers each entry's details", async () => {
    for (const [id, entry] of entries.slice(0, 40)) {
      const { data } = await server.json(`/api/v1/plugins/${id}?include=contents,install,works_with`);
      const { install, works_with } = data.plugin;
      // `copy_of` is the snapshot's, across repositories (tested below); the rest is the file's.
      const contents = data.plugin.contents && {
        ...data.plugin.contents,
        skills: data.plugin.contents.skills.map(({ copy_of: _, ...skill }: { copy_of?: string }) => skill),
      };
      expect({ id, contents, install, works_with }).toEqual({
        id,
        contents: entry.details.contents,
        install: entry.details.install,
        works_with: entry.details.works_with,
      });
    }
  });

  test("skills come from every place the reader knows, each folder's with its path; a name declared twice has no line", async () => {
    const skills = entries.flatMap(([, e]) => e.details.contents?.skills ?? []);
    const places = new Set(skills.map((s) => (s.path ? s.path.split("/").slice(0, -1).join("/") : "")));
    for (const place of ["skills", ".claude/skills", ".agents/skills"]) expect(places.has(place)).toBe(true);
    expect([...places].some((p) => /^plugins\/[^/]+\/skills$/.test(p))).toBe(true);
    const { data } = await server.json("/api/v1/plugins/wasabeef/claude-code-cookbook?include=contents,install");
    const served = data.plugin.contents.skills as Array<{ name: string; no_install?: string }>;
    const names = served.map((s) => s.name);
    // A name declared twice (the plugin folders of two languages) gets no install line; both are kept.
    const twice = served.filter((s) => names.indexOf(s.name) !== names.lastIndexOf(s.name));
    expect(twice.length).toBeGreaterThan(1);
    const page = await (await server.get("/plugin/wasabeef/claude-code-cookbook")).text();
    expect(page).toContain(`no install line: ${Bun.escapeHTML(twice[0]!.no_install!)}`);
    for (const skill of twice) {
      expect(skill.no_install).toContain("declared twice");
      const lines = data.plugin.install.filter((i: { command?: string }) =>
        i.command?.endsWith(` --skill ${skill.name} --agent claude-code`),
      );
      expect(lines).toEqual([]);
    }
  });

  test("a skill folder equal to one of an earlier-created repository is served as its copy", async () => {
    const created = new Map(loadDefaultData().facts.map((f) => [f.full_name, f.created_at]));
    const trees = new Map<string, string[]>();
    for (const [id, e] of entries)
      for (const s of e.details.contents?.skills ?? [])
        if (s.tree) trees.set(s.tree, [...(trees.get(s.tree) ?? []), id]);
    const copied = entries.flatMap(([id, e]) =>
      (e.details.contents?.skills ?? []).flatMap((s) => {
        const earlier = (trees.get(s.tree ?? "") ?? []).filter((o) => o !== id && created.get(o)! < created.get(id)!);
        return earlier.length ? [{ id, name: s.name }] : [];
      }),
    );
    expect(copied.length).toBeGreaterThan(0);
    for (const { id, name } of copied) {
      const { data } = await server.json(`/api/v1/plugins/${id}?include=contents`);
      const skill = data.plugin.contents.skills.find(
        (s: { name: string; copy_of?: string }) => s.name === name && s.copy_of,
      );
      expect({ id, name, copy: typeof skill?.copy_of }).toEqual({ id, name, copy: "string" });
    }
  });

  test("/plugin/obra/superpowers shows its marketplace, its skills and their install commands", async () => {
    const entry = depth["obra/superpowers"];
    expect(entry).toBeDefined();
    const { contents, install } = entry!.details;
    expect(install.map((i) => i.kind)).toEqual(expect.arrayContaining(["marketplace", "plugin", "skill"]));
    expect(contents!.counts.skills).toBeGreaterThan(0);
    const page = await (await server.get("/plugin/obra/superpowers")).text();
    for (const step of install) if (step.command) expect(page).toContain(Bun.escapeHTML(step.command));
    for (const skill of contents!.skills) expect(page).toContain(Bun.escapeHTML(skill.name));
    for (const plugin of contents!.plugins) expect(page).toContain(Bun.escapeHTML(plugin.name));
  });
});
