/**
 * One snapshot for every instance: the instance that published stores the file in Redis and
 * announces it on a channel; the others fetch it, check it as a local publish is checked, rename
 * it over their database and swap. An instance also looks when it starts and after every
 * reconnection, so an announcement missed while away is caught up.
 */
import { renameSync, rmSync } from "node:fs";
import { resolveLink, temporaryPath } from "../catalog/files";
import { Snapshot } from "../catalog/snapshot";
import type { CatalogStore } from "../catalog/store";
import type { Log } from "../log";
import type { RedisLink } from "./redis";
import { checkSnapshotOffThread } from "./snapshot-check";

export const SNAPSHOT_CHANNEL = "catalog:snapshot";
const CURRENT_KEY = "catalog:snapshot:current";
/** A replaced file stays this long for an instance still fetching it. */
const REPLACED_TTL_MS = "300000";

function fileKey(snapshotAt: string): string {
  return `catalog:snapshot:file:${snapshotAt}`;
}

function newer(a: string, b: string | null | undefined): boolean {
  return b === null || b === undefined || Date.parse(a) > Date.parse(b);
}

function snapshotAtOf(path: string): { snapshotAt: string; total: number } {
  const snapshot = Snapshot.open(path);
  try {
    return { snapshotAt: snapshot.snapshotAt, total: snapshot.stats.total };
  } finally {
    snapshot.close();
  }
}

/** Stores the published file at `path` as every instance's snapshot unless a newer one is there, and announces it. */
export async function shareSnapshot(link: RedisLink, path: string, log: Log): Promise<void> {
  const bytes = await Bun.file(path).bytes();
  const { snapshotAt } = snapshotAtOf(path);
  const current = await link.run((c) => c.get(CURRENT_KEY));
  if (!newer(snapshotAt, current)) return;
  await link.run((c) => c.set(fileKey(snapshotAt), bytes));
  await link.run((c) => c.set(CURRENT_KEY, snapshotAt));
  if (current) await link.run((c) => c.send("PEXPIRE", [fileKey(current), REPLACED_TTL_MS]));
  await link.run((c) => c.publish(SNAPSHOT_CHANNEL, snapshotAt));
  log("snapshot.shared", { snapshotAt, bytes: bytes.byteLength });
}

/** Keeps the local snapshot at the newest one shared. */
export class SnapshotFollower {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly link: RedisLink,
    private readonly store: CatalogStore,
    private readonly log: Log,
  ) {}

  /** Subscribes and catches up now and after every reconnection. */
  async start(): Promise<void> {
    await this.link.subscribe(SNAPSHOT_CHANNEL, () => void this.sync());
    this.link.onUp(() => void this.sync());
    await this.sync();
  }

  /** Fetches the shared snapshot when it is newer than the one served; one fetch at a time. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.fetchNewer().catch((error: Error) => {
          this.log("snapshot.fetch_failed", { error: error.message });
        });
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  private async fetchNewer(): Promise<void> {
    if (!this.link.up) return;
    const snapshotAt = await this.link.run((c) => c.get(CURRENT_KEY));
    if (snapshotAt === null || !newer(snapshotAt, this.store.current()?.snapshotAt)) return;
    const bytes = await this.link.run((c) => c.getBuffer(fileKey(snapshotAt)));
    if (bytes === null) return;
    // Written and checked off the event loop, once, then renamed over the database.
    const target = resolveLink(this.store.path);
    const tmp = temporaryPath(target);
    try {
      await Bun.write(tmp, bytes);
      const found = await checkSnapshotOffThread(tmp);
      if (found.snapshotAt !== snapshotAt) {
        throw new Error(`the shared snapshot says ${found.snapshotAt}, announced as ${snapshotAt}`);
      }
      renameSync(tmp, target);
    } finally {
      rmSync(tmp, { force: true });
    }
    this.store.reloadIfChanged();
    this.log("snapshot.fetched", { snapshotAt, bytes: bytes.byteLength });
  }
}
