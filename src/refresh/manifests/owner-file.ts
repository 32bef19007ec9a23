/**
 * The owner file: what whoever can commit to a repository says about its catalog entry, without an
 * account. It may take the entry out (`exclude: true`), mark it deprecated with a message and a
 * replacement, or name the repository this one is a copy of (`canonical`). Nothing else: any other
 * key (`curated`, `category`, `stars`, …) is counted and ignored, and a file with a wrong type, too
 * large or nested too deep is refused whole. The replacement and canonical are checked against the
 * catalog once its records are known (refresh/validate/owner-claims.ts).
 */
import { type Document, isAlias, isNode, parseDocument, visit } from "yaml";
import type { Deprecation } from "../../catalog/model/details";
import { cleanText, isRepoId } from "../upstream/gate";
import { type Gate, isObject, type Json, MAX_TEXT } from "./manifest-gate";
import { nestedTooDeep } from "./skills";

/** Bytes of an owner file read at most: its three keys fit in a few hundred. */
export const MAX_OWNER_BYTES = 4 * 1024;

/** The keys an owner file may hold; any other is counted and ignored. */
export const OWNER_KEYS = ["exclude", "deprecated", "canonical"] as const;

/** What an owner file asks for, after its own checks (the catalog checks come later). */
export interface OwnerFile {
  exclude: boolean;
  deprecation: Deprecation | null;
  canonical: string | null;
}

/** Lines of an owner file's own keys given in YAML at most: its three keys need a handful. */
const MAX_OWN_LINES = 32;
const TOP_KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]|$)/;

/**
 * The lines of the owner file's own keys, each with its continuation lines, and how many other
 * top-level entries it has: only those lines reach the YAML parser, so a file of hundreds of
 * other keys costs a line scan, not a parse. Null when one of its keys is given twice.
 */
function ownLines(yaml: string): { text: string; lines: number; others: number } | null {
  const kept: string[] = [];
  const seen = new Set<string>();
  let keeping = false;
  let others = 0;
  for (const line of yaml.split(/\r?\n/)) {
    if (/^[^\s#]/.test(line)) {
      const key = TOP_KEY.exec(line)?.[1];
      keeping = key !== undefined && (OWNER_KEYS as readonly string[]).includes(key);
      if (keeping && seen.has(key!)) return null;
      if (keeping) seen.add(key!);
      else if (line.trimEnd() !== "---") others++;
    }
    if (keeping) kept.push(line);
  }
  return { text: kept.join("\n"), lines: kept.length, others };
}

/**
 * The mapping of an owner file's own keys, or null (counted): JSON when the file starts with `{`,
 * YAML otherwise (anchors, aliases and duplicate keys refused). Other keys are counted, never parsed.
 */
function parsed(gate: Gate, text: string, file: string, id: string): Json | null {
  if (nestedTooDeep(text)) return gate.refuse(file, "nested too deep", id);
  if (/^\s*\{/.test(text)) {
    try {
      const value: unknown = JSON.parse(text);
      if (!isObject(value)) return gate.refuse(file, "not a mapping", id);
      if (Object.keys(value).some((k) => !(OWNER_KEYS as readonly string[]).includes(k)))
        gate.refuse(file, "unknown key ignored", id);
      return value;
    } catch {
      return gate.refuse(file, "invalid JSON", id);
    }
  }
  const own = ownLines(text);
  if (own === null) return gate.refuse(file, "invalid YAML", id);
  if (own.lines > MAX_OWN_LINES) return gate.refuse(file, "too long", id);
  if (own.others > 0) gate.refuse(file, "unknown key ignored", id);
  try {
    const doc = parseDocument(own.text, { uniqueKeys: true, prettyErrors: false, strict: true });
    if (doc.errors.length > 0) return gate.refuse(file, "invalid YAML", id);
    if (hasAnchors(doc)) return gate.refuse(file, "anchors and aliases refused", id);
    const data: unknown = doc.toJS({ maxAliasCount: 0 }) ?? {};
    return isObject(data) ? data : gate.refuse(file, "not a mapping", id);
  } catch {
    return gate.refuse(file, "invalid YAML", id);
  }
}

/** Whether any node of `doc` bears an anchor (`&name`) or is an alias (`*name`). */
function hasAnchors(doc: Document): boolean {
  let found = false;
  visit(doc, (_, node) => {
    if (isAlias(node) || (isNode(node) && node.anchor)) {
      found = true;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

/** `deprecated`'s mapping as a Deprecation, or undefined when it is not one. */
function deprecationOf(value: unknown): Deprecation | undefined {
  if (!isObject(value)) return undefined;
  const { message, replacement, ...rest } = value;
  if (Object.keys(rest).length > 0) return undefined;
  if (message !== undefined && typeof message !== "string") return undefined;
  if (replacement !== undefined && !isRepoId(replacement)) return undefined;
  return {
    message: typeof message === "string" ? cleanText(message, MAX_TEXT) : null,
    replacement: typeof replacement === "string" ? replacement : null,
  };
}

/**
 * The owner file of repository `id` from its text, or null when there is none or it is refused.
 * Every refusal and every ignored key is counted under `manifest <file>: <reason>`.
 */
export function readOwnerFile(gate: Gate, text: string | null, file: string, id: string): OwnerFile | null {
  if (text === null) return null;
  // A byte order mark is no part of the text (YAML 1.2, 5.2): an editor's mark must not hide the keys after it.
  const data = parsed(gate, text.startsWith("\uFEFF") ? text.slice(1) : text, file, id);
  if (data === null) return null;
  const { exclude, deprecated, canonical } = data;
  if (exclude !== undefined && typeof exclude !== "boolean")
    return gate.refuse(file, "exclude is not true or false", id);
  const deprecation = deprecated === undefined ? null : deprecationOf(deprecated);
  if (deprecation === undefined) return gate.refuse(file, "deprecated is not {message, replacement: owner/repo}", id);
  if (canonical !== undefined && !isRepoId(canonical)) return gate.refuse(file, "canonical is not owner/repo", id);
  return { exclude: exclude === true, deprecation, canonical: canonical ?? null };
}

/** Whether the platform verified the domain of the organization owning the repository (`owner { … on Organization }`). */
export function ownerVerified(node: Json): boolean {
  const owner = node.owner;
  return isObject(owner) && owner.isVerified === true;
}
