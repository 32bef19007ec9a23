/**
 * Copies of skills: a skill folder whose git tree id (the hash of every file in it) equals a skill
 * folder's in another repository created earlier is a copy of that one, whatever it is called.
 * Computed once per snapshot, like look-alikes; the skill's `copy_of` (details.ts, `include=contents`).
 */
import type { PluginDetails } from "./details";

interface Copied {
  id: string;
  created_at: string;
  details?: PluginDetails | null;
}

/** The earliest-created repository holding each tree id (ties go to the id that sorts first). */
function firstHolders(records: readonly Copied[]): Map<string, Copied> {
  const first = new Map<string, Copied>();
  for (const record of records) {
    for (const skill of record.details?.contents?.skills ?? []) {
      if (!skill.tree) continue;
      const held = first.get(skill.tree);
      const earlier =
        !held ||
        record.created_at < held.created_at ||
        (record.created_at === held.created_at && record.id.toLowerCase() < held.id.toLowerCase());
      if (earlier) first.set(skill.tree, record);
    }
  }
  return first;
}

/**
 * Sets each skill's `copy_of` (and clears one a stored record carried from an earlier snapshot);
 * records whose skills change get new details objects, never shared ones changed in place.
 * Returns how many skills are copies.
 */
export function markSkillCopies(records: Copied[]): number {
  const first = firstHolders(records);
  let copies = 0;
  for (const record of records) {
    const contents = record.details?.contents;
    if (!contents?.skills.some((s) => s.tree || s.copy_of)) continue;
    const skills = contents.skills.map(({ copy_of: _, ...skill }) => {
      const original = skill.tree ? first.get(skill.tree) : undefined;
      if (!original || original.id.toLowerCase() === record.id.toLowerCase()) return skill;
      if (original.created_at >= record.created_at) return skill;
      copies++;
      return { ...skill, copy_of: original.id };
    });
    record.details = { ...record.details!, contents: { ...contents, skills } };
  }
  return copies;
}
