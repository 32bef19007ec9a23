/**
 * The second follow-up query of a batch: the command, agent and SKILL.md files of each
 * marketplace plugin's folder that the first follow-up listed but did not read, for each plugin's
 * own context cost (manifests/plugin-context.ts). One query per batch when the files fit
 * PLUGIN_FILES_PER_QUERY, more (at most ROUNDS_PER_FOLLOW_UP) for big repositories, none when no
 * repository of the batch needs one; what the last query cannot hold is shared fairly; an
 * answer with errors leaves the files it lacks unread and those plugins' figures incomplete.
 */
import type { GitHub } from "../github/client";
import type { Gate } from "../manifests/manifest-gate";
import {
  finishPluginContexts,
  PLUGIN_FILES_PER_QUERY,
  pluginFilePaths,
  pluginFilesSelection,
} from "../manifests/plugin-context";
import type { ManifestReading } from "../manifests/reader";
import { fairRounds } from "./fair-share";
import { askMissing, type KnownFields } from "./known-fields";

type Json = Record<string, unknown>;

/** What the batch read of one repository: its reading, and the first follow-up's answer for it. */
export interface FollowedRead {
  reading: ManifestReading | null;
  outcome: { kind: string; facts?: { full_name: string } };
  followUp?: Json | null;
  /** The fields the batch and the rounds before brought: not asked again. */
  known?: KnownFields;
}

/** The files the plugins outside the root still need: the root plugin's figure is the repository's own. */
const pathsOf = (reading: ManifestReading) =>
  pluginFilePaths({ ...reading, pluginFolders: reading.pluginFolders.filter((f) => f.folder !== "") });

/** Reads the files each plugin folder's context still needs, and gives every marketplace plugin its context. */
export async function readPluginFiles(
  gh: GitHub,
  reads: ReadonlyArray<{ read: FollowedRead }>,
  gate: Gate,
  commit?: string,
): Promise<void> {
  const todo = reads.flatMap(({ read }) =>
    read.reading && read.outcome.kind === "fetched" && read.outcome.facts && read.reading.pluginFolders.length > 0
      ? [{ read, reading: read.reading, id: read.outcome.facts.full_name, paths: pathsOf(read.reading) }]
      : [],
  );
  const rounds = fairRounds(
    todo,
    (t) => t.paths.length,
    PLUGIN_FILES_PER_QUERY,
    (t, share) => {
      t.paths = t.paths.slice(0, share);
    },
  );
  for (const round of rounds) {
    const asks = round.map((t) => ({ id: t.id, selection: pluginFilesSelection(t.paths), known: t.read.known }));
    const { answers, asked } = await askMissing(gh, "PluginFiles", asks, commit);
    if (asked) gh.usage.pluginFileQueries++;
    round.forEach((t, i) => {
      const second = t.paths.length > 0 ? answers[i]! : null;
      finishPluginContexts(gate, t.reading, t.read.followUp ?? null, second, t.paths, t.id);
    });
  }
}
