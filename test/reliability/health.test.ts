/** /healthz and /readyz: alive always; ready only with a snapshot no older than READY_MAX_AGE_S. */
import { afterEach, describe, expect, test } from "bun:test";
import { readiness } from "../../src/routes/health-routes";
import { eventually } from "../helpers";
import { appWithSnapshot, call, json, publishMarked, type TestApp } from "./support/catalog";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

describe("health endpoints", () => {
  test("/healthz answers 200 even before any snapshot exists", async () => {
    t = appWithSnapshot({}, null);
    const response = await call(t.app, "/healthz");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test("/readyz is 503 before a snapshot, and the API answers 503 in the error shape", async () => {
    t = appWithSnapshot({}, null);
    const ready = await call(t.app, "/readyz");
    expect(ready.status).toBe(503);
    expect(await json(ready)).toEqual({
      status: "no-snapshot",
      snapshotAt: null,
      ageSeconds: null,
      maxAgeSeconds: null,
    });
    const api = await call(t.app, "/api/v1/plugins");
    expect(api.status).toBe(503);
    expect(await json(api)).toEqual({ code: 503, message: "No catalog snapshot is available yet.", data: null });
  });

  test("/readyz turns 200 once a snapshot is published at the path", async () => {
    t = appWithSnapshot({}, null);
    expect((await call(t.app, "/readyz")).status).toBe(503);
    const snapshotAt = publishMarked(t.path, ago(30));
    // The store sees the new file on a change event or its next periodic check.
    let response!: Response;
    const ready = async () => {
      response = await call(t!.app, "/readyz");
      return response.status === 200;
    };
    await eventually(ready, 5000, "/readyz 200");
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ status: "ready", snapshotAt, maxAgeSeconds: null });
    expect(body.ageSeconds).toBeGreaterThanOrEqual(29);
  });

  test("/readyz gives the snapshot time and age, 200 within READY_MAX_AGE_S", async () => {
    const snapshotAt = ago(60);
    t = appWithSnapshot({ READY_MAX_AGE_S: "3600" }, snapshotAt);
    const response = await call(t.app, "/readyz");
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ status: "ready", snapshotAt, maxAgeSeconds: 3600 });
    expect(body.ageSeconds).toBeGreaterThanOrEqual(59);
    expect(body.ageSeconds).toBeLessThan(120);
  });

  test("/readyz is 503 when the snapshot is older than READY_MAX_AGE_S", async () => {
    t = appWithSnapshot({ READY_MAX_AGE_S: "3600" }, ago(7200));
    const response = await call(t.app, "/readyz");
    expect(response.status).toBe(503);
    const body = await json(response);
    expect(body.status).toBe("stale");
    expect(body.ageSeconds).toBeGreaterThanOrEqual(7200);
  });

  test("health endpoints are never rate limited", async () => {
    t = appWithSnapshot({ RATE_LIMIT_WINDOW_MS: "60000" });
    for (let i = 0; i < 5; i++) {
      expect((await call(t.app, "/healthz")).status).toBe(200);
      expect((await call(t.app, "/readyz")).status).toBe(200);
    }
  });
});

describe("readiness", () => {
  const now = Date.parse("2026-01-01T01:00:00.000Z");
  test("the bound is inclusive and 0 means none", () => {
    expect(readiness("2026-01-01T00:00:00.000Z", 3600, now)).toEqual({
      ready: true,
      snapshotAt: "2026-01-01T00:00:00.000Z",
      ageSeconds: 3600,
      maxAgeSeconds: 3600,
    });
    expect(readiness("2026-01-01T00:00:00.000Z", 3599, now).ready).toBe(false);
    expect(readiness("2020-01-01T00:00:00.000Z", 0, now).ready).toBe(true);
    expect(readiness(null, 0, now).ready).toBe(false);
  });

  test("a snapshot time in the future counts as age 0", () => {
    expect(readiness("2026-01-02T00:00:00.000Z", 60, now)).toMatchObject({ ready: true, ageSeconds: 0 });
  });
});
