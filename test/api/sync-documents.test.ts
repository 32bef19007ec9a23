/**
 * catalog.json and changes written once per snapshot as compressed parts: every answer equals the
 * computation straight from the database, in both forms, for every `since` in the history; byte
 * ranges, HEAD and revalidation of catalog.json.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { carryHistory } from "../../src/catalog/model/history";
import { readPrevious } from "../../src/catalog/model/previous";
import type { PluginRecord } from "../../src/catalog/model/types";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { crc32Combine, PART_BYTES, PartsBody, PartWriter, partStats } from "../../src/market/chunks";
import { PreparedDocuments, SyncDocuments } from "../../src/market/documents";
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
      const documents = await SyncDocuments.of(snapshot, 0);
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
    try {
      const prepared = new PreparedDocuments(0);
      const read = snapshot.catalogRowsAfter.bind(snapshot);
      let failures = 1;
      snapshot.catalogRowsAfter = (after, limit) => {
        if (failures-- > 0) throw new Error("disk I/O error");
        return read(after, limit);
      };
      await expect(Promise.resolve(prepared.get(snapshot))).rejects.toThrow("disk I/O error");
      expect((await prepared.get(snapshot)).snapshotAt).toBe(snapshot.snapshotAt);
    } finally {
      snapshot.close();
    }
  });

  test("the plain form is decompressed part by part as it is first sent, then kept", async () => {
    const writer = new PartWriter();
    const text = Array.from({ length: 5000 }, (_, i) => `{"n":${i},"s":"${"x".repeat(i % 50)}"}`).join(",");
    for (let at = 0; at < text.length; at += 7000) writer.write(text.slice(at, at + 7000));
    const body = new PartsBody(writer.segment());
    const inflated = partStats.inflated;
    expect(await new Response(body.body(false)).text()).toBe(text);
    expect(partStats.inflated - inflated).toBe(body.segment.parts.length);
    expect(await new Response(body.body(false, 70_000, 200_000)).text()).toBe(text.slice(70_000, 200_000));
    expect(partStats.inflated - inflated).toBe(body.segment.parts.length);
    const gzip = new Uint8Array(await new Response(body.body(true)).arrayBuffer());
    expect(new TextDecoder().decode(Bun.gunzipSync(gzip))).toBe(text);
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
      const documents = await SyncDocuments.of(snapshot, 0);
      const whole = wholeCatalog(snapshot);
      expect(await text(documents.catalog.body.body(false))).toBe(whole);
      expect(documents.catalog.body.segment.parts.length).toBeGreaterThan(3);
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
    const served = partStats.served;
    const revalidated = await server.get("/market/v1/catalog.json", {
      "accept-encoding": "identity",
      "if-none-match": plain.headers.get("etag")!,
    });
    expect([revalidated.status, await revalidated.text()]).toEqual([304, ""]);
    await fetch(`${server.url}/market/v1/catalog.json`, { method: "HEAD", headers: { "accept-encoding": "identity" } });
    // Neither a 304 nor a HEAD made any part of the body; a GET makes each once.
    expect(partStats.served).toBe(served);
    await (await server.get("/market/v1/catalog.json", { "accept-encoding": "identity" })).arrayBuffer();
    expect(partStats.served - served).toBeGreaterThan(1);
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

describe("the plain forms kept", () => {
  test("are let go when the documents are released, and made again if still asked for", async () => {
    const snapshot = Snapshot.open(server.path);
    try {
      const documents = await SyncDocuments.of(snapshot, 0);
      const body = documents.catalog.body;
      const plain = await text(body.body(false));
      expect(body.segment.parts.every((part) => part.plain !== undefined)).toBe(true);
      expect(documents.release()).toBe(true);
      expect(body.segment.parts.some((part) => part.plain !== undefined)).toBe(false);
      expect(documents.release()).toBe(false);
      expect(await text(body.body(false))).toBe(plain);
    } finally {
      snapshot.close();
    }
  });
});
