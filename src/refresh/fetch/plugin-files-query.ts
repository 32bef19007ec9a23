/**
 * The second follow-up query of a batch: the command, agent and SKILL.md files of each
 * marketplace plugin's folder that the first follow-up listed but did not read, for each plugin's
 * own context cost (manifests/plugin-context.ts). One query per batch at most, only when some
 * repository of the batch needs one, and at most PLUGIN_FILES_PER_QUERY files shared fairly; an
 * answer with errors leaves the files it lacks unread and those plugins' figures incomplete.
 */
import { GraphqlResponseError } from "@octokit/graphql";
import type { GitHub } from "../github/client";
import {
  finishPluginContexts,
  PLUGIN_FILES_PER_QUERY,
  pluginFilePaths,
  pluginFilesSelection,
} from "../manifests/plugin-context";
import type { ManifestReading } from "../manifests/reader";
import { fairShare } from "./fair-share";

type Json = Record<string, unknown>;

/** What the batch read of one repository: its reading, and the first follow-up's answer for it. */
export interface FollowedRead {
  reading: ManifestReading | null;
  outcome: { kind: string; facts?: { full_name: string } };
  followUp?: Json | null;
}

/** Reads the files each plugin folder's context still needs, and gives every marketplace plugin its context. */
export async function readPluginFiles(gh: GitHub, reads: ReadonlyArray<{ read: FollowedRead }>): Promise<void> {
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
  let data: Json = {};
  if (asking.length > 0) {
    const variables: Record<string, string> = {};
    const fields = asking.map((t, i) => {
      const [owner, name] = t.id.split("/") as [string, string];
      variables[`o${i}`] = owner;
      variables[`n${i}`] = name;
      return `r${i}: repository(owner: $o${i}, name: $n${i}) { ${pluginFilesSelection(t.paths)} }`;
    });
    const declarations = asking.map((_, i) => `$o${i}: String!, $n${i}: String!`).join(", ");
    const query = `query PluginFiles(${declarations}) {\n  rateLimit { cost remaining resetAt }\n  ${fields.join("\n  ")}\n}`;
    try {
      data = await gh.octokit.graphql<Json>(query, variables);
    } catch (error) {
      if (!(error instanceof GraphqlResponseError) || !error.data) throw error;
      data = error.data as Json;
    }
    gh.usage.pluginFileQueries++;
    const rate = data.rateLimit as { cost?: unknown; remaining?: unknown; resetAt?: unknown } | undefined;
    if (rate) gh.usage.addPoints(Number(rate.cost) || 0, Number(rate.remaining) || 0, String(rate.resetAt));
  }
  for (const t of todo) {
    const i = asking.indexOf(t);
    const node = i < 0 ? null : ((data[`r${i}`] as Json | null | undefined) ?? null);
    finishPluginContexts(t.reading, t.read.followUp ?? null, node, t.paths);
  }
}
