/** /openapi.json takes its examples from bounded reads: it never reads the whole catalog. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { Snapshot } from "../../src/catalog/snapshot/snapshot";
import { startServer, type TestServer } from "../helpers";

let server: TestServer;
beforeAll(() => {
  server = startServer(defaultSnapshotInput());
});
afterAll(() => server.stop());

test("a cold /openapi.json reads at most a row or two of plugins for its examples", async () => {
  const prototype = Snapshot.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const read = { sliceRows: 0 };
  const originals = { catalogRowsAfter: prototype.catalogRowsAfter! };
  prototype.catalogRowsAfter = function (this: Snapshot, ...args: unknown[]) {
    const rows = originals.catalogRowsAfter.apply(this, args) as unknown[];
    read.sliceRows += rows.length;
    return rows;
  };
  try {
    // The per-snapshot documents are written first (the swap begins them); only then is the document asked for.
    await (await fetch(`${server.url}/market/v1/catalog.json`)).arrayBuffer();
    read.sliceRows = 0;
    const res = await server.get("/openapi.json");
    expect(res.status).toBe(200);
    const document = (await res.json()) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    const example = (
      document.paths["/market/v1/catalog.json"]!.get.responses["200"] as {
        content: Record<string, { example: { items: unknown[]; total: number } }>;
      }
    ).content["application/json"]!.example;
    expect(example.items).toHaveLength(1);
    expect(example.total).toBeGreaterThan(100);
    expect(read.sliceRows).toBeLessThanOrEqual(1);
  } finally {
    Object.assign(prototype, originals);
  }
});
