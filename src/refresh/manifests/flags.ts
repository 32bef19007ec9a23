/** The repository's own flags the batch brings beside its manifests: the fork it comes from, its latest release. */
import type { PluginDetails } from "../../catalog/model/details";
import { cleanText, isRepoId } from "../upstream/gate";
import type { Json } from "./manifest-gate";

export function forkOf(node: Json): string | null {
  const parent = (node.parent as { nameWithOwner?: unknown } | null | undefined)?.nameWithOwner;
  return node.isFork === true && isRepoId(parent) ? parent : null;
}

export function latestRelease(node: Json): PluginDetails["latest_release"] {
  const release = node.latestRelease as { tagName?: unknown; publishedAt?: unknown } | null | undefined;
  const tag = typeof release?.tagName === "string" ? cleanText(release.tagName, 100) : null;
  const date =
    typeof release?.publishedAt === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(release.publishedAt)
      ? release.publishedAt
      : null;
  return tag && date ? { tag, date } : null;
}
