/**
 * A repository's `skills/<name>/SKILL.md` folders, completed by the follow-up query: each SKILL.md
 * read gives a skill (front-matter name and description) and its install line; the folders the
 * query had no room for are named by their folder name, which the Agent Skills format makes the
 * skill's name, once one read folder proved to hold a skill. No install line is guessed for those.
 */
import type { Install } from "../../catalog/model/details";
import { withSkillRisk } from "../risk/manifest";
import { type Gate, isObject, MAX_MANIFEST_BYTES } from "./gate";
import type { ManifestReading } from "./reading";
import { frontMatter, SKILL_NAME, SKILLS_CLI } from "./skills";

/** Adds the skills the follow-up read to `reading.details`; whether any folder held one. */
export function finishSkills(
  gate: Gate,
  reading: ManifestReading,
  objects: ReadonlyMap<string, unknown>,
  id: string,
): boolean {
  const { details } = reading;
  const found: Array<{ name: string; description: string | null; dir: string; labelled: boolean }> = [];
  const read = new Set<string>();
  for (const dir of reading.skillDirs) {
    const blob = objects.get(dir);
    read.add(dir);
    if (!isObject(blob)) continue;
    const file = `skills/${dir}/SKILL.md`;
    if (blob.isTruncated === true || (typeof blob.byteSize === "number" && blob.byteSize > MAX_MANIFEST_BYTES)) {
      gate.refuse("skills/*/SKILL.md", "too large", id);
      continue;
    }
    if (typeof blob.text !== "string") continue;
    Object.assign(details, withSkillRisk(details.risk, file, blob));
    const skill = frontMatter(gate, blob.text, file, id, dir);
    if (skill) found.push({ name: skill.name, description: skill.description, dir, labelled: skill.labelled === true });
  }
  if (found.length === 0) return false;
  const contents = details.contents!;
  const names = new Set(contents.skills.map((s) => s.name));
  const added = found.filter((s) => !names.has(s.name) && names.add(s.name));
  const unread = reading.skillFolders.filter((dir) => !read.has(dir) && SKILL_NAME.test(dir) && !names.has(dir));
  contents.skills = [
    ...contents.skills,
    ...added.map(({ name, description }) => ({ name, description })),
    ...unread.map((name) => ({ name, description: null })),
  ];
  // One instruction per skill read (its front-matter name is what the installer's `--skill` matches).
  // A skill named by its folder (its front-matter name is only a label) gets none: the installer matches that label.
  const steps: Install[] = added
    .filter((skill) => !skill.labelled)
    .map((skill) => ({
      harness: "claude-code",
      kind: "skill",
      command: `npx -y ${SKILLS_CLI} add ${id} --skill ${skill.name} --agent claude-code`,
      env: [],
      from: `skills/${skill.dir}/SKILL.md`.length <= 100 ? `skills/${skill.dir}/SKILL.md` : "skills/*/SKILL.md",
    }));
  details.install.push(...gate.instructions(id, steps));
  if (!details.works_with.includes("agent-skills")) details.works_with.push("agent-skills");
  return true;
}
