import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { eventually, plugin, snapshotInput, startServer, type TestServer } from "../helpers";

let server: TestServer;
beforeAll(() => {
  server = startServer(snapshotInput([plugin("acme/old", { stars: 1 })], "2026-08-22T00:00:00.000Z"));
});
afterAll(() => server.stop());

describe("a snapshot published while the server runs", () => {
  test("is served on a following request, without a restart, with every cached response dropped", async () => {
    const before = await server.get("/api/v1/plugins");
    const beforeEtag = before.headers.get("etag");
    const beforeFeed = await (await server.get("/plugins/feed.xml")).text();
    expect(((await before.json()) as any).data.generatedAt).toBe("2026-08-22T00:00:00.000Z");

    publishSnapshot(
      server.path,
      snapshotInput([plugin("acme/new", { stars: 5 }), plugin("acme/old", { stars: 2 })], "2026-09-01T12:00:00.000Z"),
    );

    let after!: { generatedAt: string; items: Array<{ id: string }> };
    await eventually(
      async () => {
        after = (await server.json("/api/v1/plugins")).data;
        return after.generatedAt !== "2026-08-22T00:00:00.000Z";
      },
      5000,
      "the new snapshot served",
    );
    expect(after.generatedAt).toBe("2026-09-01T12:00:00.000Z");
    expect(after.items.map((p) => p.id)).toEqual(["acme/new", "acme/old"]);
    const again = await server.get("/api/v1/plugins", { "If-None-Match": beforeEtag! });
    expect(again.status).toBe(200);
    expect(again.headers.get("etag")).not.toBe(beforeEtag);
    const feed = await (await server.get("/plugins/feed.xml")).text();
    expect(feed).not.toBe(beforeFeed);
    expect(feed).toContain("acme/new");
    const manifest = await server.json("/market/manifest.json");
    expect(manifest.snapshotAt).toBe("2026-09-01T12:00:00.000Z");
    expect(manifest.stats.total).toBe(2);
    expect((await server.json("/api/v1/plugins/acme/new")).data.generatedAt).toBe("2026-09-01T12:00:00.000Z");
  });

  test("a file that is not a snapshot leaves the current one serving", async () => {
    const current = (await server.json("/market/manifest.json")).snapshotAt;
    const refusals = () => server.lines.filter((line) => line.event === "snapshot.open_failed").length;
    const before = refusals();
    await Bun.write(`${server.path}.garbage`, "not a database at all");
    const { renameSync } = await import("node:fs");
    renameSync(`${server.path}.garbage`, server.path);
    // Requests let the store look at the file again; it has once it logs the refusal.
    await eventually(
      async () => {
        await server.get("/market/manifest.json");
        return refusals() > before;
      },
      5000,
      "the file refused (snapshot.open_failed)",
    );
    const res = await server.get("/market/manifest.json");
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).snapshotAt).toBe(current);
  });
});

describe("no snapshot at all", () => {
  test("every endpoint answers 503 in the error shape", async () => {
    const empty = startServer(null);
    try {
      const api = await empty.get("/api/v1/plugins");
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ code: 503, message: expect.any(String), data: null });
      const market = await empty.get("/market/v1/plugins");
      expect(market.status).toBe(503);
      expect(await market.json()).toEqual({ code: 503, message: expect.any(String) });
      expect((await empty.get("/plugins/feed.xml")).status).toBe(503);
    } finally {
      await empty.stop();
    }
  });
});
