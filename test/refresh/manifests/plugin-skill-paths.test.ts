/**
 * The `skills` paths a marketplace plugin's plugin.json lists, through a real refresh against the
 * fake platform and served by the real app: a folder holding SKILL.md is one skill, a folder of
 * skill folders gives each, `./skills/` itself and a file add nothing; the plugin is no longer
 * partial, and its context is the real client's (`claude --plugin-dir <dir> plugin details`).
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PluginContextSummary } from "../../../src/catalog/model/context-cost";
import type { PluginParts } from "../../../src/catalog/model/plugin-parts-schema";
import { claude } from "../../claude-cli";
import { Env, published } from "../support";
import { json } from "./read";

const root = mkdtempSync(join(tmpdir(), "plugin-skill-paths-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const skill = (name: string | null, description: string) =>
  `---\n${name ? `name: ${name}\n` : ""}description: ${description}\n---\n\n# Body\nDo it.\n`;

/** The plugin `kit`'s own files: plugin.json lists a skill folder, a folder of skills, `./skills/` and a file. */
const KIT: Record<string, string> = {
  ".claude-plugin/plugin.json": json({
    name: "kit",
    version: "1.0.0",
    skills: ["./extra/solo", "./more", "./skills/", "./notes.txt"],
  }),
  "extra/solo/SKILL.md": skill("solo-skill", "One skill, named by its front matter."),
  "more/alpha/SKILL.md": skill("alpha", "The first of a folder of skills."),
  "more/beta/SKILL.md": skill(null, "Named by its folder."),
  "more/not-a-skill/README.md": "# nothing here\n",
  "skills/base/SKILL.md": skill("base", "Found by the skills/ scan as well."),
  "notes.txt": "A file is no skill.\n",
};

function marketplace(): Record<string, string> {
  const files: Record<string, string> = {
    ".claude-plugin/marketplace.json": json({
      name: "acme-tools",
      owner: { name: "Acme" },
      plugins: [{ name: "kit", source: "./plugins/kit" }],
    }),
  };
  for (const [path, text] of Object.entries(KIT)) files[`plugins/kit/${path}`] = text;
  return files;
}

type Plugin = { name: string; contents?: PluginParts; context?: PluginContextSummary };

/** The client's always-on total and its Skills inventory for the plugin folder. */
async function clientView(files: Record<string, string>, at: string): Promise<{ total: number; skills: string[] }> {
  const dir = join(root, at, "kit");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const { code, out } = await claude(root, ["--plugin-dir", dir, "plugin", "details", "kit"]);
  expect(code).toBe(0);
  const total = /Always-on:\s+~([\d,]+) tok/.exec(out)?.[1];
  const line = /^ {2}Skills \((\d+)\)(?: {2}(.*))?$/m.exec(out);
  return { total: Number(total?.replaceAll(",", "")), skills: (line?.[2] ?? "").split(", ").filter(Boolean).sort() };
}

describe("skills paths a marketplace plugin's plugin.json lists", () => {
  test("are listed and read: the plugin names them, is not partial, and its context is the client's", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    run.github.add({ full_name: "acme/tools", topics: ["claude-code-plugin"], files: marketplace() });
    const report = published(await run.refresh());
    expect(report.usage.pluginListedQueries).toBe(1);
    const url = run.serve().url;
    const body = (await (await fetch(`${url}/api/v1/plugins/acme/tools?include=contents,context`)).json()) as {
      data: { plugin: { contents: { plugins: Plugin[] } } };
    };
    const kit = body.data.plugin.contents.plugins.find((p) => p.name === "kit")!;
    expect(kit.contents!.partial).toBeUndefined();
    expect(kit.contents!.skills.sort()).toEqual(["alpha", "base", "beta", "solo-skill"]);
    expect(kit.contents!.counts.skills).toBe(4);
    expect(kit.context!.complete).toBe(true);
    expect(kit.context!.counts.skills).toBe(4);
    const client = await clientView(KIT, "whole");
    expect(client.skills).toEqual(["alpha", "base", "beta", "solo-skill"]);
    expect(kit.context!.always_on).toBe(client.total);
  }, 60_000);

  test("a listed SKILL.md whose front matter is refused counts for the client but names nothing, with its reason", async () => {
    const run = new Env({ searches: [{ query: "topic:claude-code-plugin" }] });
    env = run;
    const files = marketplace();
    const own = { ...KIT, "more/beta/SKILL.md": "no front matter here\n" };
    for (const [path, text] of Object.entries(own)) files[`plugins/kit/${path}`] = text;
    run.github.add({ full_name: "acme/tools", topics: ["claude-code-plugin"], files });
    const report = published(await run.refresh());
    expect(Object.fromEntries(report.gate.leftOut)).toMatchObject({
      "manifest plugins/kit/more/beta/SKILL.md: no front matter": 1,
    });
    const served = await fetch(`${run.serve().url}/api/v1/plugins/acme/tools?include=contents,context`);
    const body = (await served.json()) as {
      data: { plugin: { contents: { plugins: Plugin[] } } };
    };
    const kit = body.data.plugin.contents.plugins.find((p) => p.name === "kit")!;
    expect(kit.contents!.skills.sort()).toEqual(["alpha", "base", "solo-skill"]);
    expect(kit.context!.counts.skills).toBe(4);
    const client = await clientView(own, "refused");
    expect(client.skills).toEqual(["alpha", "base", "beta", "solo-skill"]);
    expect(kit.context!.always_on).toBe(client.total);
  }, 60_000);
});
