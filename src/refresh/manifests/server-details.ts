/**
 * What a server.json shows the MCP registry API beyond its install instructions (server.ts reads
 * those): its title and icons, the words of the headers its remotes ask for, and the check that all
 * of it, with the package inputs server.ts read, fits the stored schema (registry-inputs.ts).
 */
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { publicHttpsUrl } from "../../catalog/model/public-hosts";
import {
  type McpIcon,
  type McpInput,
  type McpPackageInputs,
  type McpRegistryDetails,
  McpRegistryDetailsSchema,
} from "../../catalog/model/registry-inputs";
import { cleanText } from "../upstream/gate";
import { type Gate, isObject, type Json, str } from "./manifest-gate";
import { MANIFEST_FILES } from "./selection";
import { camelCased, promptWords } from "./server-args";

const FILE = MANIFEST_FILES.server;
/** The registry schema's bound on `title`, in characters. */
const MAX_TITLE = 100;
/** An icon's address: https, a host, a path and query of URL characters (no quote, space, bracket or backslash). */
const ICON_URL =
  /^https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9._~!$&*+,;=:@%-]*)*(?:\?[A-Za-z0-9._~!$&*+,;=:@%/?-]*)?$/;
const ICON_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"]);
const ICON_SIZE = /^(?:\d{1,5}x\d{1,5}|any)$/;
/** A header's name, as a remote may ask for one. */
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const checkRegistry = TypeCompiler.Compile(McpRegistryDetailsSchema);

/** The identity with what the registry API shows beyond it; the identity alone (counted) when that would break the stored schema. */
export function registryDetails(
  gate: Gate,
  id: string,
  identity: McpRegistryDetails,
  manifest: Json,
  packages: McpPackageInputs[],
  remotes: NonNullable<McpRegistryDetails["remotes"]>,
): McpRegistryDetails {
  const details: McpRegistryDetails = { ...identity };
  const title = typeof manifest.title === "string" ? cleanText(manifest.title, MAX_TITLE) : null;
  if (title !== null) details.title = title;
  const icons = Array.isArray(manifest.icons)
    ? manifest.icons
        .slice(0, 10)
        .map(icon)
        .filter((i) => i !== null)
    : [];
  if (icons.length > 0) details.icons = icons as McpIcon[];
  if (packages.length > 0) details.packages = packages;
  if (remotes.length > 0) details.remotes = remotes;
  if (checkRegistry.Check(details)) return details;
  gate.refuse(FILE, "inputs or title not accepted", id);
  return identity;
}

/** An icon as the registry schema has it: an https address at a public host; its type, sizes and theme when valid. */
function icon(raw: unknown): McpIcon | null {
  if (!isObject(raw)) return null;
  const v = camelCased(raw, 0);
  const src = str(v.src);
  if (!src || src.length > 255 || !ICON_URL.test(src) || !publicHttpsUrl(src)) return null;
  const out: McpIcon = { src };
  if (typeof v.mimeType === "string" && ICON_TYPES.has(v.mimeType)) out.mime_type = v.mimeType as McpIcon["mime_type"];
  const sizes = Array.isArray(v.sizes)
    ? v.sizes.filter((s): s is string => typeof s === "string" && ICON_SIZE.test(s))
    : [];
  if (sizes.length > 0) out.sizes = [...new Set(sizes)].slice(0, 10);
  if (v.theme === "light" || v.theme === "dark") out.theme = v.theme;
  return out;
}

/** A remote's headers (all optional: a required one refuses the remote) with the words server.json gave for each. */
export function remoteHeaders(remote: Json): McpInput[] {
  const list = Array.isArray(remote.headers) ? remote.headers.slice(0, 50) : [];
  const out = new Map<string, McpInput>();
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const h = camelCased(raw, 1);
    const name = str(h.name);
    if (!name || !HEADER_NAME.test(name) || out.has(name.toLowerCase())) continue;
    const secret = h.isSecret === true;
    const value = secret ? null : str(h.value);
    const fixed = value !== null && !/[{}]/.test(value) ? value : null;
    out.set(name.toLowerCase(), { name, secret, required: false, ...promptWords(h, secret, fixed) });
  }
  return [...out.values()];
}
