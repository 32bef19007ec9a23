/**
 * Reading one repository's manifests at a commit that is not its head (a policy's approved commit
 * no snapshot read): the refresh's own GraphQL query with every `HEAD:path` expression made
 * `<commit>:path`, through the same manifest reader and gate. The platform answers a commit it
 * does not know with null objects: a refusal, never a crash.
 */
import type { PluginDetails } from "../../catalog/model/details";
import type { GitHub } from "../github/client";
import { fetchGraph, type GraphFetch } from "./fetch-graphql";

/** What reading at the approved commit gave: its details, or why there are none. */
export type CommitReading = { kind: "read"; details: PluginDetails } | { kind: "refused"; reason: string };

/** Reads `id`'s manifests at `commit` (40 lowercase hex). */
export async function fetchAtCommit(
  gh: GitHub,
  id: string,
  commit: string,
  options: GraphFetch,
): Promise<CommitReading> {
  let reading: CommitReading = { kind: "refused", reason: `not read at ${commit}` };
  await fetchGraph(gh, [id], { ...options, commit }, ([[, outcome] = ["", undefined]]) => {
    if (outcome === undefined || outcome.kind === "unchanged") return;
    if (outcome.kind === "gone") reading = { kind: "refused", reason: outcome.reason };
    else if (outcome.details === undefined)
      reading = { kind: "refused", reason: `its manifests at ${commit} did not pass the checks` };
    else if (outcome.details.contents?.commit !== commit)
      reading = { kind: "refused", reason: `no manifests to serve at ${commit}` };
    else reading = { kind: "read", details: outcome.details };
  });
  return reading;
}
