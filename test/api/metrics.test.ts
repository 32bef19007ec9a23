/**
 * GET /metrics as a scraper reads it: every exposition passes `promtool check metrics` (Prometheus'
 * own parser and linter, Debian's `prometheus` package), and each family moves with what it counts:
 * a request, a 429, a cache hit, a failed refresh and a successful one, the shared state.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Metrics } from "../../src/base/metrics";
import { defaultSnapshotInput } from "../../src/catalog/snapshot/publish";
import { CatalogStore } from "../../src/catalog/snapshot/store";
import { RedisLink, sharedMode } from "../../src/cluster/redis";
import { RefreshJob, refreshRun } from "../../src/scheduler/cron";
import { freePort, RedisServer } from "../cluster/redis-server";
import { eventually, startServer, type TestServer, testConfig } from "../helpers";
import { Env } from "../refresh/support";
import { spawnService } from "../reliability/support/process";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Checks `text` with promtool; throws with its complaint when the exposition is not valid. */
function promtool(text: string): void {
  const run = Bun.spawnSync(["promtool", "check", "metrics"], { stdin: new TextEncoder().encode(text) });
  if (run.exitCode !== 0) throw new Error(`promtool check metrics: ${run.stderr.toString()}${run.stdout.toString()}`);
}

/** The samples of a validated exposition, by series as written (`name{a="b"}`). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const response = await server.get("/metrics", headers);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await response.text();
  promtool(text);
  return samples(text);
}

function serve(metrics: Metrics, options: { metricsToken?: string } = {}) {
  const server = startServer(defaultSnapshotInput(), { rateLimitWindowMs: 60_000, trustProxy: 1, metrics, ...options });
  cleanups.push(() => server.stop());
  return server;
}

const from = (ip: string) => ({ "X-Forwarded-For": ip });

describe("GET /metrics", () => {
  test("counts requests by route and status, their latency, 429s by group and cache hits and misses", async () => {
    const server = serve(new Metrics({ processMetrics: false }));
    const before = await scrape(server);
    expect(before.get('catalog_http_requests_total{route="/api/v1/plugins",status="200"}')).toBeUndefined();

    expect((await server.get("/api/v1/plugins?q=mcp", from("10.0.0.1"))).status).toBe(200);
    expect((await server.get("/api/v1/plugins?q=mcp", from("10.0.0.2"))).status).toBe(200);
    expect((await server.get("/api/v1/plugins?q=mcp", from("10.0.0.2"))).status).toBe(429);
    expect((await server.get("/no/such/page")).status).toBe(404);

    const after = await scrape(server);
    const route = 'route="/api/v1/plugins"';
    expect(after.get(`catalog_http_requests_total{${route},status="200"}`)).toBe(2);
    expect(after.get(`catalog_http_requests_total{${route},status="429"}`)).toBe(1);
    expect(after.get('catalog_http_requests_total{route="unmatched",status="404"}')).toBe(1);
    expect(after.get(`catalog_rate_limit_refusals_total{group="catalog",${route}}`)).toBe(1);
    expect(after.get(`catalog_response_cache_total{${route},result="miss"}`)).toBe(1);
    expect(after.get(`catalog_response_cache_total{${route},result="hit"}`)).toBe(1);
    expect(after.get(`catalog_http_request_duration_seconds_count{${route}}`)).toBe(3);
    expect(after.get(`catalog_http_request_duration_seconds_bucket{${route},le="+Inf"}`)).toBe(3);
    expect(after.get(`catalog_http_request_duration_seconds_sum{${route}}`)).toBeGreaterThan(0);
    // The scrape before was counted, on its own route: /metrics is no catalog endpoint.
    expect(after.get('catalog_http_requests_total{route="/metrics",status="200"}')).toBe(1);
  });

  test("shows the served snapshot's age and size, and the process: heap, RSS and event-loop lag", async () => {
    const input = defaultSnapshotInput();
    const metrics = new Metrics({
      snapshot: () => ({ snapshotAt: input.snapshotAt, total: input.plugins.length }),
      now: () => Date.parse(input.snapshotAt) + 90_000,
    });
    const got = await scrape(serve(metrics));
    expect(got.get("catalog_snapshot_age_seconds")).toBe(90);
    expect(got.get("catalog_snapshot_plugins")).toBe(input.plugins.length);
    expect(got.get("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(got.get("nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(got.get("nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(got.get("process_cpu_seconds_total")).toBeGreaterThan(0);
  });

  test("the app's own metrics read the snapshot it serves", async () => {
    const server = startServer(defaultSnapshotInput(), {});
    cleanups.push(() => server.stop());
    const got = await scrape(server);
    const input = defaultSnapshotInput();
    expect(got.get("catalog_snapshot_plugins")).toBe(input.plugins.length);
    expect(got.get("catalog_snapshot_age_seconds")).toBeGreaterThan(0);
    // Skills the default's data marks as copies of another repository's (copy_of), counted.
    const copies = input.plugins.flatMap((p) => p.details?.contents?.skills ?? []).filter((s) => s.copy_of);
    expect(got.get("catalog_snapshot_skill_copies")).toBe(copies.length);
  });

  test("is not under the per-client limit: a scraper may read it again at once", async () => {
    const server = serve(new Metrics({ processMetrics: false }));
    await scrape(server);
    await scrape(server);
    expect((await server.get("/metrics")).headers.get("ratelimit-limit")).toBeNull();
  });

  test("with METRICS_TOKEN, answers only the bearer of that token", async () => {
    const server = serve(new Metrics({ processMetrics: false }), { metricsToken: "s3cret-token" });
    const none = await server.get("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toStartWith("Bearer");
    expect(((await none.json()) as { code: number }).code).toBe(401);
    expect((await server.get("/metrics", { Authorization: "Bearer s3cret-tokeN" })).status).toBe(401);
    expect((await server.get("/metrics", { Authorization: "Basic czNjcmV0LXRva2Vu" })).status).toBe(401);
    await scrape(server, { Authorization: "Bearer s3cret-token" });
  });

  test("counts scheduled refreshes by outcome, with the last success, duration, calls and budget left", async () => {
    const env = new Env();
    cleanups.push(() => env.stop());
    env.github.add({ full_name: "acme/one", stars: 3 });
    env.publishFake();
    const store = new CatalogStore(env.databasePath);
    cleanups.push(() => store.close());
    const metrics = new Metrics({ processMetrics: false, now: () => Date.parse("2026-09-01T00:00:00Z") });
    const server = serve(metrics);
    const job = (databasePath: string) =>
      new RefreshJob({
        config: testConfig({
          refreshCron: "0 */6 * * *",
          databasePath,
          githubToken: "test-token",
          githubApiUrl: env.github.url,
          refreshMaxDrop: 0.1,
        }),
        store,
        log: () => {},
        options: env.options({ databasePath }),
        ended: (result, seconds) => metrics.refresh(refreshRun(result, seconds)),
      });

    const none = await scrape(server);
    expect(none.get('catalog_refresh_runs_total{outcome="failed"}')).toBe(0);
    expect(none.get("catalog_refresh_last_success_timestamp_seconds")).toBe(0);

    // A database path in a directory that does not exist: the run throws.
    expect((await job(`${env.dir}/missing/dir/catalog.sqlite`).tick()).status).toBe("failed");
    const failed = await scrape(server);
    expect(failed.get('catalog_refresh_runs_total{outcome="failed"}')).toBe(1);
    expect(failed.get('catalog_refresh_runs_total{outcome="published"}')).toBe(0);
    expect(failed.get('catalog_refresh_last_duration_seconds{outcome="failed"}')).toBeGreaterThanOrEqual(0);
    expect(failed.get("catalog_refresh_last_success_timestamp_seconds")).toBe(0);

    expect((await job(env.databasePath).tick()).status).toBe("published");
    const published = await scrape(server);
    expect(published.get('catalog_refresh_runs_total{outcome="published"}')).toBe(1);
    expect(published.get('catalog_refresh_runs_total{outcome="failed"}')).toBe(1);
    expect(published.get("catalog_refresh_last_success_timestamp_seconds")).toBe(Date.parse("2026-09-01") / 1000);
    expect(published.get('catalog_refresh_last_duration_seconds{outcome="published"}')).toBeGreaterThan(0);
    expect(published.get('catalog_github_calls_total{kind="graphql"}')).toBeGreaterThan(0);
    const left = published.get('catalog_github_budget_remaining{resource="graphql"}');
    const limit = published.get('catalog_github_budget_limit{resource="graphql"}');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(limit!);
  });

  test("shows the shared state: off without REDIS_URL, up while Redis answers, degraded while it does not", async () => {
    const redis = await new RedisServer().start();
    cleanups.push(() => redis.stop());
    let noticedDown!: () => void;
    const down = new Promise<void>((resolve) => (noticedDown = resolve));
    // The link's own word that it lost Redis: its redis.down line.
    const link = new RedisLink(redis.url, (event) => {
      if (event === "redis.down") noticedDown();
    });
    cleanups.push(() => link.close());
    await link.connect();
    const mode = (got: Map<string, number>) =>
      ["up", "degraded", "off"].filter((m) => got.get(`catalog_shared_state{mode="${m}"}`) === 1);

    expect(mode(await scrape(serve(new Metrics({ processMetrics: false, sharedMode: sharedMode(null) }))))).toEqual([
      "off",
    ]);
    const server = serve(new Metrics({ processMetrics: false, sharedMode: sharedMode(link) }));
    expect(mode(await scrape(server))).toEqual(["up"]);
    await redis.kill();
    await down;
    expect(mode(await scrape(server))).toEqual(["degraded"]);
  });
});

