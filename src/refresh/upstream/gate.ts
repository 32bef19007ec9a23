/**
 * The one gate for facts from the hosting platform: every repository record, name and list entry
 * passes here before it reaches the checkpoint, the database or a log. Names must be ones the
 * platform allows, counts safe integers, dates strict ISO 8601 UTC, text free of control, bidi,
 * XML-invalid and invisible characters and bounded. A field that fails keeps the plugin's previous value (or
 * null); a record whose name fails is left out. Each repair is counted by reason for the summary.
 */
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { stripInvisible } from "../../catalog/model/invisible";
import { REPO_ID_PATTERN } from "../../catalog/model/names";
import type { RepoFacts } from "../../catalog/model/types";

export { REPO_ID_PATTERN };

/** The platform's topic form: lowercase letters, digits and hyphens, at most 50, at most 20 per repository. */
const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;
const MAX_TOPICS = 20;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
export const MAX_DESCRIPTION = 1000;
const MAX_HOMEPAGE = 2000;
/** Language and licence names are short words; anything longer is not one. */
const MAX_LABEL = 100;

/** C0 and C1 controls, DEL, bidi overrides and isolates, XML-invalid noncharacters and lone surrogates. */
const UNSAFE = new RegExp(
  "[\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069\\uFFFE\\uFFFF]" +
    "|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
  "g",
);
const HAS_UNSAFE = new RegExp(UNSAFE.source, "u");
const LINE_BREAKS = /[\t\r\n\u0085\u2028\u2029]+/g;

const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Timestamp = Type.String({ pattern: ISO_UTC.source });
const Topic = Type.String({ pattern: TOPIC.source });
const RepoId = Type.String({ pattern: REPO_ID_PATTERN });
const Label = Type.Union([Type.String({ minLength: 1, maxLength: MAX_LABEL }), Type.Null()]);

/** What a cleaned record is: the schema every fact handed on (and every checkpointed one) satisfies. */
export const CleanFacts = Type.Object({
  full_name: RepoId,
  description: Type.Union([Type.String({ maxLength: MAX_DESCRIPTION * 2 }), Type.Null()]),
  homepage: Type.Union([Type.String({ maxLength: MAX_HOMEPAGE, pattern: "^https?://" }), Type.Null()]),
  stars: Type.Union([Count, Type.Null()]),
  forks: Type.Union([Count, Type.Null()]),
  language: Label,
  license: Label,
  archived: Type.Union([Type.Boolean(), Type.Null()]),
  created_at: Type.Union([Timestamp, Type.Null()]),
  pushed_at: Type.Union([Timestamp, Type.Null()]),
  topics: Type.Array(Topic, { maxItems: MAX_TOPICS }),
  database_id: Type.Optional(Type.Union([Count, Type.Null()])),
});

/** The schemas compiled once: the gate checks every field of every record with them. */
const check = {
  count: TypeCompiler.Compile(Count),
  timestamp: TypeCompiler.Compile(Timestamp),
  topic: TypeCompiler.Compile(Topic),
  repoId: TypeCompiler.Compile(RepoId),
  facts: TypeCompiler.Compile(CleanFacts),
};

/** A record as one of the platform's shapes holds it, before the gate: every field is whatever came. */
export type RawFacts = { [K in Exclude<keyof RepoFacts, "database_id">]-?: unknown } & { database_id?: unknown };

/** Whether `value` is an `owner/name` the platform would allow. */
export function isRepoId(value: unknown): value is string {
  return check.repoId.Check(value);
}

/**
 * Text without unsafe or invisible characters (see invisible.ts), line breaks and runs of spaces
 * made one space, trimmed; null when empty.
 */
export function cleanText(value: string, max: number): string | null {
  const visible = stripInvisible(value.replace(LINE_BREAKS, " ").replace(UNSAFE, "")).text;
  const chars = Array.from(visible.replace(/ {2,}/g, " ").trim());
  const text = chars.length > max ? chars.slice(0, max).join("").trimEnd() : chars.join("");
  return text === "" ? null : text;
}

/** `text` for a terminal: every unsafe character shown as a `\u{…}` escape instead of acting on the screen. */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

function isoSeconds(value: unknown): string | undefined {
  if (!check.timestamp.Check(value)) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  // A day the calendar lacks (`2026-02-31`) parses as another one: compare it back.
  return new Date(ms).toISOString().slice(0, 10) === value.slice(0, 10) ? value.replace(/\.\d+Z$/, "Z") : undefined;
}

/** An http(s) address, null for none, undefined when it is anything else. */
function homepage(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== "string") return undefined;
  if (value.trim() === "") return null;
  if (value.length > MAX_HOMEPAGE || HAS_UNSAFE.test(value)) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href.slice(0, MAX_HOMEPAGE) : undefined;
  } catch {
    return undefined;
  }
}

/** Repairs and refusals by reason, each counting a repository once however often the run met it. */
export class GateCounts {
  private readonly cleanedBy = new Map<string, Set<string>>();
  private readonly leftOutBy = new Map<string, Set<string>>();

  clean(reason: string, id: string): void {
    GateCounts.add(this.cleanedBy, reason, id);
  }

  leaveOut(reason: string, id: string): void {
    GateCounts.add(this.leftOutBy, reason, id);
  }

  /** Repositories repaired, by reason. */
  get cleaned(): Map<string, number> {
    return GateCounts.sizes(this.cleanedBy);
  }

  /** Repositories (or names) left out, by reason. */
  get leftOut(): Map<string, number> {
    return GateCounts.sizes(this.leftOutBy);
  }

