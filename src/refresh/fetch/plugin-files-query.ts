/**
 * The second follow-up query of a batch: the command, agent and SKILL.md files of each
 * marketplace plugin's folder that the first follow-up listed but did not read, for each plugin's
 * own context cost (manifests/plugin-context.ts). One query per batch at most, only when some
 * repository of the batch needs one, and at most PLUGIN_FILES_PER_QUERY files shared fairly; an
 * answer with errors leaves the files it lacks unread and those plugins' figures incomplete.
 */
import type { GitHub } from "../github/client";
import {
  finishPluginContexts,
  PLUGIN_FILES_PER_QUERY,
  pluginFilePaths,
  pluginFilesSelection,
} from "../manifests/plugin-context";
import type { ManifestReading } from "../manifests/reader";
import { fairShare } from "./fair-share";
import { askRepositories } from "./repository-query";

type Json = Record<string, unknown>;

/** What the batch read of one repository: its reading, and the first follow-up's answer for it. */
export interface FollowedRead {
  reading: ManifestReading | null;
  outcome: { kind: string; facts?: { full_name: string } };
  followUp?: Json | null;
}

const ask = (t: { id: string; paths: string[] }) => ({ id: t.id, selection: pluginFilesSelection(t.paths) });

/** Reads the files each plugin folder's context still needs, and gives every marketplace plugin its context. */
export async function readPluginFiles(
  gh: GitHub,
  reads: ReadonlyArray<{ read: FollowedRead }>,
  commit?: string,
): Promise<void> {
  const todo = reads.flatMap(({ read }) =>
    read.reading && read.outcome.kind === "fetched" && read.outcome.facts && read.reading.pluginFolders.length > 0
      ? [{ read, reading: read.reading, id: read.outcome.facts.full_name, paths: pluginFilePaths(read.reading) }]
      : [],
  );
  const share = fairShare(
    todo.map((t) => t.paths.length),
    PLUGIN_FILES_PER_QUERY,
  );
  for (const t of todo) t.paths = t.paths.slice(0, share);
  const asking = todo.filter((t) => t.paths.length > 0);
  const answers = asking.length > 0 ? await askRepositories(gh, "PluginFiles", asking.map(ask), commit) : [];
  if (asking.length > 0) gh.usage.pluginFileQueries++;
  for (const t of todo) {
    const i = asking.indexOf(t);
    const node = i < 0 ? null : (answers[i] ?? null);
    finishPluginContexts(t.reading, t.read.followUp ?? null, node, t.paths);
  }
}