describe("GET /metrics of the service as started", () => {
  /** The service over the fake platform, refreshing every second, with `extra` in its environment. */
  async function service(extra: Record<string, string>) {
    const env = new Env();
    cleanups.push(() => env.stop());
    env.github.add({ full_name: "acme/one", stars: 3 });
    env.publishFake();
    const { service, listening } = spawnService({
      DATABASE_PATH: env.databasePath,
      REFRESH_DATA_DIR: env.dataDir,
      GITHUB_API_URL: env.github.url,
      GITHUB_TOKEN: "test-token",
      // Every second: the first tick comes while the test waits.
      REFRESH_CRON: "* * * * * *",
      METRICS_TOKEN: "scrape-me",
      ...extra,
    });
    cleanups.push(() => service.proc.kill("SIGKILL"));
    const url = await listening;
    const scrapeIt = async () => {
      const response = await fetch(`${url}/metrics`, { headers: { Authorization: "Bearer scrape-me" } });
      const text = await response.text();
      promtool(text);
      return samples(text);
    };
    return { url, service, scrapeIt };
  }

  test("asks for METRICS_TOKEN, counts a scheduled refresh that published, shows no shared state", async () => {
    const { url, service: running, scrapeIt } = await service({});
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    await running.waitFor("refresh.published", 30_000);
    // The log line comes before the run is counted and its snapshot prepared: scrape until both show.
    let got = await scrapeIt();
    await eventually(
      async () => {
        got = await scrapeIt();
        return (
          (got.get('catalog_refresh_runs_total{outcome="published"}') ?? 0) >= 1 &&
          got.get("catalog_snapshot_plugins") === 1
        );
      },
      10_000,
      "the published refresh counted and its snapshot served",
    );
    expect(got.get('catalog_refresh_runs_total{outcome="published"}')).toBeGreaterThanOrEqual(1);
    expect(got.get("catalog_refresh_last_success_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(got.get('catalog_github_calls_total{kind="graphql"}')).toBeGreaterThanOrEqual(1);
    expect(got.get('catalog_shared_state{mode="off"}')).toBe(1);
    expect(got.get("catalog_snapshot_plugins")).toBe(1);
    expect(got.get("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(got.has("catalog_memory_limit_collections_total")).toBe(true);
    expect(got.get("catalog_renders_waiting")).toBe(0);
  }, 60_000);

  test("with Redis unreachable: shared state degraded, the ticks that could not refresh counted as locked; past MEMORY_LIMIT_MB, collections", async () => {
    const { service: running, scrapeIt } = await service({
      REDIS_URL: `redis://127.0.0.1:${freePort()}`,
      // Every process is past 1 MB.
      MEMORY_LIMIT_MB: "1",
    });
    await running.waitFor("refresh.locked", 30_000);
    // Past 1 MB, a growth of 64 KB over the process's low asks for a collection.
    await eventually(
      async () => ((await scrapeIt()).get("catalog_memory_limit_collections_total") ?? 0) >= 1,
      10_000,
      "a collection asked for past MEMORY_LIMIT_MB",
    );
    const got = await scrapeIt();
    expect(got.get("catalog_memory_limit_collections_total")).toBeGreaterThanOrEqual(1);
    expect(got.get("catalog_memory_limit_pause_seconds_total")).toBeGreaterThan(0);
    expect(got.get('catalog_shared_state{mode="degraded"}')).toBe(1);
    expect(got.get('catalog_refresh_runs_total{outcome="locked"}')).toBeGreaterThanOrEqual(1);
    expect(got.get('catalog_refresh_runs_total{outcome="published"}')).toBe(0);
  }, 60_000);
});
