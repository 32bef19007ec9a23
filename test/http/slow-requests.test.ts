/** Slow requests are logged with their route and parsed parameters; event-loop lag is measured. */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { publishSnapshot } from "../../src/catalog/snapshot/publish";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { plugin, snapshotInput, tempDir, testConfig } from "../helpers";

const { dir, cleanup } = tempDir();
const path = join(dir, "catalog.sqlite");
publishSnapshot(path, snapshotInput([plugin("acme/one", { stars: 3, description: "postgres" }), plugin("acme/two")]));
const store = new CatalogStore(path);
afterAll(() => {
  store.close();
  cleanup();
});

function appWithThreshold(slowRequestMs: number) {
  const lines: Array<Record<string, unknown>> = [];
  const app = createApp({
    store,
    config: testConfig(),
    slowRequestMs,
    log: (event, fields) => lines.push({ event, ...fields }),
  });
  const call = (target: string) => app.handle(new Request(`http://localhost${target}`));
  return { call, slow: () => lines.filter((line) => line.event === "request.slow") };
}

test("a request over the threshold gets a slow line: route and canonical parameters, never the raw query", async () => {
  const { call, slow } = appWithThreshold(-1);
  await call("/api/v1/plugins?x=junk&sort=stars&q=%70ostgres");
  await call("/market/v1/changes?since=2026-08-22T00%3A00%3A00.000Z&y=1");
  await call("/healthz");
  const lines = slow().map(({ time, durationMs, ...rest }) => rest);
  expect(lines).toEqual([
    {
      event: "request.slow",
      method: "GET",
      route: "/api/v1/plugins",
      params: expect.any(String),
      status: 200,
    },
    {
      event: "request.slow",
      method: "GET",
      route: "/market/v1/changes",
      params: '{"since":"2026-08-22T00:00:00.000Z"}',
      status: 200,
    },
    { event: "request.slow", method: "GET", route: "/healthz", params: null, status: 200 },
  ]);
  // The list's parameters as parsed: decoded, defaults written out, the unknown one gone.
  expect(JSON.parse(lines[0]!.params as string)).toMatchObject({
    q: "postgres",
    curated: false,
    category: null,
    sort: "stars",
    page: 1,
    pageSize: 20,
  });
  expect(JSON.stringify(slow())).not.toContain("junk");
});

test("a request under the threshold gets no slow line", async () => {
  const { call, slow } = appWithThreshold(60_000);
  await call("/api/v1/plugins?q=postgres");
  expect(slow()).toEqual([]);
});
