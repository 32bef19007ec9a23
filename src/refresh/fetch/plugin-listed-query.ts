/**
 * The listed-paths round of a batch: the folders and files each marketplace plugin's plugin.json
 * lists (manifests/plugin-listed.ts), read after the first follow-up brought plugin.json. One
 * query per batch at most, only when some repository of the batch has such plugins, and at most
 * LISTED_PER_QUERY paths shared fairly; a path past its share, or an answer that failed, leaves
 * its plugin partial.
 */
import { GraphqlResponseError } from "@octokit/graphql";
import type { GitHub } from "../github/client";
import {
  finishListed,
  LISTED_PER_QUERY,
  type ListedAsk,
  listedAsks,
  listedSelection,
} from "../manifests/plugin-listed";
import type { ManifestReader } from "../manifests/reader";
import { fairShare } from "./fair-share";
import type { FollowedRead } from "./plugin-files-query";

type Json = Record<string, unknown>;

/** Reads the paths the batch's plugins list, and merges them into their contents. */
export async function readListedPaths(
  gh: GitHub,
  reads: ReadonlyArray<{ read: FollowedRead }>,
  manifests: ManifestReader,
): Promise<void> {
  const todo = reads.flatMap(({ read }) => {
    const reading = read.reading;
    if (!reading || read.outcome.kind !== "fetched" || !read.outcome.facts) return [];
    const asks: ListedAsk[] = listedAsks(reading.pluginFolders);
    return asks.length > 0 ? [{ reading, id: read.outcome.facts.full_name, asks }] : [];
  });
  if (todo.length === 0) return;
  const share = fairShare(
    todo.map((t) => t.asks.length),
    LISTED_PER_QUERY,
  );
  for (const t of todo) t.asks = t.asks.slice(0, share);
  const variables: Record<string, string> = {};
  const fields = todo.map((t, i) => {
    const [owner, name] = t.id.split("/") as [string, string];
    variables[`o${i}`] = owner;
    variables[`n${i}`] = name;
    return `r${i}: repository(owner: $o${i}, name: $n${i}) { ${listedSelection(t.asks)} }`;
  });
  const declarations = todo.map((_, i) => `$o${i}: String!, $n${i}: String!`).join(", ");
  const query = `query PluginListed(${declarations}) {\n  rateLimit { cost remaining resetAt }\n  ${fields.join("\n  ")}\n}`;
  let data: Json = {};
  try {
    data = await gh.octokit.graphql<Json>(query, variables);
  } catch (error) {
    if (!(error instanceof GraphqlResponseError) || !error.data) throw error;
    data = error.data as Json;
  }
  gh.usage.pluginListedQueries++;
  const rate = data.rateLimit as { cost?: unknown; remaining?: unknown; resetAt?: unknown } | undefined;
  if (rate) gh.usage.addPoints(Number(rate.cost) || 0, Number(rate.remaining) || 0, String(rate.resetAt));
  todo.forEach((t, i) => {
    const node = (data[`r${i}`] as Json | null | undefined) ?? null;
    finishListed(manifests.gate, t.reading, node, t.asks, t.id);
  });
}
