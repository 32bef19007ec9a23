/** Test builders: plugin records, snapshot files in temp dirs, and the real app on an ephemeral port. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import type { Metrics } from "../src/base/metrics";
import { type Contents, noDetails } from "../src/catalog/model/details";
import type { PluginRecord, SnapshotInput } from "../src/catalog/model/types";
import { publishSnapshot } from "../src/catalog/snapshot/publish";
import { CatalogStore } from "../src/catalog/snapshot/store";
import { type Config, loadConfig } from "../src/config";
import type { SharedLimits } from "../src/http/rate-limit";
import { UPSTREAMS_OFF } from "./fakes/upstreams-off";
import { Conformance, type OpenApiDocument } from "./openapi-conformance";
import { plugin, SNAPSHOT_AT } from "./records";

export { plugin, SNAPSHOT_AT } from "./records";

export const CATEGORY_IDS = [
  "mcp",
  "cli",
  "agents-workflows",
  "skills",
  "commands",
  "hooks",
  "ide",
  "templates",
  "observability",
  "guides",
  "other",
];

/** The full form's fields in the order the API writes them, written independently of the code. */
export const FULL_FIELDS = [
  "id",
  "name",
  "full_name",
  "url",
  "homepage",
  "description",
  "description_zh",
  "category",
  "categories",
  "stars",
  "forks",
  "language",
  "license",
  "archived",
  "created_at",
  "pushed_at",
  "topics",
];

/** A temp dir removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "catalog-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function snapshotInput(plugins: PluginRecord[], snapshotAt = SNAPSHOT_AT): SnapshotInput {
  return { snapshotAt, plugins, categoryIds: CATEGORY_IDS };
}

/** A test app's configuration: an empty environment's, without rate limit or schedule, then `overrides`. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    BASE_URL: "http://catalog.test",
    RATE_LIMIT_WINDOW_MS: "0",
    REFRESH_CRON: "off",
    ...UPSTREAMS_OFF,
  });
  return { ...base, ...overrides };
}

export interface TestServer {
  url: string;
  path: string;
  dir: string;
  store: CatalogStore;
  /** The lines the app logged, as objects with their event. */
  lines: Array<Record<string, unknown>>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  json<T = any>(path: string): Promise<T>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  rateLimitWindowMs?: number;
  trustProxy?: boolean | number;
  baseUrl?: string;
  cacheBytes?: number;
  /** REFRESH_CRON: what the listing answers give as the next check; none by default. */
  refreshCron?: string;
  /** What /metrics exposes (the app makes its own when absent). */
  metrics?: Metrics;
  metricsToken?: string;
  /** The limits shared across instances (REDIS_URL's RedisLimits). */
  sharedLimits?: SharedLimits;
  /** Any other settings. */
  config?: Partial<Config>;
  /** Serve this database file (left in place on stop) instead of a fresh one. */
  path?: string;
  /** The clock requests and the rate limits' windows are timed on (the app's own by default). */
  now?: () => number;
}

/** Publishes `input` to a fresh SQLite file and serves it with the real app on 127.0.0.1:0. */
export function startServer(input: SnapshotInput | null, options: ServerOptions = {}): TestServer {
  const { dir, cleanup } = tempDir();
  const path = options.path ?? join(dir, "catalog.sqlite");
  if (input) publishSnapshot(path, input);
  const lines: Array<Record<string, unknown>> = [];
  const store = new CatalogStore(path, {
    checkIntervalMs: 50,
    log: (event, fields) => lines.push({ event, ...fields }),
  });
  const app = createApp({
    store,
    config: testConfig({
      baseUrl: options.baseUrl ?? "http://catalog.test",
      rateLimitWindowMs: options.rateLimitWindowMs ?? 0,
      trustProxy: Number(options.trustProxy ?? 0),
      responseCacheBytes: options.cacheBytes ?? 8 * 1024 * 1024,
      refreshCron: options.refreshCron ?? null,
      metricsToken: options.metricsToken,
      ...options.config,
    }),
    log: (event, fields) => lines.push({ event, ...fields }),
    metrics: options.metrics,
    sharedLimits: options.sharedLimits,
    now: options.now,
  }).listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}`;
  // Every response a test receives is checked against the service's own OpenAPI document.
  let conformance: Conformance | null = null;
  const checked = async (p: string, response: Response) => {
    if (conformance === null && !p.startsWith("/openapi.json")) {
      const doc = await app.handle(new Request(`${url}/openapi.json`));
      if (doc.status === 200) conformance = new Conformance((await doc.json()) as OpenApiDocument);
    }
    const problems = conformance ? await conformance.problems(p, response.clone() as Response) : [];
    if (problems.length) throw new Error(`GET ${p} does not match /openapi.json:\n${problems.join("\n")}`);
    return response;
  };
  const get = async (p: string, headers: Record<string, string> = {}) =>
    checked(p, (await fetch(url + p, { headers })) as Response);
  return {
    url,
    path,
    dir,
    store,
    lines,
    get,
    async json(p) {
      const res = await get(p);
      if (res.status !== 200) throw new Error(`GET ${p} → ${res.status}: ${await res.text()}`);
      return (await res.json()) as any;
    },
    async stop() {
      await app.stop(true);
      store.close();
      cleanup();
    },
  };
}

/** Every item of a list endpoint, paging until `total` is reached. */
export async function collectAll(
  server: TestServer,
  path: string,
  pageSize: number,
): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  const sep = path.includes("?") ? "&" : "?";
  for (let page = 1; page < 1000; page++) {
    const body = await server.json(`${path}${sep}page=${page}&pageSize=${pageSize}`);
    const data = body.data ?? body;
    totals.push(data.total);
    if (data.items.length === 0) break;
    ids.push(...data.items.map((p: { id: string }) => p.id));
  }
  return { ids, totals };
}

/** The pause between two looks of `eventually`: a poll's own, not a wait for time to pass. */
const POLL_MS = 20;

/**
 * The one way a test waits for something to happen that no promise or event tells: polls `check`
 * until it holds, failing with `what` after `ms`; answers how long it took.
 */
export async function eventually(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await Bun.sleep(POLL_MS);
  }
  return Date.now() - started;
}

/** Waits until something answers `/healthz` at `url` (a process just started), about 5 s at most. */
export async function accepting(url: string): Promise<void> {
  await eventually(
    () =>
      fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      ),
    5000,
    `something answering at ${url}`,
  );
}

/** A Claude Code marketplace repository whose entries are `[name, source]`, pinned to `commit` when given. */
export function marketplacePlugin(
  id: string,
  entries: Array<[string, string]>,
  fields: Partial<PluginRecord> = {},
  commit?: string,
): PluginRecord {
  const plugins = entries.map(([name, source]) => ({ name, source, description: `${name} does things` }));
  const contents: Contents = {
    skills: [],
    commands: [],
    agents: [],
    hooks: [],
    mcp_servers: [],
    plugins,
    counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, plugins: plugins.length },
    ...(commit ? { commit } : {}),
  };
  return plugin(id, { ...fields, details: { ...noDetails(), works_with: ["claude-code"], contents } });
}
