/**
 * A repository's skill folders (skill-places.ts), completed by the follow-up query: each SKILL.md
 * read gives a skill (front-matter name and description) and, where the open skills installer
 * would install exactly that skill, its install line; folders the query had no room for, and those
 * of plugin folders it only listed, are named by their folder name (which the Agent Skills format
 * makes the skill's name) without a line. Every skill keeps its folder's path and tree id.
 */
import type { Install, SkillEntry } from "../../catalog/model/details";
import { withSkillRisk } from "../risk/manifest";
import { type Gate, isObject, MAX_MANIFEST_BYTES } from "./manifest-gate";
import type { ManifestReading } from "./reading";
import { listedSkills } from "./skill-places";
import { frontMatter, SKILL_NAME, SKILLS_CLI, type SpecProblem } from "./skills";

/** What the follow-up query brought: SKILL.md blobs by folder path, listings by `skills/` folder path. */
export interface SkillObjects {
  objects: ReadonlyMap<string, unknown>;
  lists: ReadonlyMap<string, unknown>;
}

/** Why a skill gets no line of its own (`no_install`). */
export const NO_INSTALL = {
  twice: "its name is declared twice in this repository; the installer would take only one",
  root: "the installer reads only this repository's root SKILL.md",
  label: "its front-matter name is a label, not the name the installer matches",
  description: "no description, which the installer requires",
  unread: "SKILL.md not read; named by its folder",
  hyphens: "its name has a trailing or doubled hyphen, which the Agent Skills format forbids",
  folder: "its front-matter name is not its folder's, which the Agent Skills format requires",
  long: "its description is longer than the 1,024 characters the Agent Skills format allows",
} as const;

interface Read extends SkillEntry {
  labelled: boolean;
  /** How its front matter breaks the Agent Skills format (skills.ts), if it does. */
  invalid?: SpecProblem;
  read: boolean;
}

const entry = (name: string, description: string | null, path: string, tree: string | null) => ({
  name,
  description,
  ...(path.length <= 300 ? { path } : {}),
  ...(tree ? { tree } : {}),
});

const folderName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** The kind of place a skill folder is, as a refusal names it when the file's path is too long or a size is at stake: `skills/*\/SKILL.md`, `.claude/skills/*\/SKILL.md`, `*\/skills/*\/SKILL.md`. */
function placeLabel(path: string): string {
  if (!path.includes("/")) return "*/SKILL.md";
  const container = path.slice(0, path.lastIndexOf("/"));
  const shared = container === "skills" || container === ".agents/skills" || container === ".claude/skills";
  return `${shared ? container : "*/skills"}/*/SKILL.md`;
}

/** The SKILL.md files read, checked, as skills. */
function readFolders(gate: Gate, reading: ManifestReading, objects: SkillObjects["objects"], id: string): Read[] {
  const trees = new Map(reading.skillFolders.map((f) => [f.path, f.tree]));
  const found: Read[] = [];
  for (const path of reading.skillDirs) {
    const blob = objects.get(path);
    if (!isObject(blob)) continue;
    const file = `${path}/SKILL.md`;
    const shown = file.length <= 100 ? file : placeLabel(path);
    if (blob.isTruncated === true || (typeof blob.byteSize === "number" && blob.byteSize > MAX_MANIFEST_BYTES)) {
      gate.refuse(placeLabel(path), "too large", id);
      continue;
    }
    if (typeof blob.text !== "string") continue;
    Object.assign(reading.details, withSkillRisk(reading.details.risk, file.length <= 200 ? file : shown, blob));
    const skill = frontMatter(gate, blob.text, shown, id, folderName(path));
    if (!skill) continue;
    const { name, description } = skill;
    found.push({
      ...entry(name, description, path, trees.get(path) ?? null),
      labelled: skill.labelled === true,
      ...(skill.invalid ? { invalid: skill.invalid } : {}),
      read: true,
    });
  }
  return found;
}

/** The reason a read skill gets no line, or null when the installer installs exactly it. */
function noInstall(skill: Read, twice: ReadonlySet<string>, rootSkill: boolean): string | null {
  if (twice.has(skill.name)) return NO_INSTALL.twice;
  if (!skill.read) return NO_INSTALL.unread;
  if (rootSkill) return NO_INSTALL.root;
  if (skill.labelled) return NO_INSTALL.label;
  if (skill.invalid) return NO_INSTALL[skill.invalid];
  return skill.description ? null : NO_INSTALL.description;
}

/** Adds the skills the follow-up read to `reading.details`; whether any folder held one. */
export function finishSkills(gate: Gate, reading: ManifestReading, brought: SkillObjects, id: string): boolean {
  const { details } = reading;
  const found = readFolders(gate, reading, brought.objects, id);
  const listed = [...brought.lists].flatMap(([path, tree]) => listedSkills(tree, path));
  if (found.length === 0 && listed.length === 0) return false;
  const contents = details.contents!;
  const asked = new Set(reading.skillDirs);
  // Folders left unread are skills by the format once one read folder proved to hold one.
  const unread = found.length === 0 ? [] : reading.skillFolders.filter((f) => !asked.has(f.path));
  const named = [...unread, ...listed]
    .filter((f) => SKILL_NAME.test(folderName(f.path)))
    .map((f): Read => ({ ...entry(folderName(f.path), null, f.path, f.tree), labelled: false, read: false }));
  const all = [...contents.skills, ...found, ...named];
  const seen = new Set<string>();
  const twice = new Set(all.filter((s) => seen.has(s.name) || !seen.add(s.name)).map((s) => s.name));
  // The installer's root SKILL.md (name and description) hides every other skill of the repository.
  const rootSkill = contents.skills.some((s) => s.description);
  const steps: Install[] = [];
  const skills: SkillEntry[] = contents.skills.map((s) =>
    twice.has(s.name) ? { ...s, no_install: NO_INSTALL.twice } : s,
  );
  if (contents.skills.some((s) => twice.has(s.name)))
    details.install = details.install.filter((i) => i.from !== "SKILL.md");
  for (const skill of [...found, ...named]) {
    const { labelled: _, read: __, invalid: ___, ...kept } = skill;
    const reason = noInstall(skill, twice, rootSkill);
    skills.push(reason ? { ...kept, no_install: reason } : kept);
    if (reason) continue;
    const file = skill.path ? `${skill.path}/SKILL.md` : "*/SKILL.md";
    steps.push({
      harness: "claude-code",
      kind: "skill",
      command: `npx -y ${SKILLS_CLI} add ${id} --skill ${skill.name} --agent claude-code`,
      env: [],
      from: file.length <= 100 ? file : "*/SKILL.md",
    });
  }
  contents.skills = skills;
  details.install.push(...gate.instructions(id, steps));
  if (!details.works_with.includes("agent-skills")) details.works_with.push("agent-skills");
  return true;
}
