/**
 * The owner file: what whoever can commit to a repository says about its catalog entry, without an
 * account. It may take the entry out (`exclude: true`), mark it deprecated with a message and a
 * replacement, or name the repository this one is a copy of (`canonical`). Nothing else: any other
 * key (`curated`, `category`, `stars`, …) is counted and ignored, and a file with a wrong type, too
 * large or nested too deep is refused whole. The replacement and canonical are checked against the
 * catalog once its records are known (refresh/owner-claims.ts).
 */
import { parseDocument } from "yaml";
import type { Deprecation } from "../../catalog/model/details";
import { cleanText, isRepoId } from "../upstream";
import { type Gate, isObject, type Json, MAX_TEXT } from "./gate";
import { nestedTooDeep } from "./skills";

/** The owner file's name when OWNER_FILE does not set another: hidden, at the root, YAML (JSON is YAML too). */
export const DEFAULT_OWNER_FILE = ".plugin-catalog.yml";
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

/** The YAML (or JSON) mapping of an owner file's text, or null (counted). */
function parsed(gate: Gate, text: string, file: string, id: string): Json | null {
  if (nestedTooDeep(text)) return gate.refuse(file, "nested too deep", id);
  try {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
    if (doc.errors.length > 0) return gate.refuse(file, "invalid YAML", id);
    const data: unknown = doc.toJS({ maxAliasCount: 0 });
    return isObject(data) ? data : gate.refuse(file, "not a mapping", id);
  } catch {
    return gate.refuse(file, "invalid YAML", id);
  }
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
  const data = parsed(gate, text, file, id);
  if (data === null) return null;
  for (const key of Object.keys(data))
    if (!(OWNER_KEYS as readonly string[]).includes(key)) gate.refuse(file, "unknown key ignored", id);
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
