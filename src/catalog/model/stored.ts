/**
 * A snapshot row's stored detail fragments, checked before they are served: the fragments must
 * parse, pass the stored schema with its install rules (details.ts, install-rules.ts), and be
 * byte for byte what the builder writes from what they say, so the text served is the text
 * checked (no duplicate or extra member can ride along). A row that fails is served without its
 * details; the caller logs the drop.
 */
import { detailsProblem, type PluginDetails } from "./details";
import { type DetailFragments, detailFragments, withoutEmptyParts } from "./fragments";

/** Characters of one row's fragments together: past it a row is not parsed at all. */
export const MAX_FRAGMENT_CHARS = 512 * 1024;

const REPO_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;
const PARTS = ["contents", "install", "flags", "works_with", "risk", "security", "tools", "context"] as const;

/** Why a row's fragments may not be served, or null. */
export function fragmentsProblem(f: DetailFragments): string | null {
  let size = 0;
  for (const part of PARTS) {
    if (typeof f[part] !== "string") return `${part} missing`;
    size += f[part].length;
  }
  if (size > MAX_FRAGMENT_CHARS) return "too large";
  let parts: Record<string, unknown>;
  try {
    parts = JSON.parse(`{${PARTS.map((p) => f[p]).join(",")}}`) as Record<string, unknown>;
  } catch {
    return "not JSON";
  }
  const lookalikeOf = parts.lookalike_of;
  const details = withoutEmptyParts(parts);
  if (lookalikeOf !== null && !(typeof lookalikeOf === "string" && REPO_ID.test(lookalikeOf))) return "lookalike_of";
  const problem = detailsProblem(details);
  if (problem !== null) return problem;
  const again = detailFragments(details as PluginDetails, lookalikeOf as string | null);
  const differs = PARTS.find((p) => again[p] !== f[p]);
  return differs === undefined ? null : `${differs} is not as the builder writes it`;
}

/** What a row without (or stripped of) its details serves. */
export const NO_FRAGMENTS: DetailFragments = detailFragments(null, null);
