/**
 * A plugin's details as the JSON members each `include=` part adds, serialized once per snapshot,
 * and parsed back.
 */
import { INCLUDE_PARTS, type IncludePart, noDetails, type PluginDetails } from "./details";

/** The JSON members each `include=` part adds to a full-form plugin, serialized once per snapshot. */
export interface DetailFragments {
  contents: string;
  install: string;
  flags: string;
  works_with: string;
  risk: string;
  security: string;
  tools: string;
  context: string;
}

export function detailFragments(details: PluginDetails | null, lookalikeOf: string | null): DetailFragments {
  const d = details ?? noDetails();
  return {
    contents: `"contents":${JSON.stringify(d.contents)}`,
    install: `"install":${JSON.stringify(d.install)}`,
    flags:
      `"fork_of":${JSON.stringify(d.fork_of)},"deprecated":${d.deprecated},` +
      `"lookalike_of":${JSON.stringify(lookalikeOf)},"latest_release":${JSON.stringify(d.latest_release)}` +
      ownerFlags(d),
    works_with: `"works_with":${JSON.stringify(d.works_with)}`,
    risk: `"risk":${JSON.stringify(d.risk ?? [])}`,
    security: `"security":${JSON.stringify(d.security ?? null)}`,
    tools: `"remote":${JSON.stringify(d.remote ?? null)},"tools":${JSON.stringify(d.tools ?? [])}`,
    context: `"context":${JSON.stringify(d.context ?? null)}`,
  };
}

/** The owner's members of the flags part, each only when set: `deprecation`, `canonical`, `owner_verified`. */
function ownerFlags(d: PluginDetails): string {
  let out = "";
  if (d.deprecation)
    out += `,"deprecation":${JSON.stringify({ message: d.deprecation.message, replacement: d.deprecation.replacement })}`;
  if (d.canonical) out += `,"canonical":${JSON.stringify(d.canonical)}`;
  if (d.owner_verified === true) out += `,"owner_verified":true`;
  return out;
}

/**
 * Details parsed back from their fragments, the optional members the fragments spell as empty
 * (no risk notes, a remote never asked) absent again, as the refresh leaves them.
 */
export function withoutEmptyParts(parts: Record<string, unknown>): Record<string, unknown> {
  const { lookalike_of: _, ...details } = parts;
  if (Array.isArray(details.risk) && details.risk.length === 0) delete details.risk;
  // A plugin deps.dev was never asked about stores a null part, as the builder writes it.
  if (details.security === null) delete details.security;
  // A plugin never measured stores `"context":null`; the details leave the member out.
  if (details.context === null) delete details.context;
  if (details.remote === null) {
    delete details.remote;
    if (Array.isArray(details.tools) && details.tools.length === 0) delete details.tools;
  }
  return details;
}

/** A full-form JSON object with the asked parts appended, in INCLUDE_PARTS order. */
export function withParts(json: string, fragments: DetailFragments, parts: readonly IncludePart[]): string {
  if (parts.length === 0) return json;
  return `${json.slice(0, -1)},${INCLUDE_PARTS.filter((p) => parts.includes(p))
    .map((p) => fragments[p])
    .join(",")}}`;
}
