/**
 * Operational endpoints beside the API (not rate limited, never cached):
 * GET /healthz — the process is alive; GET /readyz — a snapshot is loaded and fresh enough, with
 * the state of what is shared across instances when there is any.
 */
import type { CatalogStore } from "../catalog/snapshot/store";
import { JSON_TYPE } from "../http/cache";
import { secured } from "../http/headers";
import type { RouteDoc } from "../http/openapi";
import { LiveSchema, ReadySchema } from "../http/wire-schemas";

export interface Readiness {
  ready: boolean;
  snapshotAt: string | null;
  ageSeconds: number | null;
  maxAgeSeconds: number | null;
}

/** Readiness at `now` (ms): a snapshot is loaded and, when a bound is set, no older than it. */
export function readiness(snapshotAt: string | null, maxAgeSeconds: number, now: number): Readiness {
  const bound = maxAgeSeconds > 0 ? maxAgeSeconds : null;
  if (snapshotAt === null) return { ready: false, snapshotAt: null, ageSeconds: null, maxAgeSeconds: bound };
  const ageSeconds = Math.max(0, Math.floor((now - Date.parse(snapshotAt)) / 1000));
  return { ready: bound === null || ageSeconds <= bound, snapshotAt, ageSeconds, maxAgeSeconds: bound };
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: secured({ "Content-Type": JSON_TYPE, "Cache-Control": "no-store" }),
  });
}

export const healthDocs = {
  live: {
    tag: "Operations",
    summary: "Liveness: 200 while the process runs",
    description: "Never rate limited or cached.",
    body: LiveSchema,
    cached: false,
  },
  ready: {
    tag: "Operations",
    summary: "Readiness: a snapshot is loaded and no older than READY_MAX_AGE_S",
    description: "Never rate limited or cached.",
    body: ReadySchema,
    cached: false,
    more: {
      503: {
        description: "No snapshot yet, one older than READY_MAX_AGE_S, or the process is stopping.",
        body: ReadySchema,
      },
    },
  },
} satisfies Record<string, RouteDoc>;

/**
 * `maxAgeSeconds` 0 means no bound: ready whenever a snapshot is loaded. `stopping` turns readiness
 * off for good once the process has begun to stop; `details` adds the state of what is shared.
 */
export function healthHandlers(
  store: CatalogStore,
  maxAgeSeconds: number,
  stopping: () => boolean = () => false,
  now: () => number = Date.now,
  details?: () => Record<string, unknown>,
) {
  return {
    live: () => json({ status: "ok" }, 200),
    ready: () => {
      const {
        ready,
        snapshotAt,
        ageSeconds,
        maxAgeSeconds: bound,
      } = readiness(store.current()?.snapshotAt ?? null, maxAgeSeconds, now());
      if (stopping())
        return json({ status: "stopping", snapshotAt, ageSeconds, maxAgeSeconds: bound, ...details?.() }, 503);
      const status = ready ? "ready" : snapshotAt === null ? "no-snapshot" : "stale";
      return json({ status, snapshotAt, ageSeconds, maxAgeSeconds: bound, ...details?.() }, ready ? 200 : 503);
    },
  };
}
