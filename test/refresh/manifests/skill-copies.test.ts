/**
 * Copies of skills (issue 37, item 4): each skill folder's tree id comes in the refresh's own
 * queries; a skill whose folder equals one in another repository created earlier is marked
 * `copy_of` that repository, whatever name either gives it, shown on the plugin page and counted
 * in /metrics. A real refresh against the fake platform, served by the real app.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { markSkillCopies } from "../../../src/catalog/model/skill-copies";
import { Env, published } from "../support";

let env: Env | undefined;
afterEach(() => {
  env?.stop();
  env = undefined;
});

const pdf = {
  "SKILL.md": "---\nname: pdf\ndescription: Reads and fills PDF forms\n---\n\n# PDF\n",
  "forms.py": "print('fill')\n",
};
/** `files` placed under folder `at`. */
const under = (at: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([path, text]) => [`${at}/${path}`, text]));

interface Skill {
  name: string;
  tree?: string;
  copy_of?: string;
}

describe("copies of skills", () => {
  test("a later repository's identical skill folder is a copy of the earlier one's, wherever it keeps it", async () => {
    const run = new Env({ searches: [{ query: "topic:agent-skills" }] });
    env = run;
    const seed = (full_name: string, created_at: string, files: Record<string, string>) =>
      run.github.add({ full_name, created_at, topics: ["agent-skills"], files });
    seed("first/skills", "2024-01-01T00:00:00Z", under("skills/pdf", pdf));
    // Renamed folder and another place: the same files are the same tree.
    seed("later/kit", "2025-03-01T00:00:00Z", {
      ...under(".claude/skills/pdf-forms", pdf),
      ...under("skills/own", { "SKILL.md": "---\nname: own\ndescription: Its own\n---\n" }),
    });
    // One changed byte: no copy.
    seed("other/kit", "2025-06-01T00:00:00Z", under("skills/pdf", { ...pdf, "forms.py": "print('fill!')\n" }));
    const report = published(await run.refresh());
    expect(report.usage.calls.graphql).toBe(2);
    const server = run.serve();
    const skillsOf = async (id: string) => {
      const response = await fetch(`${server.url}/api/v1/plugins/${id}?include=contents`);
      return ((await response.json()) as { data: { plugin: { contents: { skills: Skill[] } } } }).data.plugin.contents
        .skills;
    };
    const [first, later, other] = [
      await skillsOf("first/skills"),
      await skillsOf("later/kit"),
      await skillsOf("other/kit"),
    ];
    expect(first[0]!.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(first[0]!.copy_of).toBeUndefined();
    const copied = later.find((s) => s.name === "pdf");
    expect(copied).toMatchObject({ tree: first[0]!.tree, copy_of: "first/skills" });
    expect(later.find((s) => s.name === "own")!.copy_of).toBeUndefined();
    expect(other[0]!.tree).not.toBe(first[0]!.tree);
    expect(other[0]!.copy_of).toBeUndefined();
    const page = await (await fetch(`${server.url}/plugin/later/kit`)).text();
    expect(page).toContain('a copy of a skill in <a href="/plugin/first/skills">first/skills</a>');
  });

  test("the earliest-created repository is the original; a stale mark is cleared; a repository never copies itself", () => {
    const tree = "a".repeat(40);
    const record = (id: string, created_at: string, skills: Skill[]) => ({
      id,
      created_at,
      details: {
        contents: { skills: skills.map((s) => ({ description: null, ...s })) },
      } as never,
    });
    const records = [
      record("b/late", "2025-01-01T00:00:00Z", [{ name: "x", tree, copy_of: "c/stale" }]),
      record("a/early", "2023-01-01T00:00:00Z", [
        { name: "x", tree },
        { name: "y", tree },
      ]),
      record("c/stale", "2024-01-01T00:00:00Z", [{ name: "z", tree: "b".repeat(40), copy_of: "a/early" }]),
    ];
    expect(markSkillCopies(records)).toBe(1);
    const skills = records.map((r) => (r.details as { contents: { skills: Skill[] } }).contents.skills);
    expect(skills[0]![0]!.copy_of).toBe("a/early");
    expect(skills[1]!.map((s) => s.copy_of)).toEqual([undefined, undefined]);
    expect(skills[2]![0]!.copy_of).toBeUndefined();
  });
});
