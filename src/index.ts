/**
 * Entry point: read configuration, make sure a good snapshot is in place (building or restoring
 * one when the file is missing or damaged), listen, and stop cleanly on SIGTERM/SIGINT.
 */
import { createApp } from "./app";
import { saveLastGoodInBackground } from "./catalog/lastgood";
import { prepareDatabase } from "./catalog/startup";
import { CatalogStore } from "./catalog/store";
import { type Config, ConfigError, loadConfig } from "./config";
import {
  Drain,
  IDLE_TIMEOUT_S,
  removeRefreshLeftovers,
  requestsFinished,
  Shutdown,
  stopScheduledJobs,
} from "./lifecycle";
import { createLog } from "./log";
import { refreshCron } from "./refresh/cron";

const { log, redact } = createLog();

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

redact(config.githubToken);
const databasePath = config.databasePath;
prepareDatabase(databasePath, log);
const store = new CatalogStore(databasePath, { log });
store.onSwap(() => {
  saveLastGoodInBackground(databasePath).catch((error: Error) => {
    log("snapshot.last_good_failed", { error: error.message });
  });
});
store.current();
const drain = new Drain();
const app = createApp({ store, config, log, isStopping: drain.request }).use(refreshCron({ config, store, log }));
try {
  // A second instance on the port must fail, not share it (Elysia asks for reusePort by default).
  app.listen({ port: config.port, hostname: config.host, reusePort: false, idleTimeout: IDLE_TIMEOUT_S });
} catch (error) {
  const inUse = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
  const problem = inUse ? "is already in use" : `cannot be listened on: ${(error as Error).message}`;
  console.error(`Port ${config.port} on ${config.host} ${problem}.`);
  log("server.listen_failed", { port: config.port, host: config.host, error: (error as Error).message });
  process.exit(1);
}
new Shutdown({ log })
  .add("scheduled refresh", () => stopScheduledJobs(app.store))
  .add("drain", () => drain.begin())
  .add("http", async () => {
    const server = app.server;
    // Resolves once the connections are closed; the listener closes at once.
    const closed = server?.stop(false);
    log("server.not_accepting", {});
    await requestsFinished(server);
    await closed;
  })
  .add("snapshot", () => store.close())
  .add("refresh leftovers", () => {
    const removed = removeRefreshLeftovers(databasePath);
    if (removed.length) log("refresh.leftovers_removed", { files: removed });
  })
  .listen();
// Announced only once a signal would stop the process cleanly.
log("server.listening", { url: `http://${app.server?.hostname}:${app.server?.port}`, baseUrl: config.baseUrl });
