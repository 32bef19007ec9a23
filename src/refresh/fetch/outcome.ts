/** What fetching one repository told the refresher. */
import type { PluginDetails } from "../../catalog/model/details";
import type { RepoFacts } from "../../catalog/model/types";
import type { PublishedNames } from "../manifests/reader";

export type Outcome =
  /**
   * Current facts, through the gate; `etag` when the platform sent one (REST). With a token the
   * fetch also looks for the evidence files: `files` are those present, `lists` the repositories
   * its marketplace manifest names, `details` what its manifests say (contents, install, flags).
   */
  | {
      kind: "fetched";
      facts: RepoFacts;
      etag: string | null;
      files?: string[];
      lists?: string[];
      details?: PluginDetails;
      /** The packages its package.json / pyproject.toml say it publishes (checks/packages/ checks them). */
      packages?: PublishedNames;
      /** Its owner file says `exclude: true`: it leaves the catalog (manifests/owner-file.ts). */
      excludedByOwner?: true;
    }
  /** `304 Not Modified`: the published facts still hold. */
  | { kind: "unchanged"; etag: string }
  /** Deleted, no longer visible to us (made private, blocked), or left out by the gate: dropped from the catalog. */
  | { kind: "gone"; reason: string };

/** Outcomes keyed by the lowercased id that was asked for (a renamed repository answers under its new name). */
export type Outcomes = Map<string, Outcome>;
