/**
 * Writes the client-sync documents of a snapshot into a directory, in a child process
 * (documents-job.ts): catalog.json plain and as one gzip member, and every plugin that a
 * `changes` answer can hold, grouped by when it changed and when it was first seen (relative to the
 * snapshot times of the history), each group's plain bytes and compressed parts one region of a
 * file. `index.json` says where everything is, with each file's length and hash, so a later start
 * checks the files before it serves them.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type ChangeSet, composeEvents } from "../catalog/model/history";
import { categoriesJson } from "../catalog/snapshot/category-counts";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import { strongEtag } from "../http/render";
import { GZIP_HEADER, gzipEnd, inflatePart, PartWriter } from "./chunks";

/** Bumped when what the files hold or how they are laid out changes: older directories are then written again. */
export const DOCUMENTS_FORMAT = 2;

export const FILES = {
  catalog: "catalog.json",
  catalogGzip: "catalog.json.gz",
  groups: "groups.json",
  groupsDeflate: "groups.deflate",
} as const;
export const INDEX_FILE = "index.json";

/** The plugins of one group: the region of each file that holds them. */
export interface GroupEntry {
  changed: number;
  firstSeen: number;
  crc: number;
  plainOffset: number;
  plainBytes: number;
  deflatedOffset: number;
  deflatedBytes: number;
}

export interface DocumentIndex {
  format: number;
  /** The snapshot's identity (doc-files.ts): the directory serves only that snapshot. */
  key: string;
  snapshotAt: string;
  catalog: { etag: string; plainBytes: number; gzipBytes: number };
  /** The snapshot times of the history, oldest first. */
  times: string[];
  groups: GroupEntry[];
  /** The removals and renames from each of `times` to this snapshot. */
  changeSets: ChangeSet[];
  /** Each file's length and hash (Bun.hash chained over its writes), checked before use. */
  files: Record<string, { bytes: number; hash: string }>;
}

/** The start of catalog.json up to its first item. */
export function catalogHead(snapshot: Snapshot): string {
  const counts = snapshot.categoryCounts({ q: null, curated: false, archived: null });
  const head = `"snapshotAt":${JSON.stringify(snapshot.snapshotAt)},"total":${snapshot.stats.total}`;
  return `{${head},"categories":${categoriesJson(snapshot, counts)},"items":[`;
}

export const CATALOG_TAIL = "]}";

/** Rows read per query while writing. */
const ROWS_PER_READ = 500;

const HASH_BLOCK = 1024 * 1024;

/** A file's length and hash: Bun.hash chained over its blocks, read back from the file. */
export function fileFacts(path: string): { bytes: number; hash: string } {
  const fd = openSync(path, "r");
  try {
    const block = new Uint8Array(HASH_BLOCK);
    let hash = 0n;
    let bytes = 0;
    for (let read = readSync(fd, block); read > 0; read = readSync(fd, block)) {
      hash = BigInt(Bun.hash(block.subarray(0, read), hash));
      bytes += read;
    }
    return { bytes, hash: hash.toString(36) };
  } finally {
    closeSync(fd);
  }
}

/** A file written from the start, its length kept. */
class Output {
  private readonly fd: number;
  bytes = 0;

  constructor(private readonly path: string) {
    this.fd = openSync(path, "w");
  }

  write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(this.fd, bytes, done);
    this.bytes += bytes.byteLength;
  }

  close(): { bytes: number; hash: string } {
    closeSync(this.fd);
    return fileFacts(this.path);
  }
}

/** The number of history times before `time`: `time` is after the k-th snapshot exactly when this exceeds k. */
function interval(times: readonly string[], time: string): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (times[mid]! < time) low = mid + 1;
    else high = mid;
  }
  return low;
}

interface Group {
  changed: number;
  firstSeen: number;
  writer: PartWriter;
  items: number;
}

/**
 * An item of catalog.json and of a `changes` answer: the catalog form with `last_update` appended
 * (what the plugin's last update changed, or null), the same in both so a mirror that upserts the
 * changes stays equal to catalog.json.
 */
export function withLastUpdate(json: string, update: string | null): string {
  return `${json.slice(0, -1)},"last_update":${update ?? "null"}}`;
}

