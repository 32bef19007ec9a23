/** /api/v1/categories?q= counts every category from one match set, and its counts are the list's totals. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Speller } from "../../src/catalog/search/speller";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { startServer, type TestServer } from "../helpers";

let server: TestServer;
beforeAll(() => {
  server = startServer(defaultSnapshotInput());
});
afterAll(() => server.stop());

const QUERIES = [
  "q=postgres",
  "q=postgres&archived=false",
  "q=mcp%20server&curated=1",
  "q=databse",
  "q=githib%20memroy",
  "q=zzqx%20blorp%20postgras%20qwxv",
  "q=a",
  "q=hook&archived=true",
];

describe("facets", () => {
  test.each(QUERIES)("%s: each category's count is the list's total with that category", async (query) => {
    const body = await server.json(`/api/v1/categories?${query}`);
    for (const { id, count } of body.data.items as Array<{ id: string; count: number }>) {
      const list = await server.json(`/api/v1/plugins?${query}&category=${id}&pageSize=1`);
      expect(count, `${query} ${id}`).toBe(list.data.total);
    }
  });

  test("a search that finds nothing is corrected once for all categories", async () => {
    const prototype = Speller.prototype as unknown as { corrected: (read: unknown) => unknown };
    const original = prototype.corrected;
    let calls = 0;
    prototype.corrected = function (this: Speller, read: unknown) {
      calls++;
      return original.call(this, read);
    };
    try {
      const res = await server.get("/api/v1/categories?q=zzqx%20blorp%20postgras%20memroy");
      expect(res.status).toBe(200);
      expect(calls).toBe(1);
    } finally {
      prototype.corrected = original;
    }
  });
});
