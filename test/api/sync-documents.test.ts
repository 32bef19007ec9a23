/**
 * catalog.json and changes written once per snapshot into files, plain and compressed: every answer
 * equals the computation straight from the database, in both forms, for every `since` in the
 * history; byte ranges, HEAD and revalidation of catalog.json; the files of an earlier start found,
 * checked and served again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { carryHistory } from "../../src/catalog/model/history";
import type { PluginRecord } from "../../src/catalog/model/types";
import { readPrevious } from "../../src/catalog/snapshot/previous";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { crc32Combine, PART_BYTES } from "../../src/market/chunks";
import { documentsRoot, spareDocumentsRoot } from "../../src/market/doc-files";
import { FILES } from "../../src/market/doc-writer";
import { documentsAhead, PreparedDocuments, SyncDocuments } from "../../src/market/documents";
import { FileBody } from "../../src/market/file-body";
import { plugin, SNAPSHOT_AT, snapshotInput, startServer, type TestServer } from "../helpers";
import { changesSince, wholeCatalog } from "../sync-oracle";

const HOUR = 3_600_000;
const PUBLISHES = 6;

/** Seeded: the same history every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Records large enough that catalog.json and the bigger answers span many parts. */
function firstRecords(count: number): PluginRecord[] {
  return Array.from({ length: count }, (_, i) =>
    plugin(`owner${i % 37}/repo-${i}`, {
      stars: (i * 7919) % 1000,
      description: `plugin ${i} ${"lorem ipsum dolor sit amet ".repeat(12)}`,
      categories: [i % 3 === 0 ? "mcp" : "skills"],
    }),
  );
}

/** Publishes a first snapshot and then PUBLISHES more, each changing, adding, removing and renaming some plugins. */
function publishHistory(path: string): string[] {
  const next = random(11);
  let records = firstRecords(900);
  const times = [SNAPSHOT_AT];
  publishSnapshot(path, snapshotInput(records));
  for (let step = 1; step <= PUBLISHES; step++) {
    const snapshotAt = new Date(Date.parse(SNAPSHOT_AT) + step * 6 * HOUR).toISOString();
    const renamed: Array<{ from: string; to: string }> = [];
    const kept = records.slice(5).map((r, i) => {
      if (i < 3) {
        const to = `${r.id}-v${step}`;
        renamed.push({ from: r.id, to });
        return { ...r, id: to, full_name: to, name: to.split("/")[1]!, previous_ids: [...r.previous_ids, r.id] };
      }
      return next() < 0.15 ? { ...r, stars: r.stars + 1 + Math.floor(next() * 5) } : r;
    });
    const added = Array.from({ length: 4 }, (_, i) =>
      plugin(`new${step}/plugin-${i}`, { stars: Math.floor(next() * 1000), first_seen_at: snapshotAt }),
    );
    records = [...kept, ...added];
    const history = carryHistory(readPrevious(path), records, renamed, snapshotAt);
    publishSnapshot(path, { ...snapshotInput(records, snapshotAt), history });
    times.push(snapshotAt);
  }
  return times;
}

const byId = (items: Array<{ id: string }>) => [...items].sort((a, b) => (a.id < b.id ? -1 : 1));
const text = (body: Blob | ReadableStream<Uint8Array>) => new Response(body).text();

let server: TestServer;
let times: string[];

beforeAll(() => {
  server = startServer(null);
  times = publishHistory(server.path);
});
afterAll(() => server.stop());