/** Writes catalog.json in both forms and sorts every row into its group; returns the catalog's entry, the groups and the ids. */
function writeCatalog(snapshot: Snapshot, times: readonly string[], dir: string) {
  const plain = new Output(join(dir, FILES.catalog));
  const gzip = new Output(join(dir, FILES.catalogGzip));
  gzip.write(GZIP_HEADER);
  const catalog = new PartWriter((bytes, part) => {
    plain.write(bytes);
    gzip.write(part.deflated);
  });
  catalog.write(catalogHead(snapshot));
  const groups = new Map<number, Group>();
  const ids = new Set<string>();
  for (let after = 0, first = true; ; ) {
    const rows = snapshot.catalogRowsAfter(after, ROWS_PER_READ);
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.rowid;
      ids.add(row.id.toLowerCase());
      const item = withLastUpdate(row.json, snapshot.lastUpdate(row.id));
      catalog.write(first ? item : `,${item}`);
      first = false;
      const changed = interval(times, row.changedAt);
      // A plugin changed at or before the oldest snapshot kept is in no answer.
      if (changed === 0) continue;
      const firstSeen = Math.min(interval(times, row.firstSeenAt), changed);
      const key = changed * (times.length + 1) + firstSeen;
      let group = groups.get(key);
      if (group === undefined) {
        group = { changed, firstSeen, writer: new PartWriter(), items: 0 };
        groups.set(key, group);
      }
      group.writer.write(group.items++ === 0 ? item : `,${item}`);
    }
  }
  catalog.write(CATALOG_TAIL);
  catalog.flush();
  gzip.write(gzipEnd(catalog.crc, catalog.plainBytes));
  const files = { [FILES.catalog]: plain.close(), [FILES.catalogGzip]: gzip.close() };
  const entry = {
    etag: strongEtag(catalog.hash, catalog.plainBytes),
    plainBytes: catalog.plainBytes,
    gzipBytes: files[FILES.catalogGzip]!.bytes,
  };
  return { entry, files, groups: [...groups.values()], ids };
}

/** Writes each group's parts one after another, compressed and plain. */
function writeGroups(groups: readonly Group[], dir: string) {
  const plain = new Output(join(dir, FILES.groups));
  const deflated = new Output(join(dir, FILES.groupsDeflate));
  const entries: GroupEntry[] = groups.map(({ changed, firstSeen, writer }) => {
    writer.flush();
    const entry = { changed, firstSeen, crc: writer.crc, plainOffset: plain.bytes, deflatedOffset: deflated.bytes };
    for (const part of writer.parts) {
      deflated.write(part.deflated);
      plain.write(inflatePart(part));
    }
    return {
      ...entry,
      plainBytes: plain.bytes - entry.plainOffset,
      deflatedBytes: deflated.bytes - entry.deflatedOffset,
    };
  });
  return { entries, files: { [FILES.groups]: plain.close(), [FILES.groupsDeflate]: deflated.close() } };
}

/**
 * Writes the documents of `snapshot` into `dir` (made whole or not at all: written beside it, then
 * renamed). Synchronous: run it in a child process.
 */
export function writeDocuments(snapshot: Snapshot, key: string, dir: string): DocumentIndex {
  const tmp = `${dir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(tmp, { recursive: true });
  try {
    const times = snapshot.historySnapshots();
    const catalog = writeCatalog(snapshot, times, tmp);
    const groups = writeGroups(catalog.groups, tmp);
    const events = snapshot.historyEvents();
    const index: DocumentIndex = {
      format: DOCUMENTS_FORMAT,
      key,
      snapshotAt: snapshot.snapshotAt,
      catalog: catalog.entry,
      times,
      groups: groups.entries,
      changeSets: times.map((since) => composeEvents(events, since, catalog.ids)),
      files: { ...catalog.files, ...groups.files },
    };
    writeFileSync(join(tmp, INDEX_FILE), JSON.stringify(index));
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(tmp, dir);
    } catch (error) {
      // Another writer of the same snapshot renamed its directory first: the same documents.
      if (!existsSync(join(dir, INDEX_FILE))) throw error;
    }
    return index;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
