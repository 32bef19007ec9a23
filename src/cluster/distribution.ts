/**
 * One snapshot for every instance: the instance that published stores the file in Redis and
 * announces it on a channel; the others fetch it, verify it (verify.ts: the exact schema, then the
 * checks of a local publish, in a child process with a time limit), rename it over their database
 * and swap. An instance also looks when it starts and after every reconnection, so an announcement
 * missed while away is caught up. A snapshot dated in the future is refused (it would never look
 * old and would block every later one), and with REDIS_SNAPSHOT_KEY only a snapshot signed with
 * the key is taken.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { renameSync, rmSync } from "node:fs";
import { resolveLink, temporaryPath } from "../base/atomic-write";
import type { Log } from "../base/log";
import { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import type { RedisLink } from "./redis";
import { VERIFY_TIMEOUT_MS, verifySnapshotFile } from "./verify";

export const SNAPSHOT_CHANNEL = "catalog:snapshot";
const CURRENT_KEY = "catalog:snapshot:current";
/** A replaced file stays this long for an instance still fetching it. */
const REPLACED_TTL_MS = "300000";

/** How far ahead of this instance's clock a snapshot time may be: clocks of a cluster drift by less. */
export const CLOCK_SKEW_MS = 60_000;
/** A shared snapshot file of 100,000 plugins is tens of MB: reading it may take longer than a command. */
const FILE_DEADLINE_MS = 60_000;

function fileKey(snapshotAt: string): string {
  return `catalog:snapshot:file:${snapshotAt}`;
}

function signatureKey(snapshotAt: string): string {
  return `catalog:snapshot:sig:${snapshotAt}`;
}

function newer(a: string, b: string | null | undefined): boolean {
  return b === null || b === undefined || Date.parse(a) > Date.parse(b);
}

/** Why a snapshot time read from Redis cannot be taken at `now` (not a time, or in the future), or null. */
export function timeProblem(snapshotAt: string, now: number): string | null {
  const at = Date.parse(snapshotAt);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(snapshotAt) || Number.isNaN(at))
    return "not a snapshot time";
  return at > now + CLOCK_SKEW_MS ? `dated ${snapshotAt}, later than this instance's clock allows` : null;
}

/** The HMAC-SHA256 of a snapshot's time and bytes under `key`, hex. */
export function signSnapshot(key: string, snapshotAt: string, bytes: Uint8Array): string {
  return createHmac("sha256", key).update(snapshotAt).update("\n").update(bytes).digest("hex");
}

function signatureMatches(key: string, snapshotAt: string, bytes: Uint8Array, signature: string | null): boolean {
  if (signature === null) return false;
  const expected = Buffer.from(signSnapshot(key, snapshotAt, bytes), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface SharingOptions {
  /** REDIS_SNAPSHOT_KEY: sign what is shared, and take only what is signed with it. */
  key?: string;
  now?: () => number;
  verifyTimeoutMs?: number;
}

function snapshotAtOf(path: string): { snapshotAt: string; total: number } {
  const snapshot = Snapshot.open(path);
  try {
    return { snapshotAt: snapshot.snapshotAt, total: snapshot.stats.total };
  } finally {
    snapshot.close();
  }
}

/**
 * Stores the published file at `path` as every instance's snapshot unless a newer one is there, and
 * announces it. A current value that is no snapshot time, or one dated in the future, is replaced.
 */
export async function shareSnapshot(
  link: RedisLink,
  path: string,
  log: Log,
  options: SharingOptions = {},
): Promise<void> {
  const bytes = await Bun.file(path).bytes();
  const { snapshotAt } = snapshotAtOf(path);
  const now = (options.now ?? Date.now)();
  let current = await link.run((c) => c.get(CURRENT_KEY));
  const problem = current === null ? null : timeProblem(current, now);
  if (problem !== null) {
    log("snapshot.share_replacing", { current: String(current).slice(0, 100), reason: problem });
    current = null;
  }
  if (!newer(snapshotAt, current)) {
    log("snapshot.share_skipped", { snapshotAt, current, reason: "Redis holds a snapshot as new or newer" });
    return;
  }
  await link.run((c) => c.set(fileKey(snapshotAt), bytes), FILE_DEADLINE_MS);
  if (options.key)
    await link.run((c) => c.set(signatureKey(snapshotAt), signSnapshot(options.key!, snapshotAt, bytes)));
  await link.run((c) => c.set(CURRENT_KEY, snapshotAt));
  if (current) {
    await link.run((c) => c.send("PEXPIRE", [fileKey(current!), REPLACED_TTL_MS]));
    if (options.key) await link.run((c) => c.send("PEXPIRE", [signatureKey(current!), REPLACED_TTL_MS]));
  }
  await link.run((c) => c.publish(SNAPSHOT_CHANNEL, snapshotAt));
  log("snapshot.shared", { snapshotAt, bytes: bytes.byteLength });
}

/** Keeps the local snapshot at the newest one shared. */
export class SnapshotFollower {
  private running: Promise<void> | null = null;
  private again = false;

  /** The last snapshot refused for what it holds: not fetched again. */
  private refused: string | null = null;
  /** The last snapshot time a refusal was logged for, so one is logged once, not on every announcement. */
  private logged: string | null = null;

  constructor(
    private readonly link: RedisLink,
    private readonly store: CatalogStore,
    private readonly log: Log,
    private readonly options: SharingOptions = {},
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
    if (snapshotAt === null || snapshotAt === this.refused) return;
    // Not remembered as refused: with this instance's clock behind, the same time becomes acceptable.
    const late = timeProblem(snapshotAt, (this.options.now ?? Date.now)());
    if (late !== null) return this.refuse(snapshotAt, late, false);
    // A snapshot fetched and still being prepared is not fetched again.
    if (!newer(snapshotAt, this.store.newest()?.snapshotAt)) return;
    const bytes = await this.link.run((c) => c.getBuffer(fileKey(snapshotAt)), FILE_DEADLINE_MS);
    if (bytes === null) return;
    const { key } = this.options;
    if (key) {
      const signature = await this.link.run((c) => c.get(signatureKey(snapshotAt)));
      if (!signatureMatches(key, snapshotAt, bytes, signature)) {
        return this.refuse(snapshotAt, "not signed with REDIS_SNAPSHOT_KEY");
      }
    }
    const target = resolveLink(this.store.path);
    const tmp = temporaryPath(target);
    try {
      await Bun.write(tmp, bytes);
      const verdict = await verifySnapshotFile(tmp, this.options.verifyTimeoutMs ?? VERIFY_TIMEOUT_MS);
      if (!verdict.ok) return this.refuse(snapshotAt, verdict.problem);
      if (verdict.snapshotAt !== snapshotAt) {
        return this.refuse(snapshotAt, `the file says ${verdict.snapshotAt}, announced as ${snapshotAt}`);
      }
      if (verdict.detailsDropped > 0)
        this.log("snapshot.details_dropped", { snapshotAt, plugins: verdict.detailsDropped, first: verdict.dropped });
      renameSync(tmp, target);
    } finally {
      rmSync(tmp, { force: true });
    }
    this.store.reloadIfChanged();
    await this.store.prepared();
    this.log("snapshot.fetched", { snapshotAt, bytes: bytes.byteLength });
  }

  /** Logs a shared snapshot that is not taken; the local one keeps serving and stays the last good one. */
  private refuse(snapshotAt: string, reason: string, forGood = true): void {
    if (this.logged !== snapshotAt) this.log("snapshot.refused", { snapshotAt: snapshotAt.slice(0, 100), reason });
    this.logged = snapshotAt;
    if (forGood) this.refused = snapshotAt;
  }
}
