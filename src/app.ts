/**
 * The application: every route on one screen. createApp never listens; index.ts does, tests call it.
 */
import { Elysia } from "elysia";
import type { CatalogStore } from "./catalog/store";
import type { Config } from "./config";
import { errorBody, HttpError } from "./http/errors";
import { requestGuards } from "./http/guard";
import { secured } from "./http/headers";
import { limitHeaders, rateLimit } from "./http/limit";
import { RequestLog } from "./http/requestlog";
import { feedRoutes } from "./routes/feed";
import { healthRoutes } from "./routes/health";
import { marketRoutes } from "./routes/market";
import { lineSinkVia, type LineSink, type Log } from "./log";
import { pluginRoutes } from "./routes/plugins";

export type { Log } from "./log";

export interface AppDeps {
  store: CatalogStore;
  config: Pick<Config, "baseUrl" | "rateLimitWindowMs" | "trustProxy"> & Partial<Pick<Config, "rateLimitMaxKeys" | "readyMaxAgeS" | "logClientIp">>;
  log?: Log;
  /** The same log for lines written as bytes (the request log's); by default parsed and handed to `log`. */
  lines?: LineSink;
}

const ERROR_TYPE = "application/json; charset=utf-8";

function errorResponse(request: Request, status: number, message: string, headers: Record<string, string> = {}): Response {
  const path = new URL(request.url).pathname;
  return new Response(errorBody(path, status, message), {
    status,
    headers: secured({ "Content-Type": ERROR_TYPE, "Cache-Control": "no-store", ...headers }),
  });
}

interface ErrorContext {
  error: unknown;
  code: unknown;
  request: Request;
}

/** The one place errors become responses. */
function renderError({ error, code, request }: ErrorContext, log: Log): Response {
  // An admitted request that then failed (a bad parameter, say) still reports its limit.
  const limit = limitHeaders(request);
  if (error instanceof HttpError) return errorResponse(request, error.status, error.message, { ...limit, ...error.headers });
  if (code === "NOT_FOUND") return errorResponse(request, 404, `No such endpoint: ${new URL(request.url).pathname}.`);
  if (code === "PARSE" || code === "VALIDATION" || code === "INVALID_COOKIE_SIGNATURE") {
    return errorResponse(request, 400, "The request could not be read.");
  }
  log("request.error", { path: new URL(request.url).pathname, error: String(error) });
  return errorResponse(request, 500, "Internal error.");
}

export function createApp({ store, config, log = () => {}, lines = lineSinkVia(log) }: AppDeps) {
  const requests = new RequestLog(lines, { trustProxy: config.trustProxy, logClientIp: config.logClientIp ?? false });
  return new Elysia()
    .use(requests.plugin())
    // Destructured, so Elysia sees which context fields are used: a whole `context` makes every
    // route parse cookies, headers and query on every request.
    .onError(({ error, code, request, route }) => requests.error(request, route, renderError({ error, code, request }, log)))
    .use(requestGuards())
    .use(rateLimit(config, config.rateLimitMaxKeys))
    .use(pluginRoutes(store))
    .use(feedRoutes(store, config.baseUrl))
    .use(marketRoutes(store, config.baseUrl))
    .use(healthRoutes(store, config.readyMaxAgeS ?? 0));
}

export type App = ReturnType<typeof createApp>;
