/**
 * db/depth.json: what the manifests of the embedded default's repositories say (contents,
 * install, flags, works_with), read from local copies of the repositories by jobs/read-clones.ts,
 * with the commit read and when. The default snapshot attaches each entry to its record; an entry
 * is checked against the details schema before it is trusted, so a bad file fails loudly.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { DetailsSchema, type PluginDetails } from "./details";

export const DEPTH_FILE = "depth.json";

export const DepthEntrySchema = Type.Object(
  {
    /** When the repository's files were read (ISO 8601 UTC, second precision). */
    read_at: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$" }),
    /** The commit the files came from, when the copy names it. */
    commit: Type.Union([Type.String({ pattern: "^[0-9a-f]{40}$" }), Type.Null()]),
    details: DetailsSchema,
  },
  { additionalProperties: false },
);
export type DepthEntry = Static<typeof DepthEntrySchema>;

export interface DepthFile {
  /** One sentence on where the entries come from and how to rebuild them. */
  about: string;
  /** Entries by `owner/repo` as db/plugins.json spells it. */
  plugins: Record<string, DepthEntry>;
}

const checkEntry = TypeCompiler.Compile(DepthEntrySchema);

/** The file's entries, checked; an empty file when there is none. */
export function readDepthFile(dir: string): DepthFile {
  const path = join(dir, DEPTH_FILE);
  if (!existsSync(path)) return { about: "", plugins: {} };
  const raw = JSON.parse(readFileSync(path, "utf8")) as Partial<DepthFile>;
  const plugins = raw.plugins ?? {};
  for (const [id, entry] of Object.entries(plugins)) {
    if (!checkEntry.Check(entry)) {
      const error = checkEntry.Errors(entry).First();
      throw new Error(`${DEPTH_FILE}: ${id}${error?.path ?? ""} ${error?.message ?? "not an entry"}`);
    }
  }
  return { about: typeof raw.about === "string" ? raw.about : "", plugins };
}

/** The details of the default's repositories, by lowercased `owner/repo`. */
export function loadDefaultDepth(dir: string): Map<string, PluginDetails> {
  const { plugins } = readDepthFile(dir);
  return new Map(Object.entries(plugins).map(([id, entry]) => [id.toLowerCase(), entry.details]));
}

/** The file as written: sorted ids, one entry a line, so a rebuild's diff shows what changed per repository. */
export function depthFileText(file: DepthFile): string {
  const ids = Object.keys(file.plugins).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const lines = ids.map((id) => `  ${JSON.stringify(id)}: ${JSON.stringify(file.plugins[id])}`);
  return `{\n "about": ${JSON.stringify(file.about)},\n "plugins": {\n${lines.join(",\n")}\n }\n}\n`;
}