describe("changes from parts", () => {
  test("every since in the history: the same answer as the database gives, plain and gzip", async () => {
    const snapshot = Snapshot.open(server.path);
    try {
      const documents = await SyncDocuments.of(snapshot, server.path);
      expect(snapshot.historySnapshots()).toEqual(times);
      for (const since of [...times, "2026-01-01T00:00:00.000Z"]) {
        const naive = changesSince(snapshot, since);
        const answer = documents.changes(since);
        if (naive === null) {
          expect(answer, since).toBeNull();
          continue;
        }
        const plain = await text(answer!.body.body(false));
        const gzip = new Uint8Array(await new Response(answer!.body.body(true)).arrayBuffer());
        expect(new TextDecoder().decode(Bun.gunzipSync(gzip)), since).toBe(plain);
        const got = JSON.parse(plain);
        expect(Object.keys(got)).toEqual(["snapshotAt", "since", "added", "updated", "removed", "renamed"]);
        expect([got.snapshotAt, got.since]).toEqual([snapshot.snapshotAt, since]);
        expect(byId(got.added), since).toEqual(byId(naive.added.map((json) => JSON.parse(json))));
        expect(byId(got.updated), since).toEqual(byId(naive.updated.map((json) => JSON.parse(json))));
        expect([got.removed, got.renamed], since).toEqual([naive.removed, naive.renamed]);
        expect(answer!.body.plainLength).toBe(Buffer.byteLength(plain));
      }
      // The oldest since holds more than one part: the parts are really joined.
      expect(documents.changes(times[0]!)!.body.plainLength).toBeGreaterThan(2 * PART_BYTES);
    } finally {
      snapshot.close();
    }
  });

  test("over HTTP: the answer of each since, its ETag revalidates it, and a 410 past the history", async () => {
    for (const since of times) {
      const res = await server.get(`/market/v1/changes?since=${since}`, { "accept-encoding": "gzip" });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { since: string; added: unknown[] };
      expect(body.since).toBe(since);
      const again = await server.get(`/market/v1/changes?since=${since}`, {
        "if-none-match": res.headers.get("etag")!,
      });
      expect(again.status).toBe(304);
    }
    expect((await server.get("/market/v1/changes?since=2026-01-01T00:00:00.000Z")).status).toBe(410);
  });

  test("a writing that failed is begun again by the next request, not remembered", async () => {
    const snapshot = Snapshot.open(server.path);
    const path = `${server.path}-failing`;
    try {
      // No file at the path the documents are keyed by: the writing fails until it is there.
      const prepared = new PreparedDocuments(path);
      await expect(Promise.resolve(prepared.get(snapshot))).rejects.toThrow();
      await Bun.write(path, Bun.file(server.path));
      expect((await prepared.get(snapshot)).snapshotAt).toBe(snapshot.snapshotAt);
    } finally {
      snapshot.close();
      rmSync(path, { force: true });
      rmSync(`${path}-sync`, { recursive: true, force: true });
    }
  });

  test("a large snapshot's failed writer is not started again for every request", async () => {
    const path = join(server.path, "..", "large.sqlite");
    publishSnapshot(path, snapshotInput(Array.from({ length: 1001 }, (_, i) => plugin(`bulk/p-${i}`, { stars: i }))));
    const snapshot = Snapshot.open(path);
    const moved = `${path}-moved`;
    try {
      renameSync(path, moved);
      const prepared = new PreparedDocuments(path);
      const first = await Promise.resolve(prepared.get(snapshot)).catch((error: Error) => error);
      expect(first).toBeInstanceOf(Error);
      // The file is back, but within the pause the failure answers: no new writer was started.
      renameSync(moved, path);
      expect(await Promise.resolve(prepared.get(snapshot)).catch((error: Error) => error)).toBe(first);
    } finally {
      snapshot.close();
    }
  });

  test("where the database's directory takes no documents, they are written under the temporary directory", async () => {
    const path = join(server.path, "..", "spare.sqlite");
    await Bun.write(path, Bun.file(server.path));
    // A file where the documents' directory must go, as a read-only volume would refuse it.
    writeFileSync(`${path}-sync`, "in the way");
    const snapshot = Snapshot.open(path);
    try {
      const documents = await SyncDocuments.of(snapshot, path);
      expect(documents.directory.startsWith(spareDocumentsRoot(path))).toBe(true);
      expect(await text(documents.catalog.body.body(false))).toBe(wholeCatalog(snapshot));
      expect((await SyncDocuments.of(snapshot, path)).reused).toBe(true);
    } finally {
      snapshot.close();
      rmSync(spareDocumentsRoot(path), { recursive: true, force: true });
    }
  });

  test("a body of pieces in files and memory: whole, any range, small or streamed", async () => {
    const path = `${server.path}-pieces`;
    const text = Array.from({ length: 60_000 }, (_, i) => `{"n":${i},"s":"${"x".repeat(i % 50)}"}`).join(",");
    writeFileSync(path, `[${text}]`);
    try {
      const bytes = new TextEncoder().encode(text);
      const head = new TextEncoder().encode('{"a":');
      const body = new FileBody(
        [
          { bytes: head },
          { path, offset: 1, length: 700_000 },
          { path, offset: 700_001, length: bytes.byteLength - 700_000 },
        ],
        [{ path, offset: 0, length: 10 }],
      );
      const whole = `{"a":${text}`;
      expect(body.plainLength).toBe(whole.length);
      expect(await new Response(body.body(false)).text()).toBe(whole);
      for (const [start, end] of [
        [0, 3],
        [3, 700_010],
        [700_004, 700_006],
        [1000, whole.length],
      ] as const) {
        expect(await new Response(body.body(false, start, end)).text(), `${start}-${end}`).toBe(
          whole.slice(start, end),
        );
      }
      expect(await new Response(body.body(true)).text()).toBe(`[${text.slice(0, 9)}`);
    } finally {
      rmSync(path, { force: true });
    }
  });

  test("crc32Combine gives the CRC of the joined bytes", () => {
    const a = new TextEncoder().encode('{"a":[1,2,3');
    const b = new TextEncoder().encode(",4,5]}".repeat(1000));
    const joined = new Uint8Array([...a, ...b]);
    expect(crc32Combine(Bun.hash.crc32(a), Bun.hash.crc32(b), b.byteLength)).toBe(Bun.hash.crc32(joined));
  });
});

