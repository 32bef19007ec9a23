/**
 * Entry point: read configuration, make sure a good snapshot is in place (building or restoring
 * one when the file is missing or damaged), listen, and stop cleanly on SIGTERM/SIGINT.
 */
import { existsSync } from "node:fs";
import { createApp, servedSnapshot } from "./app";
import { createLog } from "./base/log";
import { MemoryLimit } from "./base/memory-limit";
import { Metrics } from "./base/metrics";
import { categoryInfo, loadEditorial } from "./catalog/model/editorial";
import type { Policy } from "./catalog/model/policy";
import { saveLastGoodInBackground } from "./catalog/snapshot/last-good";
import { holdToPolicy } from "./catalog/snapshot/policy-review";
import { startDocuments } from "./catalog/snapshot/prepared";
import { prepareDatabase } from "./catalog/snapshot/startup";
import { CatalogStore } from "./catalog/snapshot/store";
import { SnapshotFollower } from "./cluster/distribution";
import { RedisLink, sharedMode } from "./cluster/redis";
import { RedisLimits } from "./cluster/shared-limit";
import { type Config, ConfigError, loadConfig, policyPath } from "./config";
import { Stopping } from "./http/stopping";
import { removeRefreshLeftovers, Shutdown, stopScheduledJobs } from "./lifecycle";
import { documentsAhead } from "./market/documents";
import { refreshCron, refreshRun } from "./scheduler/cron";

const { log, redact } = createLog();
/** The longest a start waits for the previous start's client-sync documents to be checked. */
const DOCUMENTS_WAIT_MS = 5000;

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Invalid configuration: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

// The policy's reader (and its YAML parser) is loaded only where there is a policy file.
let policy: Policy | null = null;
if (existsSync(policyPath(config))) {
  const { loadPolicy, PolicyError } = await import("./catalog/model/policy-file");
  try {
    policy = loadPolicy(
      policyPath(config),
      categoryInfo(loadEditorial(config.refreshDataDir)).map((c) => c.id),
    );
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    console.error(`Invalid policy: ${error.message}`);
    process.exit(2);
  }
}

redact(config.githubToken);
redact(config.metricsToken);
redact(config.readToken);
const databasePath = config.databasePath;
prepareDatabase(databasePath, log, policy);
// A snapshot built under another policy, or none, is held to this one before anything is served.
if (policy !== null && holdToPolicy(databasePath, policy, loadEditorial(config.refreshDataDir))) {
  log("snapshot.policy_applied", { path: databasePath, policy: policy.file });
}
const store = new CatalogStore(databasePath, { log, policy });
store.onSwap(() => {
  saveLastGoodInBackground(databasePath).catch((error: Error) => {
    log("snapshot.last_good_failed", { error: error.message });
  });
});
store.current();
const redis = config.redisUrl ? new RedisLink(config.redisUrl, log) : null;
redact(config.redisUrl);
redact(config.redisSnapshotKey);
const sharing = { key: config.redisSnapshotKey, maxBytes: config.redisSnapshotMaxBytes };
if (redis && !config.redisSnapshotKey) {
  log("snapshot.unsigned", {
    warning:
      "REDIS_URL without REDIS_SNAPSHOT_KEY: this instance takes any snapshot written to Redis, signed or not; set the same REDIS_SNAPSHOT_KEY on every instance",
  });
}
if (redis) {
  // The shared snapshot is in place before the server listens, so /readyz never shows the default.
  await redis.connect();
  await new SnapshotFollower(redis, store, log, sharing).start();
}
const stopping = new Stopping();
const metrics = new Metrics({
  snapshot: servedSnapshot(store),
  sharedMode: sharedMode(redis),
});
if (config.memoryLimitMb > 0) metrics.memoryLimit(new MemoryLimit({ limitBytes: config.memoryLimitMb * 2 ** 20 }));
// The first catalog.json is answered at once when the previous start left its documents: they are
// checked (in a child process) before the server listens.
const first = store.loaded;
if (first !== null) await documentsAhead(first, databasePath, DOCUMENTS_WAIT_MS);
const app = createApp({
  store,
  config,
  log,
  stopping,
  sharedLimits: redis ? new RedisLimits(redis) : undefined,
  readyDetails: redis ? () => ({ redis: { ...redis.state, limiter: redis.up ? "shared" : "in-process" } }) : undefined,
  metrics,
}).use(
  refreshCron({
    config,
    store,
    log,
    redisUp: redis ? () => redis.up : undefined,
    ended: (result, seconds) => metrics.refresh(refreshRun(result, seconds)),
  }),
);
// The served documents (marketplaces, the registry's list, /openapi.json) are written in slices before
// the first client arrives, so its request never waits on a document finishing on the event loop.
const writingStarted = performance.now();
await startDocuments();
log("server.documents_written", { ms: Math.round(performance.now() - writingStarted) });
try {
  // reusePort off: a second instance on a taken port must fail, not silently take half the connections.
  app.listen({ port: config.port, hostname: config.host, reusePort: false, idleTimeout: config.idleTimeoutS });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${(error as Error).message})`;
  log("server.listen_failed", { host: config.host, port: config.port, code: code ?? null });
  console.error(`Port ${config.port} on ${config.host} ${reason}.`);
  process.exit(1);
}
new Shutdown({ log })
  .add("readiness off, connections closing", () => {
    stopping.begin();
    // Busy keep-alive connections get a response saying Connection: close before the stop cuts idle ones.
    return Bun.sleep(config.stopGraceMs);
  })
  .add("scheduled refresh", async () => {
    const ended = await stopScheduledJobs(app.store);
    if (ended) log("refresh.ended", { reason: "the server is stopping", processes: ended });
  })
  .add("http", () => app.stop(false))
  .add("redis", () => redis?.close())
  .add("snapshot", () => store.close())
  .add("refresh leftovers", () => {
    const removed = removeRefreshLeftovers(databasePath);
    if (removed.length) log("refresh.leftovers_removed", { files: removed });
  })
  .listen();
// Announced only once a signal would stop the process cleanly.
log("server.listening", { url: `http://${app.server?.hostname}:${app.server?.port}`, baseUrl: config.baseUrl });
