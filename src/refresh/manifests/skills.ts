/**
 * Agent Skills: a `SKILL.md`'s front matter (`name`, `description`), read with bounded work. The
 * format is flat, so a front matter nested deeper than a few levels is refused before the YAML
 * parser sees it: a stranger's file cannot make the parser walk thousands of levels.
 */
import { parseDocument } from "yaml";
import { cleanText } from "../upstream/gate";
import { type Gate, isObject, MAX_TEXT, str } from "./manifest-gate";

/** The open agent-skills installer, pinned: it installs one named skill out of a repository's `skills/` folders. */
export const SKILLS_CLI = "skills@1.7.4";
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Front matter read at most. */
const MAX_FRONT_MATTER = 16 * 1024;
/** Flow collections (`[…]`, `{…}`) nested deeper than this are refused: real front matter nests one or two. */
export const MAX_FRONT_MATTER_DEPTH = 8;
/** A line indented deeper than 64 columns: block nesting as deep is no skill's metadata. */
const TOO_INDENTED = /^[ \t]{65,}\S/m;

export interface Skill {
  name: string;
  description: string | null;
}

/** Whether `yaml` nests deeper than the limits: brackets counted as written, quotes or not, which only errs towards refusing. */
export function nestedTooDeep(yaml: string): boolean {
  let depth = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > MAX_FRONT_MATTER_DEPTH) return true;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return TOO_INDENTED.test(yaml);
}

/** The fields a skill's front matter is read for. */
const SKILL_FIELDS = ["name", "description"] as const;

const TOP_KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]|$)/;

/**
 * The front matter's `used` entries only (`name` and `description`), each with its continuation lines: the
 * other fields (tags, metadata, hooks) are never parsed. The whole text when it has no top-level
 * `key:` line (a flow mapping); null when a used field is given twice.
 */
export function usedFields(yaml: string, used: readonly string[] = SKILL_FIELDS): string | null {
  const lines = yaml.split(/\r?\n/);
  const kept: string[] = [];
  const seen = new Set<string>();
  let keeping = false;
  let topLevel = false;
  for (const line of lines) {
    const key = TOP_KEY.exec(line)?.[1];
    if (key !== undefined || /^[^\s]/.test(line)) {
      topLevel ||= key !== undefined;
      keeping = key !== undefined && used.includes(key);
      if (keeping && seen.has(key!)) return null;
      if (keeping) seen.add(key!);
    }
    if (keeping) kept.push(line);
  }
  return topLevel ? kept.join("\n") : yaml;
}

/** How a skill breaks the Agent Skills specification while Claude Code still loads it (skill-folders.ts names each). */
export type SpecProblem = "hyphens" | "folder" | "long";

/**
 * The specification's rules past the name's characters: no leading, trailing or doubled hyphen, the
 * folder's own name, a description of at most 1,024 characters.
 */
function specProblem(name: string, description: unknown, folder: string | undefined): SpecProblem | null {
  if (name.endsWith("-") || name.includes("--")) return "hyphens";
  if (folder !== undefined && folder !== name) return "folder";
  if (typeof description === "string" && [...description].length > 1024) return "long";
  return null;
}

/**
 * `name` and `description` from a SKILL.md's YAML front matter; the name must be a skill name
 * (refusals counted). In `skills/<folder>/`, Claude Code names a skill by its folder and shows the
 * front-matter name only as a label, so a label that is no skill name (`Cloudflare Workers KV`)
 * gives way to the folder's name (`folder`), marked `labelled` so no installer is told to match it.
 */
export function frontMatter(
  gate: Gate,
  text: string,
  file: string,
  id: string,
  folder?: string,
): (Skill & { labelled?: true; invalid?: SpecProblem }) | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text.slice(0, MAX_FRONT_MATTER + 8));
  if (!match) return gate.refuse(file, "no front matter", id);
  const yaml = usedFields(match[1]!);
  if (yaml === null) return gate.refuse(file, "invalid front matter", id);
  if (nestedTooDeep(yaml)) return gate.refuse(file, "front matter nested too deep", id);
  let data: unknown;
  try {
    const doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length > 0) return gate.refuse(file, "invalid front matter", id);
    data = doc.toJS({ maxAliasCount: 0 });
  } catch {
    return gate.refuse(file, "invalid front matter", id);
  }
  if (!isObject(data)) return gate.refuse(file, "invalid front matter", id);
  const name = str(data.name);
  const description = typeof data.description === "string" ? cleanText(data.description, MAX_TEXT) : null;
  if (name && SKILL_NAME.test(name)) {
    const invalid = specProblem(name, data.description, folder);
    return invalid ? { name, description, invalid } : { name, description };
  }
  if (folder !== undefined && SKILL_NAME.test(folder) && (name === null || cleanText(name, 100) !== null))
    return { name: folder, description, labelled: true };
  return gate.refuse(file, "skill name not accepted", id);
}