describe("catalog.json from parts", () => {
  test("adds up to the whole document rendered at once", async () => {
    const snapshot = Snapshot.open(server.path);
    try {
      const documents = await SyncDocuments.of(snapshot, server.path);
      const whole = wholeCatalog(snapshot);
      expect(await text(documents.catalog.body.body(false))).toBe(whole);
      const gzip = new Uint8Array(await new Response(documents.catalog.body.body(true)).arrayBuffer());
      expect(new TextDecoder().decode(Bun.gunzipSync(gzip))).toBe(whole);
      expect(documents.catalog.body.plainLength).toBeGreaterThan(3 * PART_BYTES);
    } finally {
      snapshot.close();
    }
  });

  async function both(headers: Record<string, string> = {}) {
    const plain = await server.get("/market/v1/catalog.json", { "accept-encoding": "identity", ...headers });
    const gzip = await fetch(`${server.url}/market/v1/catalog.json`, {
      headers: { "accept-encoding": "gzip", ...headers },
      decompress: false,
    });
    return { plain, gzip };
  }

  test("a byte range of either form is a 206 with exactly those bytes", async () => {
    const whole = await both();
    expect(whole.plain.headers.get("accept-ranges")).toBe("bytes");
    const forms = [
      ["identity", new Uint8Array(await whole.plain.arrayBuffer()), PART_BYTES],
      ["gzip", new Uint8Array(await whole.gzip.arrayBuffer()), 0],
    ] as const;
    for (const [encoding, full, boundary] of forms) {
      const length = full.byteLength;
      const middle = boundary || Math.floor(length / 2);
      // [Range header, first byte, last byte]
      const asks: Array<[string, number, number]> = [
        ["bytes=0-99", 0, 99],
        [`bytes=${middle - 10}-${middle + 9}`, middle - 10, middle + 9],
        ["bytes=1000-", 1000, length - 1],
        ["bytes=-500", length - 500, length - 1],
        ["bytes=5-99999999", 5, length - 1],
      ];
      for (const [range, first, last] of asks) {
        const res = await fetch(`${server.url}/market/v1/catalog.json`, {
          headers: { "accept-encoding": encoding, range },
          decompress: false,
        });
        expect(res.status, `${encoding} ${range}`).toBe(206);
        expect(res.headers.get("content-range"), range).toBe(`bytes ${first}-${last}/${length}`);
        const got = new Uint8Array(await res.arrayBuffer());
        expect(Buffer.compare(got, full.subarray(first, last + 1)), `${encoding} ${range}`).toBe(0);
      }
    }
  });

  test("a range past the end is 416 with the length; If-Range with a stale ETag gives the whole body", async () => {
    const { plain } = await both();
    const length = (await plain.arrayBuffer()).byteLength;
    const past = await server.get("/market/v1/catalog.json", {
      "accept-encoding": "identity",
      range: `bytes=${length}-`,
    });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${length}`);
    const stale = await server.get("/market/v1/catalog.json", {
      "accept-encoding": "identity",
      range: "bytes=0-9",
      "if-range": '"stale-1"',
    });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(length);
    const current = await server.get("/market/v1/catalog.json", {
      "accept-encoding": "identity",
      range: "bytes=0-9",
      "if-range": plain.headers.get("etag")!,
    });
    expect([current.status, await current.text()]).toEqual([206, '{"snapshot']);
    const several = await server.get("/market/v1/catalog.json", {
      "accept-encoding": "identity",
      range: "bytes=0-1,5-6",
    });
    expect(several.status).toBe(200);
  });

  test("HEAD says the length without a body; a 304 has none", async () => {
    const { plain, gzip } = await both();
    const plainLength = (await plain.arrayBuffer()).byteLength;
    const gzipLength = (await gzip.arrayBuffer()).byteLength;
    for (const [encoding, length] of [
      ["identity", plainLength],
      ["gzip", gzipLength],
    ] as const) {
      const head = await fetch(`${server.url}/market/v1/catalog.json`, {
        method: "HEAD",
        headers: { "accept-encoding": encoding },
      });
      expect([head.status, head.headers.get("content-length")]).toEqual([200, String(length)]);
    }
    const revalidated = await server.get("/market/v1/catalog.json", {
      "accept-encoding": "identity",
      "if-none-match": plain.headers.get("etag")!,
    });
    expect([revalidated.status, await revalidated.text()]).toEqual([304, ""]);
  });
});

test("the catalog of a small snapshot is one whole body with its Content-Length", async () => {
  const small = startServer(snapshotInput([plugin("acme/one", { stars: 1 })]));
  try {
    const res = await small.get("/market/v1/catalog.json", { "accept-encoding": "identity" });
    expect(Number(res.headers.get("content-length"))).toBe((await res.arrayBuffer()).byteLength);
  } finally {
    await small.stop();
  }
});

describe("the documents of an earlier start", () => {
  test("are found and checked: whole ones served again, damaged ones written again", async () => {
    const snapshot = Snapshot.open(server.path);
    try {
      const first = await SyncDocuments.of(snapshot, server.path);
      const whole = await text(first.catalog.body.body(false));
      const again = await SyncDocuments.of(snapshot, server.path);
      expect(again.directory).toBe(first.directory);
      expect(again.reused).toBe(true);
      expect(await text(again.catalog.body.body(false))).toBe(whole);
      // One byte changed, the length kept: the check finds it and the documents are written again.
      const file = join(first.directory, FILES.catalog);
      const bytes = readFileSync(file);
      bytes[100] = bytes[100] === 0x41 ? 0x42 : 0x41;
      writeFileSync(file, bytes);
      const rewritten = await SyncDocuments.of(snapshot, server.path);
      expect(rewritten.reused).toBe(false);
      expect(await text(rewritten.catalog.body.body(false))).toBe(whole);
      expect(readdirSync(documentsRoot(server.path))).toContain(first.directory.split("/").at(-1)!);
    } finally {
      snapshot.close();
    }
  });

  test("before listening, a start waits for them only when an earlier start left them", async () => {
    const path = join(server.path, "..", "ahead.sqlite");
    await Bun.write(path, Bun.file(server.path));
    const snapshot = Snapshot.open(path);
    try {
      // None left: nothing to wait for (they are written meanwhile).
      expect(await documentsAhead(snapshot, path, 5000)).toBe(false);
      await SyncDocuments.of(snapshot, path);
      const again = Snapshot.open(path);
      try {
        expect(await documentsAhead(again, path, 5000)).toBe(true);
        // The documents found ahead are the ones the app then serves.
        const prepared = new PreparedDocuments(path);
        const documents = prepared.get(again);
        expect(documents instanceof Promise ? (await documents).reused : documents.reused).toBe(true);
      } finally {
        again.close();
      }
    } finally {
      snapshot.close();
    }
  });

  test("a second server on the same file answers catalog.json from them, checked", async () => {
    const path = join(server.path, "..", "restart.sqlite");
    await Bun.write(path, Bun.file(server.path));
    const one = startServer(null, { path });
    let whole: string;
    try {
      whole = await (await one.get("/market/v1/catalog.json", { "accept-encoding": "identity" })).text();
    } finally {
      await one.stop();
    }
    const [dir] = readdirSync(documentsRoot(path));
    expect(existsSync(join(documentsRoot(path), dir!, FILES.catalogGzip))).toBe(true);
    const two = startServer(null, { path });
    try {
      const res = await two.get("/market/v1/catalog.json", { "accept-encoding": "identity" });
      expect(await res.text()).toBe(whole);
      const gzip = await fetch(`${two.url}/market/v1/catalog.json`, {
        headers: { "accept-encoding": "gzip" },
        decompress: false,
      });
      expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toBe(whole);
      expect(two.lines.filter((line) => line.event === "sync.documents").at(-1)).toMatchObject({ reused: true });
    } finally {
      await two.stop();
    }
  });
});
