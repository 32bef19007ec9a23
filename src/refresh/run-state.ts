/** What one refresh run works with, shared by its phases (phases.ts) and their steps. */
import type { Log } from "../base/log";
import type { loadEditorial } from "../catalog/model/editorial";
import type { Policy } from "../catalog/model/policy";
import type { PreviousCatalog } from "../catalog/snapshot/previous";
import type { Checkpoint } from "./checkpoint";
import type { PackageOptions } from "./checks/packages/package-verifier";
import type { RemoteOptions } from "./checks/remotes/remote-limits";
import type { SecurityOptions } from "./checks/security/security-checker";
import type { DiscoveryRules } from "./discover/discovery-rules";
import type { McpRegistryOptions } from "./discover/mcp-registry-source";
import type { SourceCaps } from "./discover/source-caps";
import type { GitHub } from "./github/client";
import type { Progress } from "./progress";
import type { UpstreamGate } from "./upstream/gate";

/** Everything one run works with. */
export interface Run {
  databasePath: string;
  maxDrop: number;
  /** What the data directory holds, read once when the run starts. */
  editorial: ReturnType<typeof loadEditorial>;
  rules: DiscoveryRules;
  /** The source lists' category labels by lowercased id. */
  hints: Map<string, string | null>;
  synonyms: string[][];
  /** The organization's policy, read before anything is fetched; null: the public catalog. */
  policy: Policy | null;
  previous: PreviousCatalog;
  gh: GitHub;
  progress: Progress;
  checkpoint: Checkpoint;
  gate: UpstreamGate;
  /** Each source's caps, counted across discovery and the manifests followed while fetching. */
  caps: SourceCaps;
  /** Newcomers are held back when they would grow the catalog by more than this share (REFRESH_MAX_GROWTH). */
  maxGrowth: number;
  /** The package registries asked whether a package belongs to its repository; null: none. */
  registries: PackageOptions | null;
  /** deps.dev, asked for Scorecards, advisories and provenance; null: off. */
  security: SecurityOptions | null;
  /** The official MCP registry read as a discovery source; null: not read. */
  mcpRegistry: McpRegistryOptions | null;
  /** The owner file's path in each repository (OWNER_FILE; manifests/owner-file.ts). */
  ownerFile: string;
  /** How remote MCP servers are asked what they are; null: not asked. */
  remotes: RemoteOptions | null;
  log: Log;
  now: () => Date;
}
