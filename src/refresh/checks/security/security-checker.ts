/**
 * deps.dev asked once per run in batches, under its own budget (requests, per-request timeout, run
 * deadline), its answers cached beside the snapshot: a package version's for a day (advisories are
 * published after a release), a project's Scorecard for a week (deps.dev rescores weekly). A stale
 * answer is asked again and still used when the new one does not come; one older than a month is
 * forgotten. What is neither cached nor answered stays unknown.
 */
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { AdvisoryIdsSchema, ProvenanceSchema, ScorecardSchema } from "../../../catalog/model/security";
import type { RequestLimits } from "../../../settings";
import { readJsonFile, sidePath, writeJsonFile } from "../../side-files";
import { UpstreamBudget, UpstreamClient } from "../../upstream/upstream-client";
import {
  type BatchResult,
  PROJECT_BATCH,
  type ProjectFacts,
  projectBatch,
  projectKey,
  VERSION_BATCH,
  type VersionAsk,
  type VersionFacts,
  versionBatch,
  versionKey,
} from "./deps-dev";

/** deps.dev's base URL (DEPSDEV_URL) and its limits (DEPSDEV_MAX_REQUESTS, DEPSDEV_TIMEOUT_MS, DEPSDEV_BUDGET_MS). */
export interface SecurityOptions {
  depsDev: string;
  limits: RequestLimits;
}

export const VERSION_TTL_MS = 24 * 3_600_000;
export const PROJECT_TTL_MS = 7 * 24 * 3_600_000;
const FORGET_AFTER_MS = 30 * 24 * 3_600_000;
const MAX_ENTRIES = 100_000;

const VersionEntry = Type.Object({
  facts: Type.Union([
    Type.Object({
      advisories: AdvisoryIdsSchema,
      provenance: Type.Union([ProvenanceSchema, Type.Null()]),
    }),
    Type.Null(),
  ]),
  at: Type.Number(),
});
const ProjectEntry = Type.Object({
  facts: Type.Object({ scorecard: Type.Union([ScorecardSchema, Type.Null()]) }),
  at: Type.Number(),
});
const CacheFile = Type.Object({
  version: Type.Literal(1),
  versions: Type.Record(Type.String({ maxLength: 400 }), VersionEntry),
  projects: Type.Record(Type.String({ maxLength: 200 }), ProjectEntry),
});
type CacheFile = (typeof CacheFile)["static"];
const checkCache = TypeCompiler.Compile(CacheFile);

/** A cached answer: the facts (null: deps.dev does not know it) and when they were given. */
export interface Known<T> {
  facts: T | null;
  at: number;
}

export interface AskCounts {
  answered: number;
  unanswered: number;
  dropped: number;
  failures: string[];
}

export class SecurityChecker {
  readonly budget: UpstreamBudget;
  private readonly client: UpstreamClient;
  private readonly cache: CacheFile;
  private readonly path: string;
  readonly counts: AskCounts = { answered: 0, unanswered: 0, dropped: 0, failures: [] };

  constructor(
    options: SecurityOptions,
    databasePath: string,
    private readonly now: () => number = Date.now,
  ) {
    this.budget = new UpstreamBudget(options.limits, now());
    this.client = new UpstreamClient(options.depsDev, this.budget);
    this.path = sidePath(databasePath, "security.json");
    const stored = readJsonFile<unknown>(this.path);
    this.cache = checkCache.Check(stored) ? stored : { version: 1, versions: {}, projects: {} };
  }

  /** What is known of a version, unless it is a month old: that is as good as unknown. */
  version(ask: VersionAsk): Known<VersionFacts> | undefined {
    return this.usable(this.cache.versions[versionKey(ask)]);
  }

  project(repo: string): Known<ProjectFacts> | undefined {
    return this.usable(this.cache.projects[projectKey(repo)]);
  }

  private usable<T extends { at: number }>(entry: T | undefined): T | undefined {
    return entry && this.now() - entry.at < FORGET_AFTER_MS ? entry : undefined;
  }

  /** Asks deps.dev for every version and project not freshly cached, versions first, in batches. */
  async ask(versions: VersionAsk[], repos: string[]): Promise<void> {
    const now = this.now();
    const stale = (entry: { at: number } | undefined, ttl: number) => !entry || now - entry.at >= ttl;
    const wanted = new Map(versions.map((v) => [versionKey(v), v]));
    const todo = [...wanted.values()].filter((v) => stale(this.version(v), VERSION_TTL_MS));
    for (let i = 0; i < todo.length; i += VERSION_BATCH) {
      const part = todo.slice(i, i + VERSION_BATCH);
      const result = await versionBatch(this.client, part);
      this.keep(result, part.map(versionKey), this.cache.versions);
      if (this.client.down) return;
    }
    const projects = [...new Set(repos.map((r) => r.toLowerCase()))].filter((r) =>
      stale(this.project(r), PROJECT_TTL_MS),
    );
    for (let i = 0; i < projects.length; i += PROJECT_BATCH) {
      const part = projects.slice(i, i + PROJECT_BATCH);
      const result = await projectBatch(this.client, part);
      // A project deps.dev does not know has no Scorecard: not scored, as deps.dev says.
      for (const [key, facts] of result.found) if (facts === null) result.found.set(key, { scorecard: null });
      this.keep(result, part.map(projectKey), this.cache.projects);
      if (this.client.down) return;
    }
  }

  private keep<T>(result: BatchResult<T>, keys: string[], into: Record<string, Known<T>>): void {
    this.counts.dropped += result.dropped;
    if (result.failure !== null && this.counts.failures.length < 10) this.counts.failures.push(result.failure);
    const at = this.now();
    for (const key of keys) {
      if (!result.found.has(key)) {
        this.counts.unanswered++;
        continue;
      }
      this.counts.answered++;
      into[key] = { facts: result.found.get(key) ?? null, at };
    }
  }

  /** Writes the cache beside the database, without what is a month old; ends the run's timer. */
  save(): void {
    this.budget.end();
    const cutoff = this.now() - FORGET_AFTER_MS;
    const recent = <T extends { at: number }>(entries: Record<string, T>) =>
      Object.fromEntries(
        Object.entries(entries)
          .filter(([, v]) => v.at >= cutoff)
          .sort((a, b) => b[1].at - a[1].at)
          .slice(0, MAX_ENTRIES),
      );
    writeJsonFile(this.path, {
      version: 1,
      versions: recent(this.cache.versions),
      projects: recent(this.cache.projects),
    });
  }
}
