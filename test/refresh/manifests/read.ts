/**
 * Reads one repository's files with the real manifest reader, as the refresh's GraphQL batch and
 * its follow-up query bring them (`m_<alias>` blobs and trees, `skills/<dir>/SKILL.md` objects),
 * and answers the checked details and the refusals counted for the listing decision.
 */
import type { PluginDetails } from "../../../src/catalog/model/details";
import { MANIFEST_FILES, MANIFEST_TREES, ManifestReader } from "../../../src/refresh/manifests/reader";
import { GateCounts } from "../../../src/refresh/upstream";
import { TEST_EVIDENCE } from "../support";

export interface Read {
  details: PluginDetails | null;
  /** Refusals by reason (`manifest <file>: <reason>`). */
  refused: Record<string, number>;
  /** The skill folders the follow-up query was asked to read. */
  skillDirs: string[];
}

const blob = (text: string | undefined) =>
  text === undefined ? null : { byteSize: Buffer.byteLength(text), isTruncated: false, text };

function tree(files: Record<string, string>, folder: string) {
  const prefix = `${folder}/`;
  const entries = new Map<string, string>();
  for (const path of Object.keys(files)) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf("/");
    entries.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? "blob" : "tree");
  }
  return entries.size ? { entries: [...entries].map(([name, type]) => ({ name, type })) } : null;
}

/** `files` of repository `id` read; `readLimit` stands for the follow-up query's share of SKILL.md files. */
export function readRepo(files: Record<string, string>, id = "acme/repo", readLimit = Infinity): Read {
  const counts = new GateCounts();
  const reader = new ManifestReader(counts, TEST_EVIDENCE);
  const node: Record<string, unknown> = {};
  for (const [key, path] of Object.entries(MANIFEST_FILES)) node[`m_${key}`] = blob(files[path]);
  for (const [key, path] of Object.entries(MANIFEST_TREES)) node[`m_${key}`] = tree(files, path);
  const reading = reader.read(node, id);
  reading.skillDirs = reading.skillDirs.slice(0, readLimit);
  if (reading.skillDirs.length) {
    const objects = new Map(reading.skillDirs.map((d) => [d, blob(files[`skills/${d}/SKILL.md`])]));
    reading.details = reader.finishSkills(reading, objects, id);
  }
  const details = reader.checked(reading.details, id);
  return { details, refused: Object.fromEntries(counts.leftOut), skillDirs: reading.skillDirs };
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The install commands of a reading, in order. */
export const commands = (read: Read) => (read.details?.install ?? []).flatMap((i) => (i.command ? [i.command] : []));
