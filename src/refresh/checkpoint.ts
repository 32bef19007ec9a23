/**
 * A refresh's progress, kept beside the database while it runs. A run that stops early (the budget
 * ran out, the process was killed) leaves it behind, and the next run against the same published
 * snapshot resumes from it instead of spending the calls again. It is never the catalog: only a
 * published snapshot is. It is written atomically and checked against its schema when read; one
 * that does not pass, or that two runs in a row failed on, is discarded with a log line, so a
 * damaged or poisoned checkpoint can never hold the refresh in a failure loop.
 */

import { existsSync, readFileSync } from "node:fs";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Log } from "../base/log";
import { DetailsSchema } from "../catalog/model/details";
import type { Discovery, Found } from "./discover/discover";
import type { Outcome, Outcomes } from "./fetch/outcome";
import { removeFile, sidePath, writeJsonFile } from "./side-files";
import { CleanFacts, REPO_ID_PATTERN } from "./upstream/gate";

/** Older progress is stale: the facts it holds would be too old to publish as fresh. */
export const CHECKPOINT_MAX_AGE_MS = 24 * 3_600_000;
/** Runs that failed (threw) resuming the same progress before it is given up. */
const MAX_FAILURES = 2;
const VERSION = 3;

const RepoId = Type.String({ pattern: REPO_ID_PATTERN });
const StoredOutcome = Type.Union([
  Type.Object({
    kind: Type.Literal("fetched"),
    facts: CleanFacts,
    etag: Type.Union([Type.String(), Type.Null()]),
    files: Type.Optional(Type.Array(Type.String())),
    lists: Type.Optional(Type.Array(RepoId)),
    details: Type.Optional(DetailsSchema),
    excludedByOwner: Type.Optional(Type.Literal(true)),
    packages: Type.Optional(
      Type.Object(
        { npm: Type.Optional(Type.String()), pypi: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
  }),
  Type.Object({ kind: Type.Literal("unchanged"), etag: Type.String() }),
  Type.Object({ kind: Type.Literal("gone"), reason: Type.String() }),
]);
const CheckpointFile = Type.Object({
  version: Type.Literal(VERSION),
  /** snapshotAt of the snapshot being refreshed; progress against another one is discarded. */
  base: Type.Union([Type.String(), Type.Null()]),
  startedAt: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T" }),
  failures: Type.Integer({ minimum: 0 }),
  discovery: Type.Union([
    Type.Null(),
    Type.Object({
      found: Type.Array(
        Type.Object({
          id: RepoId,
          facts: Type.Union([CleanFacts, Type.Null()]),
          rules: Type.Array(Type.String()),
          listed: Type.Array(Type.String()),
          registryNames: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })),
          registryPackages: Type.Optional(Type.Array(Type.String({ maxLength: 320 }), { maxItems: 20 })),
        }),
      ),
      state: Type.Record(
        Type.String(),
        Type.Object({ runAt: Type.String(), fullAt: Type.String(), since: Type.Optional(Type.String()) }),
      ),
      capped: Type.Array(Type.Object({ rule: Type.String(), query: Type.String(), count: Type.Number() })),
      truncated: Type.Optional(
        Type.Array(
          Type.Object({
            rule: Type.String(),
            cap: Type.Union([Type.Literal("candidates"), Type.Literal("calls"), Type.Literal("bytes")]),
            size: Type.Number(),
            kept: Type.Number(),
          }),
        ),
      ),
      overCap: Type.Optional(Type.Record(Type.String(), Type.String())),
    }),
  ]),
  outcomes: Type.Record(Type.String(), StoredOutcome),
});
type CheckpointFile = Static<typeof CheckpointFile>;

export class Checkpoint {
  discovery: Discovery | null = null;
  readonly outcomes: Outcomes = new Map();
  private unsaved = 0;
  private failures = 0;

  private constructor(
    readonly path: string,
    readonly base: string | null,
    readonly startedAt: string,
  ) {}

  /** The progress saved for `base`, if fresh, sound and not failed on too often, or a new empty one. */
  static open(
    databasePath: string,
    base: string | null,
    now: Date,
    log: Log,
  ): { checkpoint: Checkpoint; resumed: boolean } {
    const path = sidePath(databasePath, "refresh.json");
    const fresh = new Checkpoint(path, base, now.toISOString());
    if (!existsSync(path)) return { checkpoint: fresh, resumed: false };
    let file: unknown;
    try {
      file = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      file = undefined;
    }
    const why = Checkpoint.unusable(file, base, now);
    if (why) {
      log("refresh.checkpoint_discarded", { reason: why });
      removeFile(path);
      return { checkpoint: fresh, resumed: false };
    }
    const saved = file as CheckpointFile;
    const checkpoint = new Checkpoint(path, base, saved.startedAt);
    checkpoint.failures = saved.failures;
    if (saved.discovery) {
      const found = new Map(saved.discovery.found.map((f) => [f.id.toLowerCase(), f as Found]));
      const { state, capped, truncated, overCap } = saved.discovery;
      checkpoint.discovery = { found, state, capped, truncated, overCap };
    }
    for (const [id, outcome] of Object.entries(saved.outcomes)) checkpoint.outcomes.set(id, outcome as Outcome);
    return { checkpoint, resumed: true };
  }

  private static unusable(file: unknown, base: string | null, now: Date): string | null {
    if (file === undefined) return "unreadable";
    if (!Value.Check(CheckpointFile, file)) return "does not match its schema";
    if (file.base !== base) return "made against another snapshot";
    if (!(now.getTime() - Date.parse(file.startedAt) < CHECKPOINT_MAX_AGE_MS)) return "older than a day";
    if (file.failures >= MAX_FAILURES) return `${file.failures} runs in a row failed resuming it`;
    return null;
  }

  /** Records one outcome; saves every `every` outcomes so a killed run loses little. */
  record(id: string, outcome: Outcome, every = 50): void {
    this.outcomes.set(id, outcome);
    if (++this.unsaved >= every) this.save();
  }

  save(): void {
    const file = {
      version: VERSION,
      base: this.base,
      startedAt: this.startedAt,
      failures: this.failures,
      discovery: this.discovery ? { ...this.discovery, found: [...this.discovery.found.values()] } : null,
      outcomes: Object.fromEntries(this.outcomes),
    } satisfies Record<keyof CheckpointFile, unknown>;
    writeJsonFile(this.path, file);
    this.unsaved = 0;
  }

  /** Saves the progress of a run that failed, counting the failure so a third run starts afresh. */
  saveFailed(): void {
    this.failures++;
    this.save();
  }

  /** Forgets the progress: the run published, or its result was refused and must not be resumed. */
  discard(): void {
    removeFile(this.path);
  }
}
