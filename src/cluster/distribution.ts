/**
 * One snapshot for every instance: the instance that published stores the file in Redis (a head
 * and parts, snapshot-head.ts) and announces it on a channel; the others read its head, fetch and
 * check it in a child process (snapshot-fetch.ts, verify.ts: the hash, the exact schema, then the
 * checks of a local publish, with a time limit), rename it over their database and swap. An
 * instance also looks when it starts and after every reconnection, so an announcement missed while
 * away is caught up. A snapshot dated in the future is refused (it would never look old and would
 * block every later one), one declaring more than REDIS_SNAPSHOT_MAX_BYTES is refused unread, and
 * with REDIS_SNAPSHOT_KEY only a snapshot whose head is signed with the key is fetched at all.
 */
import { closeSync, openSync, readSync, renameSync, rmSync } from "node:fs";
import { resolveLink, temporaryPath } from "../base/atomic-write";
import type { Log } from "../base/log";
import { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import type { RedisLink } from "./redis";
import { FETCH_TIMEOUT_MS, fetchSnapshotFile } from "./snapshot-fetch";
import {
  CURRENT_KEY,
  headKey,
  PART_BYTES,
  partCount,
  partKey,
  readCurrent,
  readHead,
  type SnapshotHead,
  signatureMatches,
  signHead,
} from "./snapshot-head";

export const SNAPSHOT_CHANNEL = "catalog:snapshot";
/** A replaced file stays this long for an instance still fetching it. */
const REPLACED_TTL_MS = "300000";

/** How far ahead of this instance's clock a snapshot time may be: clocks of a cluster drift by less. */
export const CLOCK_SKEW_MS = 60_000;
/** A part is a few MB: storing one may take longer than a command. */
const PART_DEADLINE_MS = 30_000;
/** Without REDIS_SNAPSHOT_MAX_BYTES: twice the largest snapshot measured at 100,000 plugins. */
export const DEFAULT_MAX_BYTES = 1024 ** 3;

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

/** Why the current pointer read from Redis is not to be kept, or null: its time, and with a key, its head's signature. */
async function pointerProblem(link: RedisLink, current: string, now: number, key?: string): Promise<string | null> {
  const problem = timeProblem(current, now);
  if (problem !== null || !key) return problem;
  const head = await readHead(link, current);
  if (typeof head === "string") return head;
  return signatureMatches(key, head) ? null : "its head is not signed with REDIS_SNAPSHOT_KEY";
}

export interface SharingOptions {
  /** REDIS_SNAPSHOT_KEY: sign what is shared, and take only what is signed with it. */
  key?: string;
  /** REDIS_SNAPSHOT_MAX_BYTES: a snapshot declaring more is refused before any part is fetched. */
  maxBytes?: number;
  now?: () => number;
  /** How long fetching and checking one snapshot may take. */
  fetchTimeoutMs?: number;
}

/** Stores the file at `path` in parts, reading and hashing one part at a time; returns its head. */
async function storeParts(link: RedisLink, path: string, snapshotAt: string): Promise<SnapshotHead> {
  const hash = new Bun.CryptoHasher("sha256");
  const fd = openSync(path, "r");
  let bytes = 0;
  try {
    for (let part = 0; ; part++) {
      const buffer = Buffer.allocUnsafe(PART_BYTES);
      let filled = 0;
      for (;;) {
        const n = readSync(fd, buffer, filled, PART_BYTES - filled, null);
        filled += n;
        if (n === 0 || filled === PART_BYTES) break;
      }
      if (filled === 0) break;
      const piece = buffer.subarray(0, filled);
      hash.update(piece);
      bytes += filled;
      await link.run((c) => c.set(partKey(snapshotAt, part), piece), PART_DEADLINE_MS);
      if (filled < PART_BYTES) break;
    }
  } finally {
    closeSync(fd);
  }
  return { snapshotAt, bytes, sha256: hash.digest("hex") };
}

/** Lets a replaced snapshot's head and parts expire, giving instances still fetching it time. */
async function expireReplaced(link: RedisLink, snapshotAt: string): Promise<void> {
  const head = await readHead(link, snapshotAt);
  const keys =
    typeof head === "string" ? [] : Array.from({ length: partCount(head.bytes) }, (_, i) => partKey(snapshotAt, i));
  for (const key of [headKey(snapshotAt), ...keys]) await link.run((c) => c.send("PEXPIRE", [key, REPLACED_TTL_MS]));
}

/**
 * Stores the published file at `path` as every instance's snapshot unless a newer one is there, and
 * announces it: its parts first, then its head (signed with REDIS_SNAPSHOT_KEY), then the current
 * time, so no instance sees a head before its parts. A current value that is no snapshot time, one
 * dated in the future, or (with REDIS_SNAPSHOT_KEY) one whose head is not signed with the key, is
 * replaced: whoever can write to Redis cannot hold the instances on an old snapshot by a pointer alone. Runs where the refresh runs, never on a serving thread.
 */
export async function shareSnapshot(
  link: RedisLink,
  path: string,
  log: Log,
  options: SharingOptions = {},
): Promise<void> {
  const { snapshotAt } = Snapshot.recorded(path);
  const now = (options.now ?? Date.now)();
  let current = await readCurrent(link);
  const problem = current === null ? null : await pointerProblem(link, current, now, options.key);
  if (problem !== null) {
    log("snapshot.share_replacing", { current: String(current).slice(0, 100), reason: problem });
    current = null;
  }
  if (!newer(snapshotAt, current)) {
    log("snapshot.share_skipped", { snapshotAt, current, reason: "Redis holds a snapshot as new or newer" });
    return;
  }
  const head = await storeParts(link, path, snapshotAt);
  if (options.key) head.signature = signHead(options.key, head);
  await link.run((c) => c.set(headKey(snapshotAt), JSON.stringify(head)));
  await link.run((c) => c.set(CURRENT_KEY, snapshotAt));
  if (current) await expireReplaced(link, current);
  await link.run((c) => c.publish(SNAPSHOT_CHANNEL, snapshotAt));
  log("snapshot.shared", { snapshotAt, bytes: head.bytes });
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
    const snapshotAt = await readCurrent(this.link);
    if (snapshotAt === null || snapshotAt === this.refused) return;
    // Not remembered as refused: with this instance's clock behind, the same time becomes acceptable.
    const late = timeProblem(snapshotAt, (this.options.now ?? Date.now)());
    if (late !== null) return this.refuse(snapshotAt, late, false);
    // A snapshot fetched and still being prepared is not fetched again.
    if (!newer(snapshotAt, this.store.newest()?.snapshotAt)) return;
    const head = await readHead(this.link, snapshotAt);
    const problem = this.headProblem(head);
    if (problem !== null || typeof head === "string") return this.refuse(snapshotAt, problem ?? String(head));
    const target = resolveLink(this.store.path);
    const tmp = temporaryPath(target);
    try {
      const timeout = this.options.fetchTimeoutMs ?? FETCH_TIMEOUT_MS;
      const verdict = await fetchSnapshotFile(this.link.url, head, tmp, timeout);
      if (!verdict.ok && verdict.retry) throw new Error(verdict.problem);
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
    this.log("snapshot.fetched", { snapshotAt, bytes: head.bytes });
  }

  /** Why a head is not to be fetched: unreadable, unsigned or badly signed (with a key), too large. */
  private headProblem(head: SnapshotHead | string): string | null {
    if (typeof head === "string") return head;
    const { key, maxBytes = DEFAULT_MAX_BYTES } = this.options;
    if (key && !signatureMatches(key, head)) return "not signed with REDIS_SNAPSHOT_KEY";
    if (head.bytes > maxBytes) return `declares ${head.bytes} bytes, more than REDIS_SNAPSHOT_MAX_BYTES (${maxBytes})`;
    return null;
  }

  /** Logs a shared snapshot that is not taken; the local one keeps serving and stays the last good one. */
  private refuse(snapshotAt: string, reason: string, forGood = true): void {
    if (this.logged !== snapshotAt) this.log("snapshot.refused", { snapshotAt: snapshotAt.slice(0, 100), reason });
    this.logged = snapshotAt;
    if (forGood) this.refused = snapshotAt;
  }
}
