/** Entry point: read configuration, open the snapshot (building the default when missing), listen. */
import { createApp } from "./app";
import { CatalogStore } from "./catalog/store";
import { ensureDatabase } from "./catalog/publish";
import { ConfigError, loadConfig } from "./config";
import { refreshCron } from "./refresh/cron";

function log(event: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), event, ...fields }));
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Invalid configuration: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

if (ensureDatabase(config.databasePath)) log("snapshot.created_default", { path: config.databasePath });
const store = new CatalogStore(config.databasePath, { cacheBytes: config.responseCacheBytes, log });
store.current();
const app = createApp({ store, config, log })
  .use(refreshCron({ config, store, log }))
  .listen({ port: config.port, hostname: config.host });
log("server.listening", { url: `http://${app.server?.hostname}:${app.server?.port}`, baseUrl: config.baseUrl });
