/**
 * Reads one repository's files with the real manifest reader, as the refresh's GraphQL batch and
 * its follow-up query bring them (answered from the files as from a copy of the repository: clones.ts),
 * and answers the checked details and the refusals counted for the listing decision.
 */
import type { PluginDetails } from "../../../src/catalog/model/details";
import type { RepoFiles } from "../../../src/refresh/fetch/clone-files";
import { answerSelection } from "../../../src/refresh/fetch/clones";
import { finishListed, listedAsks, listedSelection } from "../../../src/refresh/manifests/plugin-listed";
import {
  ManifestReader,
  manifestSelection,
  partsSelection,
  skillSelection,
} from "../../../src/refresh/manifests/reader";
import { GateCounts } from "../../../src/refresh/upstream/gate";
import { objectId } from "../../fakes/object-ids";
import { TEST_EVIDENCE } from "../support";

export interface Read {
  details: PluginDetails | null;
  /** Refusals by reason (`manifest <file>: <reason>`). */
  refused: Record<string, number>;
  /** The skill folders the follow-up query was asked to read. */
  skillDirs: string[];
}

/** `files` as a copy of a repository: folders from the paths, each file's and folder's id a hash of what it holds. */
export function memoryFiles(files: Record<string, string>): RepoFiles {
  return {
    file(path, limit) {
      const text = files[path];
      if (text === undefined) return null;
      const bytes = Buffer.from(text);
      return { bytes: bytes.subarray(0, limit), size: bytes.length };
    },
    folder(path) {
      const prefix = path === "" ? "" : `${path}/`;
      const entries = new Map<string, "blob" | "tree">();
      for (const file of Object.keys(files)) {
        if (!file.startsWith(prefix)) continue;
        const rest = file.slice(prefix.length);
        const slash = rest.indexOf("/");
        entries.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? "blob" : "tree");
      }
      if (entries.size === 0) return null;
      return [...entries].map(([name, type]) => ({ name, type, oid: objectId(files, `${prefix}${name}`) }));
    },
  };
}

/** `files` of repository `id` read; `readLimit` stands for the follow-up query's share of SKILL.md files. */
export function readRepo(files: Record<string, string>, id = "acme/repo", readLimit = Infinity): Read {
  const counts = new GateCounts();
  const reader = new ManifestReader(counts, TEST_EVIDENCE);
  const copy = memoryFiles(files);
  const reading = reader.read(answerSelection(copy, manifestSelection()), id);
  reading.skillDirs = reading.skillDirs.slice(0, readLimit);
  if (reading.skillDirs.length || reading.skillLists.length) {
    const node = answerSelection(copy, skillSelection(reading.skillDirs, reading.skillLists));
    const objects = new Map(reading.skillDirs.map((d, k) => [d, node[`k${k}`]]));
    const lists = new Map(reading.skillLists.map((d, k) => [d, node[`l${k}`]]));
    reading.details = reader.finishSkills(reading, { objects, lists }, id);
  }
  if (reading.pluginFolders.length)
    reader.finishPlugins(reading, answerSelection(copy, partsSelection(reading.pluginFolders)), id);
  const asks = listedAsks(reading.pluginFolders);
  if (asks.length) finishListed(reader.gate, reading, answerSelection(copy, listedSelection(asks)), asks, id);
  const details = reader.checked(reading.details, id);
  return { details, refused: Object.fromEntries(counts.leftOut), skillDirs: reading.skillDirs };
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The install commands of a reading, in order. */
export const commands = (read: Read) => (read.details?.install ?? []).flatMap((i) => (i.command ? [i.command] : []));
