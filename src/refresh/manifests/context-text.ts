/**
 * The text Claude Code counts for one skill, command or agent file: its name, description and
 * `when_to_use` (always on), and its body (on invoke), as `claude plugin details` takes them
 * (docs/api.md, *Context cost*). The front matter goes through the skills' bounded reader
 * (skills.ts): only the used fields reach the YAML parser, and a deep one is refused.
 */
import { parseDocument } from "yaml";
import { listingText } from "./listing-text";
import { isObject, type Json } from "./manifest-gate";
import { nestedTooDeep, usedFields } from "./skills";

/** The fields the estimate reads (`when-to-use` is not one: the client ignores it). */
const CONTEXT_FIELDS = ["name", "description", "when_to_use"] as const;
/** Front matter looked at, at most: a description longer than this is no real one. */
const MAX_FRONT_MATTER = 64 * 1024;
/** A front matter up to this size is parsed whole, as the client parses it; a larger one only its used fields. */
const WHOLE_PARSE_MAX = 8 * 1024;
/** Used fields up to this size are parsed; longer ones are measured as written, never handed to the parser. */
const USED_PARSE_MAX = 16 * 1024;
const FRONT = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

export type ComponentKind = "skill" | "command" | "agent";

/** The counted lengths of one component, in UTF-16 code units as JavaScript's `length`. */
export interface ComponentText {
  alwaysOn: number;
  onInvoke: number;
}

/** The YAML's mapping, or null when it does not parse as one (a key written twice is kept, as the client keeps it). */
function parsed(yaml: string): Json | null {
  try {
    const doc = parseDocument(yaml, { uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length > 0) return null;
    const data = doc.toJS({ maxAliasCount: 0 }) as unknown;
    return isObject(data) ? data : null;
  } catch {
    return null;
  }
}

/** A plain one-line value that YAML refuses (`description: Use it: now`), quoted as the client retries it. */
const PLAIN = /^([A-Za-z0-9_][A-Za-z0-9_-]*):[ \t]+([^'"|>[{\s].*)$/;
/** Any one-line top-level value but a block scalar's (`argument-hint: [a] [b]`, `"x" y`): the last retry, as the client's. */
const ANY = /^([A-Za-z0-9_][A-Za-z0-9_-]*):[ \t]+([^|>\s].*)$/;
const quoted = (yaml: string, line = PLAIN) =>
  yaml
    .split(/\r?\n/)
    .map((text) => text.replace(line, (_, key: string, value: string) => `${key}: ${JSON.stringify(value.trim())}`))
    .join("\n");

/**
 * The front matter's fields and the body; an unreadable front matter counts as none. The client
 * parses the whole front matter, so a YAML error anywhere in it loses the description: the whole
 * is parsed here too when it is within WHOLE_PARSE_MAX, else only the used fields are, and used
 * fields past USED_PARSE_MAX are measured as written: the work per file stays bounded whatever it holds.
 */
function split(text: string): { data: Json; body: string } {
  const match = FRONT.exec(text.slice(0, MAX_FRONT_MATTER + 8));
  if (!match) return { data: {}, body: text };
  const body = text.slice(match[0].length);
  const front = match[1]!;
  const whole = front.length <= WHOLE_PARSE_MAX && !nestedTooDeep(front);
  const yaml = whole ? front : usedFields(front, CONTEXT_FIELDS);
  if (yaml === null || nestedTooDeep(yaml)) return { data: {}, body };
  if (yaml.length > USED_PARSE_MAX) return { data: asWritten(yaml), body };
  return { data: parsed(yaml) ?? parsed(quoted(yaml)) ?? parsed(quoted(yaml, ANY)) ?? {}, body };
}

/** The used fields' values as written, each key's lines after its `key:` joined: the length the client would count, near enough. */
function asWritten(yaml: string): Json {
  const data: Record<string, string> = {};
  let key: string | null = null;
  for (const line of yaml.split(/\r?\n/)) {
    const top = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(.*)$/.exec(line);
    if (top) {
      key = top[1]!;
      data[key] = top[2]!.trim();
    } else if (key !== null) data[key] = `${data[key]} ${line.trim()}`.trim();
  }
  return data;
}

/** A front-matter value as the client turns it into text: strings trimmed, numbers and booleans as written. */
function textOf(value: unknown, trim: boolean): string {
  if (typeof value === "string") return trim ? value.trim() : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/** The first non-empty body line without its heading marks, cut as the client cuts it. */
export function firstLine(body: string): string {
  const line = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (line === undefined) return "";
  const text = line.replace(/^#+\s+/, "");
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** A root SKILL.md's skill name as the client takes it: its front-matter name, trimmed, else `fallback`. */
export function rootSkillName(text: string, fallback: string): string {
  const name = split(text).data.name;
  return (typeof name === "string" && name.trim()) || fallback;
}

/**
 * The lengths of one component: `[name, description, when_to_use].filter(Boolean).join(" ")` and
 * its trimmed body. Without a description the body's first line stands in (or `Skill`), for every
 * kind: the estimate does not use the agents' runtime fallbacks. A skill's or command's texts are
 * counted as the client lists them (listing-text.ts), an agent's as written.
 */
export function componentText(name: string, text: string, kind: ComponentKind): ComponentText {
  const { data, body } = split(text);
  const shown = kind === "agent" ? (t: string) => t : listingText;
  const description = textOf(data.description, true) || firstLine(body) || "Skill";
  const whenToUse = textOf(data.when_to_use, false);
  const counted = [name, shown(description), whenToUse && shown(whenToUse)];
  return { alwaysOn: counted.filter(Boolean).join(" ").length, onInvoke: body.trim().length };
}
