/**
 * A snapshot published while the server runs is prepared before it serves: its client-sync
 * documents and its OpenAPI document written and its correction vocabulary read in slices while the
 * previous snapshot keeps answering, so no request right after a swap waits for that work.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { SyncDocuments } from "../../src/market/documents";
import { plugin, snapshotInput, tempDir, testConfig } from "../helpers";

const OLD = "2026-08-22T00:00:00.000Z";
const NEW = "2026-08-22T06:00:00.000Z";
/** More plugins than are prepared at once (PREPARED_AT_ONCE): the documents take many reads of rows. */
const COUNT = 3000;

const records = (count: number) =>
  Array.from({ length: count }, (_, i) => plugin(`acme/p${i}`, { stars: count - i, description: `tool number ${i}` }));

let dir: { dir: string; cleanup: () => void };
let store: CatalogStore;
let app: ReturnType<typeof createApp>;
let path: string;
const lines: Array<Record<string, unknown>> = [];

beforeAll(() => {
  dir = tempDir();
  path = `${dir.dir}/catalog.sqlite`;
  publishSnapshot(path, snapshotInput(records(10), OLD));
  // Slices of no length: every step of a preparation waits for a later turn of the event loop.
  store = new CatalogStore(path, { checkIntervalMs: 0, sliceMs: 0 });
  app = createApp({
    store,
    config: testConfig(),
    log: (event, fields) => lines.push({ event, ...fields }),
  });
});
afterAll(() => {
  store.close();
  dir.cleanup();
});

const ask = (p: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://catalog.test${p}`, { headers: { "accept-encoding": "identity", ...headers } }));

const cacheOf = (p: string) => lines.findLast((line) => line.event === "request" && line.route === p)?.cache;

describe("a snapshot swapped in", () => {
  test("serves only once prepared; meanwhile catalog.json answers whole from the previous snapshot", async () => {
    const first = await ask("/market/v1/catalog.json");
    expect(first.status).toBe(200);
    const oldEtag = first.headers.get("etag");
    expect(((await first.json()) as { snapshotAt: string }).snapshotAt).toBe(OLD);

    const read: string[] = [];
    const prepareVocabulary = Snapshot.prototype.prepareVocabulary;
    Snapshot.prototype.prepareVocabulary = function (this: Snapshot) {
      read.push(this.snapshotAt);
      prepareVocabulary.call(this);
    };
    // The OpenAPI document's catalog.json example is made from the snapshot it documents.
    const documented: string[] = [];
    const catalogExample = SyncDocuments.catalogExample;
    SyncDocuments.catalogExample = (snapshot: Snapshot) => {
      documented.push(snapshot.snapshotAt);
      return catalogExample.call(SyncDocuments, snapshot);
    };
    const readWhenServed: boolean[] = [];
    const documentedWhenServed: boolean[] = [];
    const stop = store.onSwap((snapshot) => {
      readWhenServed.push(read.includes(snapshot.snapshotAt));
      documentedWhenServed.push(documented.includes(snapshot.snapshotAt));
    });
    try {
      publishSnapshot(path, snapshotInput(records(COUNT), NEW));
      expect(store.reloadIfChanged()).toBe(false);
      expect(store.pending).toBe(true);
      expect(store.current()!.snapshotAt).toBe(OLD);

      // Asked right after the swap: the previous snapshot's written document, whole, with its ETag.
      const during = await ask("/market/v1/catalog.json");
      expect(store.pending).toBe(true);
      expect(during.status).toBe(200);
      expect(during.headers.get("etag")).toBe(oldEtag);
      expect(cacheOf("/market/v1/catalog.json")).toBe("hit");
      const body = (await during.json()) as { snapshotAt: string; items: unknown[] };
      expect([body.snapshotAt, body.items.length]).toEqual([OLD, 10]);
      expect((await ask(`/market/v1/changes?since=${OLD}`, { "accept-encoding": "gzip" })).status).toBe(200);
      expect(read).not.toContain(NEW);

      await store.prepared();
      expect(store.pending).toBe(false);
      expect(store.current()!.snapshotAt).toBe(NEW);
      // The vocabulary was read once while preparing, before the snapshot served.
      expect(readWhenServed).toEqual([true]);
      expect(read.filter((at) => at === NEW)).toEqual([NEW]);
      // So was the OpenAPI document, and its first request after the swap is answered from it.
      expect(documentedWhenServed).toEqual([true]);
      const openapi = (await (await ask("/openapi.json")).json()) as {
        paths: Record<
          string,
          { get: { responses: Record<string, { content: Record<string, { example: unknown }> }> } }
        >;
      };
      const example = openapi.paths["/market/v1/catalog.json"]!.get.responses["200"]!.content["application/json"]!
        .example as { snapshotAt: string };
      expect(example.snapshotAt).toBe(NEW);
      expect(documented.filter((at) => at === NEW)).toEqual([NEW]);
    } finally {
      stop();
      Snapshot.prototype.prepareVocabulary = prepareVocabulary;
      SyncDocuments.catalogExample = catalogExample;
    }

    // The vocabulary read on a worker thread corrects as the snapshot's own would: "numbr" finds "number".
    const corrected = (await (await ask("/api/v1/plugins?q=numbr")).json()) as { data: { total: number } };
    expect(corrected.data.total).toBe(COUNT);

    const after = await ask("/market/v1/catalog.json");
    expect(cacheOf("/market/v1/catalog.json")).toBe("hit");
    expect(after.headers.get("etag")).not.toBe(oldEtag);
    const swapped = (await after.json()) as { snapshotAt: string; items: unknown[] };
    expect([swapped.snapshotAt, swapped.items.length]).toEqual([NEW, COUNT]);
  });

  test("a newer file published while one is prepared replaces it; the older one never serves", async () => {
    const current = store.current()!.snapshotAt;
    publishSnapshot(path, snapshotInput(records(COUNT), "2026-08-22T12:00:00.000Z"));
    store.reloadIfChanged();
    expect(store.pending).toBe(true);
    publishSnapshot(path, snapshotInput(records(COUNT + 1), "2026-08-22T18:00:00.000Z"));
    store.reloadIfChanged();
    const served: string[] = [];
    const stop = store.onSwap((snapshot) => served.push(snapshot.snapshotAt));
    try {
      expect(store.current()!.snapshotAt).toBe(current);
      expect(store.newest()!.snapshotAt).toBe("2026-08-22T18:00:00.000Z");
      await store.prepared();
      expect(served).toEqual(["2026-08-22T18:00:00.000Z"]);
      expect(store.current()!.snapshotAt).toBe("2026-08-22T18:00:00.000Z");
    } finally {
      stop();
    }
  });
});
