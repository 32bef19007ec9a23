/**
 * A refresh's progress, kept beside the database while it runs. A run that stops early (the budget
 * ran out, the process was killed) leaves it behind, and the next run against the same published
 * snapshot resumes from it instead of spending the calls again. It is never the catalog: only a
 * published snapshot is.
 */
import type { Discovery, Found } from "./discover";
import { readJsonFile, removeFile, sidePath, writeJsonFile } from "./files";
import type { Outcome, Outcomes } from "./outcome";

/** Older progress is stale: the facts it holds would be too old to publish as fresh. */
export const CHECKPOINT_MAX_AGE_MS = 24 * 3_600_000;
const VERSION = 1;

interface CheckpointFile {
  version: number;
  /** snapshotAt of the snapshot being refreshed; progress against another one is discarded. */
  base: string | null;
  startedAt: string;
  discovery: { found: Found[]; state: Discovery["state"] } | null;
  outcomes: Record<string, Outcome>;
}

export class Checkpoint {
  discovery: Discovery | null = null;
  readonly outcomes: Outcomes = new Map();
  private unsaved = 0;

  private constructor(readonly path: string, readonly base: string | null, readonly startedAt: string) {}

  /** The progress saved for `base`, if fresh enough, or a new empty one. */
  static open(databasePath: string, base: string | null, now: Date): { checkpoint: Checkpoint; resumed: boolean } {
    const path = sidePath(databasePath, "refresh.json");
    const file = readJsonFile<CheckpointFile>(path);
    const usable = file !== null && file.version === VERSION && file.base === base &&
      now.getTime() - Date.parse(file.startedAt) < CHECKPOINT_MAX_AGE_MS;
    const checkpoint = new Checkpoint(path, base, usable ? file.startedAt : now.toISOString());
    if (!usable) return { checkpoint, resumed: false };
    if (file.discovery) {
      checkpoint.discovery = { found: new Map(file.discovery.found.map((f) => [f.id.toLowerCase(), f])), state: file.discovery.state };
    }
    for (const [id, outcome] of Object.entries(file.outcomes)) checkpoint.outcomes.set(id, outcome);
    return { checkpoint, resumed: true };
  }

  /** Records one outcome; saves every `every` outcomes so a killed run loses little. */
  record(id: string, outcome: Outcome, every = 50): void {
    this.outcomes.set(id, outcome);
    if (++this.unsaved >= every) this.save();
  }

  save(): void {
    const file: CheckpointFile = {
      version: VERSION,
      base: this.base,
      startedAt: this.startedAt,
      discovery: this.discovery ? { found: [...this.discovery.found.values()], state: this.discovery.state } : null,
      outcomes: Object.fromEntries(this.outcomes),
    };
    writeJsonFile(this.path, file);
    this.unsaved = 0;
  }

  /** Forgets the progress: the run published, or its result was refused and must not be resumed. */
  discard(): void {
    removeFile(this.path);
  }
}