  /** `description: unsafe characters 2, homepage: not http(s) 1`, or "none". */
  static text(map: Map<string, number>): string {
    return map.size === 0 ? "none" : [...map].map(([reason, n]) => `${reason} ${n}`).join(", ");
  }

  private static add(map: Map<string, Set<string>>, reason: string, id: string): void {
    const ids = map.get(reason) ?? map.set(reason, new Set()).get(reason)!;
    ids.add(id.toLowerCase());
  }

  private static sizes(map: Map<string, Set<string>>): Map<string, number> {
    return new Map([...map].map(([reason, ids]) => [reason, ids.size]));
  }
}

/** The gate of one run: cleans records against the published values, and counts what it did. */
export class UpstreamGate {
  readonly counts = new GateCounts();
  /** Records seen, and per field how many of them failed it: a field failing in all is a broken query, not data. */
  private seen = 0;
  private readonly failedFields = new Map<string, number>();

  /** `previous(id)` is the published facts of a plugin (by lowercased id), the fallback of a failed field. */
  constructor(private readonly previous: (key: string) => RepoFacts | undefined = () => undefined) {}

  /** An `owner/name` from a list, manifest or search; null (counted) when the platform could not have it. */
  id(value: unknown, where: string): string | null {
    if (isRepoId(value)) return value;
    this.counts.leaveOut(`${where}: not a repository name`, String(value).slice(0, 200));
    return null;
  }

  /** The cleaned record, or null when its name is not one the platform allows. */
  facts(raw: RawFacts): RepoFacts | null {
    if (!isRepoId(raw.full_name)) {
      this.counts.leaveOut("full_name: not a repository name", String(raw.full_name).slice(0, 200));
      return null;
    }
    const id = raw.full_name;
    const before = this.previous(raw.full_name.toLowerCase());
    this.seen++;
    type Field = keyof RepoFacts;
    const field = <K extends Field>(name: K, value: RepoFacts[K] | undefined, reason: string): RepoFacts[K] => {
      if (value !== undefined) return value;
      this.counts.clean(`${name}: ${reason}`, id);
      this.failedFields.set(name, (this.failedFields.get(name) ?? 0) + 1);
      return (before?.[name] ?? null) as RepoFacts[K];
    };
    const facts: RepoFacts & { database_id?: number | null } = {
      full_name: raw.full_name,
      description: field("description", this.text(id, raw.description, MAX_DESCRIPTION, "description"), "not text"),
      homepage: field("homepage", homepage(raw.homepage), "not an http(s) address"),
      stars: field("stars", this.count(raw.stars), "not a safe count"),
      forks: field("forks", this.count(raw.forks), "not a safe count"),
      language: field("language", this.text(id, raw.language, MAX_LABEL, "language"), "not text"),
      license: field("license", this.text(id, raw.license, MAX_LABEL, "license"), "not text"),
      archived: field("archived", typeof raw.archived === "boolean" ? raw.archived : undefined, "not a boolean"),
      created_at: field("created_at", isoSeconds(raw.created_at), "not ISO 8601 UTC"),
      pushed_at: field("pushed_at", isoSeconds(raw.pushed_at), "not ISO 8601 UTC"),
      topics: this.topics(id, raw.topics),
    };
    if (raw.database_id !== undefined) facts.database_id = this.count(raw.database_id) ?? null;
    if (raw.hint !== undefined) facts.hint = typeof raw.hint === "string" ? cleanText(raw.hint, MAX_LABEL) : null;
    return this.schemaChecked(facts);
  }

  /** The record if the schema describes it; a field failing it (a published value the fallback brought back) is emptied. */
  private schemaChecked(facts: RepoFacts): RepoFacts | null {
    if (check.facts.Check(facts)) return facts;
    const record = facts as unknown as Record<string, unknown>;
    for (const error of check.facts.Errors(facts)) {
      const key = error.path.split("/")[1];
      if (!key || key === "full_name") continue;
      record[key] = key === "topics" ? [] : null;
      this.counts.clean(`${key}: published value fails the schema`, facts.full_name);
    }
    if (check.facts.Check(facts)) return facts;
    this.counts.leaveOut("record: does not match the schema", facts.full_name);
    return null;
  }

  /** `stars is missing from every one of 20 repositories` when some field failed in every record (of two or more). */
  brokenEverywhere(): string | null {
    if (this.seen < 2) return null;
    const field = [...this.failedFields].find(([, n]) => n === this.seen)?.[0];
    return field ? `${field} is missing from every one of ${this.seen} repositories` : null;
  }

  private count(value: unknown): number | undefined {
    return check.count.Check(value) ? value : undefined;
  }

  /** Cleaned text (null stays null); undefined when it is not text at all. */
  private text(id: string, value: unknown, max: number, name: string): string | null | undefined {
    if (value === null) return null;
    if (typeof value !== "string") return undefined;
    const text = cleanText(value, max);
    const invisible = stripInvisible(value).removed > 0;
    if (invisible) this.counts.clean(`${name}: invisible characters`, id);
    if (Array.from(value).length > max) this.counts.clean(`${name}: too long`, id);
    else if (!invisible && text !== (value.trim() || null))
      this.counts.clean(`${name}: unsafe characters or line breaks`, id);
    return text;
  }

  private topics(id: string, value: unknown): string[] {
    if (value === null || value === undefined) return [];
    const list = Array.isArray(value) ? value : [];
    const valid = list.filter((t): t is string => check.topic.Check(t));
    const malformed = !Array.isArray(value) || valid.length < list.length;
    if (malformed) this.counts.clean("topics: not in the platform's topic form", id);
    if (valid.length > MAX_TOPICS) this.counts.clean(`topics: more than ${MAX_TOPICS}`, id);
    return [...new Set(valid)].slice(0, MAX_TOPICS);
  }
}
