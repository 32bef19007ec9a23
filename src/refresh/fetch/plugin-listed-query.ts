/**
 * The listed-paths round of a batch: the folders and files each marketplace plugin's plugin.json
 * lists (manifests/plugin-listed.ts), read after the first follow-up brought plugin.json. One
 * query per batch when the paths fit LISTED_PER_QUERY, more (at most ROUNDS_PER_FOLLOW_UP) for big
 * repositories, none when no repository of the batch has such plugins; a path past the last query's
 * fair share, or an answer that failed, leaves its plugin partial.
 */
import type { GitHub } from "../github/client";
import {
  finishListed,
  LISTED_PER_QUERY,
  type ListedAsk,
  listedAsks,
  listedSelection,
} from "../manifests/plugin-listed";
import type { ManifestReader } from "../manifests/reader";
import { fairRounds } from "./fair-share";
import { askMissing } from "./known-fields";
import type { FollowedRead } from "./plugin-files-query";

/** Reads the paths the batch's plugins list, and merges them into their contents. */
export async function readListedPaths(
  gh: GitHub,
  reads: ReadonlyArray<{ read: FollowedRead }>,
  manifests: ManifestReader,
  commit?: string,
): Promise<void> {
  const todo = reads.flatMap(({ read }) => {
    const reading = read.reading;
    if (!reading || read.outcome.kind !== "fetched" || !read.outcome.facts) return [];
    const asks: ListedAsk[] = listedAsks(reading.pluginFolders);
    return asks.length > 0 ? [{ reading, id: read.outcome.facts.full_name, asks, known: read.known }] : [];
  });
  const rounds = fairRounds(
    todo,
    (t) => t.asks.length,
    LISTED_PER_QUERY,
    (t, share) => {
      t.asks = t.asks.slice(0, share);
    },
  );
  for (const round of rounds) {
    const { answers, asked } = await askMissing(
      gh,
      "PluginListed",
      round.map((t) => ({ id: t.id, selection: listedSelection(t.asks), known: t.known })),
      commit,
    );
    if (asked) gh.usage.pluginListedQueries++;
    round.forEach((t, i) => {
      const node = answers[i] ?? null;
      finishListed(manifests.gate, t.reading, node, t.asks, t.id);
    });
  }
}
