/**
 * Builders for reliability tests: plugin records whose data carries a marker derived from the
 * snapshot time, real snapshot files in temporary directories, and the real app around them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../../src/app";
import type { Log } from "../../../src/base/log";
import type { PluginRecord, SnapshotInput } from "../../../src/catalog/model/types";
import { publishSnapshot } from "../../../src/catalog/snapshot/publish";
import { CatalogStore } from "../../../src/catalog/snapshot/store";
import { type Config, loadConfig } from "../../../src/config";
import { UPSTREAMS_OFF } from "../../fakes/upstreams-off";
import { plugin } from "../../records";

export const CATEGORY_IDS = ["mcp", "cli", "agents-workflows", "skills", "other"];

/** The marker every plugin of a snapshot carries in its description: its snapshot time. */
export function markerOf(snapshotAt: string): string {
  return `snapshot ${snapshotAt}`;
}

/** One plugin record; `n` picks its name, stars and categories. */
export function record(n: number, snapshotAt: string): PluginRecord {
  const category = CATEGORY_IDS[n % CATEGORY_IDS.length]!;
  return plugin(`owner${n}/repo-${n}`, {
    description: `${markerOf(snapshotAt)}: tool number ${n}`,
    category,
    categories: [category],
    stars: 100_000 - n,
    forks: n % 7,
    language: "TypeScript",
    license: "MIT",
    pushed_at: "2026-01-01T00:00:00Z",
    topics: ["mcp", `t${n % 3}`],
    curated: n % 10 === 0,
    first_seen_at: snapshotAt,
  });
}

/** A snapshot of `count` plugins, all marked with `snapshotAt`. */
export function snapshotInput(snapshotAt: string, count = 30): SnapshotInput {
  return {
    snapshotAt,
    plugins: Array.from({ length: count }, (_, i) => record(i + 1, snapshotAt)),
    categoryIds: CATEGORY_IDS,
  };
}

/** A fresh temporary directory; `cleanup` removes it. */
export function tempDir(prefix = "catalog-rel-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Publishes a marked snapshot at `path` and returns its snapshot time. */
export function publishMarked(path: string, snapshotAt: string, count = 30): string {
  publishSnapshot(path, snapshotInput(snapshotAt, count));
  return snapshotAt;
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  store: CatalogStore;
  path: string;
  lines: Array<Record<string, unknown>>;
  close: () => void;
}

/**
 * The real app over a real snapshot file in a temporary directory; config from `env`.
 * With `snapshotAt` null the file does not exist (yet). `slowRequestMs`: the app's slow-request
 * threshold (its default unless given). `checkIntervalMs`: the store's periodic check (0: every
 * request looks at the file).
 */
export function appWithSnapshot(
  env: Record<string, string> = {},
  snapshotAt: string | null = "2026-01-02T03:04:05.678Z",
  slowRequestMs?: number,
  checkIntervalMs = 20,
): TestApp {
  const { dir, cleanup } = tempDir();
  const path = join(dir, "catalog.sqlite");
  if (snapshotAt !== null) publishMarked(path, snapshotAt);
  const config: Config = loadConfig({
    RATE_LIMIT_WINDOW_MS: "0",
    REFRESH_CRON: "off",
    ...UPSTREAMS_OFF,
    DATABASE_PATH: path,
    ...env,
  });
  const lines: Array<Record<string, unknown>> = [];
  const log: Log = (event, fields) => lines.push({ event, ...fields });
  const store = new CatalogStore(path, { checkIntervalMs, log });
  const app = createApp({ store, config, log, slowRequestMs });
  return { app, store, path, lines, close: () => (store.close(), cleanup()) };
}

/** Sends a request to an app in process. */
export function call(app: TestApp["app"], path: string, init: RequestInit = {}): Promise<Response> {
  return app.handle(new Request(`http://localhost${path}`, init)) as Promise<Response>;
}

/** A response's JSON body, loosely typed for assertions. */
export async function json(response: Response): Promise<any> {
  return (await response.json()) as any;
}

/** Serves a test app over real HTTP on an ephemeral port of 127.0.0.1. */
export function serve(t: TestApp): { url: string; stop: () => Promise<void> } {
  const app = t.app.listen({ port: 0, hostname: "127.0.0.1" });
  return { url: `http://127.0.0.1:${app.server!.port}`, stop: async () => void (await app.stop(true)) };
}
