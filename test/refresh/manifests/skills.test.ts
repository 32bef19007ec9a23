/**
 * Agent Skills: SKILL.md front matter read with bounded work (only `name` and `description`,
 * nesting refused before the parser), and every skill of a pack named, with its install line
 * where its SKILL.md was read. Expectations follow the Agent Skills specification.
 */
import { describe, expect, test } from "bun:test";
import { NO_INSTALL } from "../../../src/refresh/manifests/skill-folders";
import { commands, readRepo } from "./read";

const skill = (name: string, description: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n`;

describe("front matter", () => {
  test("flow collections nested thousands deep are refused for that reason, before parsing", () => {
    const deep = `${"[".repeat(4000)}${"]".repeat(4000)}`;
    const read = readRepo({ "SKILL.md": `---\nname: deep\ndescription: ${deep}\n---\n` });
    expect(read.refused).toEqual({ "manifest SKILL.md: front matter nested too deep": 1 });
    expect(read.details!.contents).toBeNull();
    const mapping = `---\n{name: deep, description: ${"{a: ".repeat(2000)}1${"}".repeat(2000)}}\n---\n`;
    expect(readRepo({ "SKILL.md": mapping }).refused).toEqual({ "manifest SKILL.md: front matter nested too deep": 1 });
  });

  test("block nesting indented past any skill's metadata is refused", () => {
    const lines = Array.from({ length: 70 }, (_, i) => `${" ".repeat(i + 1)}k${i}:`).join("\n");
    const read = readRepo({ "SKILL.md": `---\nname: deep\ndescription:\n${lines} 1\n---\n` });
    expect(read.refused).toEqual({ "manifest SKILL.md: front matter nested too deep": 1 });
  });

  test("only name and description are parsed: other fields, even deep or odd, cost nothing and fail nothing", () => {
    const extra = `metadata: {a: [[[[[[[[[[[[1]]]]]]]]]]]]}\ntags:\n  - one\n  - two\nhooks: &anchor\n  x: *anchor\n`;
    const read = readRepo({ "SKILL.md": skill("tidy", "Keeps things tidy", extra) });
    expect(read.refused).toEqual({});
    expect(read.details!.contents!.skills).toEqual([{ name: "tidy", description: "Keeps things tidy" }]);
  });

  test("a folded description is read whole; a name given twice is refused", () => {
    const folded = "---\nname: folded\ndescription: >\n  Reads a long\n  description.\nlicense: MIT\n---\n";
    expect(readRepo({ "SKILL.md": folded }).details!.contents!.skills).toEqual([
      { name: "folded", description: "Reads a long description." },
    ]);
    const twice = readRepo({ "SKILL.md": "---\nname: a\nname: b\ndescription: x\n---\n" });
    expect(twice.refused).toEqual({ "manifest SKILL.md: invalid front matter": 1 });
  });
});

describe("skill packs", () => {
  const pack = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`skills/skill-${i}/SKILL.md`, skill(`skill-${i}`, `Skill number ${i}`)]),
    );

  test("every skill of a 50-skill pack is named, described, and has its install line", () => {
    const read = readRepo(pack(50));
    const c = read.details!.contents!;
    expect(c.skills).toHaveLength(50);
    expect(c.counts.skills).toBe(50);
    expect(c.skills[49]).toMatchObject({ name: "skill-49", description: "Skill number 49", path: "skills/skill-49" });
    expect(c.skills[49]!.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(commands(read)).toHaveLength(50);
    expect(commands(read)[0]).toBe("npx -y skills@1.7.4 add acme/repo --skill skill-0 --agent claude-code");
    expect(read.details!.works_with).toEqual(["agent-skills"]);
  });

  test("folders the follow-up query had no room for are named by their folder, without a guessed install line", () => {
    const read = readRepo(
      { ...pack(30), "skills/README.md": "# Skills", "skills/Not A Skill/notes.txt": "x" },
      "acme/repo",
      12,
    );
    const c = read.details!.contents!;
    expect(c.counts.skills).toBe(30);
    expect(c.skills.slice(0, 12).every((s) => s.description !== null)).toBe(true);
    expect(c.skills.slice(12).every((s) => s.description === null)).toBe(true);
    expect(commands(read)).toHaveLength(12);
  });

  test("a front-matter name that is only a label gives way to the folder's name, without an install line", () => {
    const read = readRepo({
      "skills/cloud-kv/SKILL.md": "---\nname: Cloud KV Store\ndescription: Stores keys\n---\n",
      "skills/tidy/SKILL.md": skill("tidy", "Keeps things tidy"),
    });
    expect(read.refused).toEqual({});
    expect(read.details!.contents!.skills).toMatchObject([
      { name: "cloud-kv", description: "Stores keys", no_install: NO_INSTALL.label },
      { name: "tidy", description: "Keeps things tidy" },
    ]);
    expect(read.details!.contents!.skills[1]!.no_install).toBeUndefined();
    expect(commands(read)).toEqual(["npx -y skills@1.7.4 add acme/repo --skill tidy --agent claude-code"]);
    // At the root there is no folder to name it: refused for its name.
    expect(readRepo({ "SKILL.md": "---\nname: Cloud KV Store\n---\n" }).refused).toEqual({
      "manifest SKILL.md: skill name not accepted": 1,
    });
  });

  test("a skill whose front matter breaks the Agent Skills format is listed with the reason and no install line", () => {
    const read = readRepo({
      "skills/react-best-practices/SKILL.md": skill("vercel-react-best-practices", "Another folder's name"),
      "skills/double--dash/SKILL.md": skill("double--dash", "Doubled hyphen"),
      "skills/wordy/SKILL.md": skill("wordy", "w".repeat(1025)),
      "skills/just-right/SKILL.md": skill("just-right", "w".repeat(1024)),
    });
    const byName = new Map(read.details!.contents!.skills.map((s) => [s.name, s]));
    expect(byName.get("vercel-react-best-practices")!.no_install).toBe(NO_INSTALL.folder);
    expect(byName.get("double--dash")!.no_install).toBe(NO_INSTALL.hyphens);
    expect(byName.get("wordy")!.no_install).toBe(NO_INSTALL.long);
    expect(byName.get("just-right")!.no_install).toBeUndefined();
    expect(commands(read)).toEqual(["npx -y skills@1.7.4 add acme/repo --skill just-right --agent claude-code"]);
  });

  test("where no standard place holds a skill, each root folder's SKILL.md is one, with its install line", () => {
    const read = readRepo({
      "pdf-tools/SKILL.md": skill("pdf-tools", "Reads PDFs"),
      "pdf-tools/scripts/run.py": "print('x')",
      "web-fetch/SKILL.md": skill("web-fetch", "Fetches pages"),
      "docs/README.md": "# docs",
    });
    expect(read.details!.contents!.skills).toMatchObject([
      { name: "pdf-tools", description: "Reads PDFs", path: "pdf-tools" },
      { name: "web-fetch", description: "Fetches pages", path: "web-fetch" },
    ]);
    expect(commands(read)).toEqual([
      "npx -y skills@1.7.4 add acme/repo --skill pdf-tools --agent claude-code",
      "npx -y skills@1.7.4 add acme/repo --skill web-fetch --agent claude-code",
    ]);
    expect(read.details!.works_with).toEqual(["agent-skills"]);
    // A standard place holds one: the root's folders are not skills then.
    const standard = readRepo({
      "skills/tidy/SKILL.md": skill("tidy", "Keeps things tidy"),
      "pdf-tools/SKILL.md": skill("pdf-tools", "Reads PDFs"),
    });
    expect(standard.details!.contents!.skills.map((s) => s.name)).toEqual(["tidy"]);
  });

  test("folders without a single readable SKILL.md name nothing", () => {
    const read = readRepo({ "skills/notes/README.md": "# Notes", "skills/scripts/run.sh": "echo" });
    expect(read.details!.contents).toBeNull();
    expect(read.details!.works_with).toEqual([]);
  });
});
