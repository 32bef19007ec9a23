/** The application: every URL, its handler and its rate-limit group on one screen. Never listens. */
import type { Server } from "bun";
import { Elysia } from "elysia";
import type { Log } from "./base/log";
import { Metrics } from "./base/metrics";
import type { CatalogStore } from "./catalog/snapshot/store";
import type { Config } from "./config";
import { answerFrom, type CatalogContext, type Charge } from "./http/answer";
import { privateAnswers, readTokenGuard } from "./http/bearer";
import { errorResponse, HttpError } from "./http/errors";
import { ALLOWED_METHODS, ALLOWED_WITH_POST, checkRequestLine, methodNotAllowedOf, preflightOf } from "./http/guard";
import type { DocumentedRoute, RouteDoc } from "./http/openapi";
import { type BurstRule, burstLimit, rateLimit, type SharedLimits } from "./http/rate-limit";
import { logRequest, type RequestNote, requestLog, requestNote, SLOW_REQUEST_MS } from "./http/request-log";
import { closeWhileStopping, Stopping } from "./http/stopping";
import { Turns } from "./http/turns";
import { claudeDocs, claudeHandlers } from "./market/claude/claude-routes";
import { managedSettingsDocs } from "./market/managed-settings-routes";
import { marketDocs, marketHandlers } from "./market/market-routes";
import { mcpApiDocs, mcpApiHandlers, PAGING_RULE } from "./market/mcp-api/mcp-api-routes";
import { badgeDoc, badgeHandlers } from "./routes/badge/badge-routes";
import { categoriesDoc, categoryHandlers } from "./routes/categories-routes";
import { atomFeedDoc, feedDoc, feedHandlers, jsonFeedDoc } from "./routes/feed/feed-routes";
import { healthDocs, healthHandlers } from "./routes/health-routes";
import { listingDoc, listingHandlers } from "./routes/listing/listing-routes";
import { lookupDoc, lookupHandlers } from "./routes/lookup/lookup-routes";
import { metricsDoc, metricsHandler } from "./routes/metrics-routes";
import { pluginDocs, pluginHandlers } from "./routes/plugins-routes";
import { SUGGEST_RULE, suggestDoc, suggestHandlers } from "./routes/suggest-routes";
import { nextRefresh } from "./scheduler/next";
import { apiDocsDocs, apiDocsHandlers } from "./web/api-docs-routes";
import { assetDoc, assetHandlers } from "./web/asset-routes";
import { landingDoc, landingHandlers } from "./web/landing-routes";
import { PAGES_RULE, pageDocs, pageHandlers, reviewDoc, reviewHandlers } from "./web/page-routes";

interface AppDeps {
  store: CatalogStore;
  config: Config;
  /** Handler time above which a request is logged as slow (SLOW_REQUEST_MS by default). */
  slowRequestMs?: number;
  log?: Log;
  /** Set when the process begins to stop. */
  stopping?: Stopping;
  /** The limit shared across instances (REDIS_URL). */
  sharedLimits?: SharedLimits;
  /** Extra fields of /readyz: the state of what is shared across instances. */
  readyDetails?: () => Record<string, unknown>;
  /** What GET /metrics exposes; by default the requests and the snapshot of this app alone. */
  metrics?: Metrics;
  /** The clock (ms) requests and the in-process rate limits are timed on: performance.now() unless a test's. */
  now?: () => number;
}

/** The one place errors become responses; an admitted request that then failed still reports its limit. */
function renderError(
  error: unknown,
  code: unknown,
  request: Request,
  log: Log,
  store: CatalogStore,
  note?: RequestNote,
): Response {
  if (error instanceof HttpError) {
    return errorResponse(request, error.status, error.message, { ...note?.limit, ...error.headers });
  }
  const path = new URL(request.url).pathname;
  if (code === "NOT_FOUND") return errorResponse(request, 404, `No such endpoint: ${path}.`);
  if (code === "PARSE" || code === "VALIDATION" || code === "INVALID_COOKIE_SIGNATURE") {
    return errorResponse(request, 400, "The request could not be read.");
  }
  // A damaged database is restored before the next request; this one is told to retry.
  if (store.recoverFrom(error)) {
    return errorResponse(request, 503, "The catalog is being restored; retry shortly.", { "Retry-After": "1" });
  }
  log("request.error", { path, error: String(error) });
  return errorResponse(request, 500, "Internal error.");
}

/** The facts of the served snapshot the metrics read. */
export function servedSnapshot(store: CatalogStore) {
  return () => {
    const snapshot = store.current();
    return (
      snapshot && {
        snapshotAt: snapshot.snapshotAt,
        total: snapshot.stats.total,
        security: snapshot.stats.security,
        skillCopies: snapshot.stats.skillCopies ?? 0,
      }
    );
  };
}

/**
 * The cached-route factory: a page's uncached search charged to the API's search, and renderings
 * taking turns in `queue`, an error at a rendering's turn answered as any other.
 */
function answerWith(
  store: CatalogStore,
  config: Config,
  limiter: ReturnType<typeof rateLimit>,
  queue: Turns,
  log: Log,
) {
  const charge: Charge | undefined =
    limiter && ((route, request, note) => limiter.charge(SEARCH_ROUTE, route, request, note));
  return answerFrom(store, {
    cacheBytes: config.responseCacheBytes,
    charge,
    sharedCache:
      config.sharedCacheMaxAgeS === null
        ? undefined
        : { maxAgeS: config.sharedCacheMaxAgeS, staleS: config.sharedCacheStaleS },
    turns: { queue, failed: (error, request, note) => renderError(error, "UNKNOWN", request, log, store, note) },
  });
}

/** Route options of a rate-limit group. */
type Limit = { beforeHandle?: NonNullable<ReturnType<typeof rateLimit>>["hook"] };

/**
 * The rate-limit groups: the catalog's one request per window, none, and the groups that admit a
 * burst, one budget per group and client whatever the route: typing asks for suggestions several
 * times a second, a person clicking through pages may open a few at once, and a client reading
 * everything (a sync paging through the MCP registry API, an update check) pages quickly.
 */
function limitGroups(
  config: Config,
  server: () => Server<undefined> | null,
  limiter: ReturnType<typeof rateLimit>,
  sharedLimits: SharedLimits | undefined,
) {
  const bursts = new Map<Limit, BurstRule>();
  const burstGroup = (name: string, rule: BurstRule): Limit => {
    const hook = burstLimit(config, server, { name, rule }, config.rateLimitMaxKeys, sharedLimits);
    const group: Limit = hook ? { beforeHandle: hook } : {};
    bursts.set(group, rule);
    return group;
  };
  return {
    limited: (limiter ? { beforeHandle: limiter.hook } : {}) as Limit,
    open: {} as Limit,
    typing: burstGroup("suggest", SUGGEST_RULE),
    browsing: burstGroup("pages", PAGES_RULE),
    paging: burstGroup("paging", PAGING_RULE),
    bursts,
  };
}
type Groups = ReturnType<typeof limitGroups>;

/** Each route's entry of /openapi.json with its group's limit; each limited path named in the metrics. */
function documentRoutes(
  routes: ReadonlyArray<readonly [string, unknown, Limit, DocumentedRoute["doc"]]>,
  { limited, typing, browsing, paging, bursts }: Groups,
  metrics: Metrics,
): DocumentedRoute[] {
  for (const [path, , group] of routes) {
    if (group === limited) metrics.limitGroup(path, "catalog");
    else if (group === typing) metrics.limitGroup(path, "suggest");
    else if (group === browsing) metrics.limitGroup(path, "pages");
    else if (group === paging) metrics.limitGroup(path, "paging");
  }
  return routes.map(([path, , group, doc]) => ({
    path,
    limited: group === limited || bursts.has(group),
    ...(bursts.has(group) ? { burst: bursts.get(group) } : {}),
    doc,
  }));
}

/** What every request passes through before and after its route: its note, its log line, errors in the contract's shape. */
function plumbing(deps: {
  store: CatalogStore;
  config: Config;
  slowRequestMs: number;
  log: Log;
  stopping: Stopping;
  metrics: Metrics;
  now?: () => number;
}) {
  const { store, config, slowRequestMs, log, stopping, metrics, now } = deps;
  return (
    new Elysia()
      .decorate(requestNote())
      .use(requestLog(log, config, metrics, slowRequestMs, now))
      // Destructured, so Elysia sees which context fields are used: a whole `context` makes every
      // route parse cookies, headers and query on every request.
      .onError(({ error, code, request, route, note }) => {
        const noted = note as RequestNote | undefined;
        const response = renderError(error, code, request, log, store, noted);
        if (stopping.active) response.headers.set("connection", "close");
        // The runtime dates every answer but those to HEAD.
        if (request.method === "HEAD") response.headers.set("date", new Date().toUTCString());
        logRequest(log, request.method, route, response.status, noted, metrics, slowRequestMs, now);
        return response;
      })
      .onRequest(checkRequestLine)
      .onRequest(readTokenGuard(config.readToken))
      .onAfterHandle({ as: "global" }, closeWhileStopping(stopping))
  );
}

/** The API's search: a page's search the cache does not answer is charged to it. */
const SEARCH_ROUTE = "/api/v1/plugins";

export function createApp({
  store,
  config,
  slowRequestMs = SLOW_REQUEST_MS,
  log = () => {},
  stopping = new Stopping(),
  sharedLimits,
  readyDetails,
  metrics = new Metrics({ snapshot: servedSnapshot(store), processMetrics: false }),
  now,
}: AppDeps) {
  const server = (): Server<undefined> | null => app.server;
  const limiter = rateLimit(config, server, config.rateLimitMaxKeys, sharedLimits);
  const renders = new Turns(config.renderQueueMax);
  metrics.renders(renders);
  const answer = answerWith(store, config, limiter, renders, log);
  const plugins = pluginHandlers(answer);
  const feed = feedHandlers(answer, config.baseUrl);
  const market = marketHandlers(answer, store, config.baseUrl, log);
  const health = healthHandlers(store, config.readyMaxAgeS, () => stopping.active, Date.now, readyDetails);
  const landing = landingHandlers(answer, config.baseUrl);
  const described = () => ({ app, routes: documented });
  const { baseUrl, rateLimitWindowMs } = config;
  const docInfo = { baseUrl, version: "v1", rateLimitWindowMs, private: config.readToken !== undefined };
  const docs = apiDocsHandlers(answer, store, described, docInfo);
  const listing = listingHandlers(answer, config.baseUrl, nextRefresh(config.refreshCron));
  const badges = badgeHandlers(answer);
  const mcpApi = mcpApiHandlers(answer, store, config.baseUrl);
  const lookup = lookupHandlers(answer);
  const claude = claudeHandlers(answer, store, config.baseUrl);
  const groups = limitGroups(config, server, limiter, sharedLimits);
  const { limited, open, typing, browsing, paging } = groups;
  const pages = pageHandlers(answer, claude.servedIn);
  // Every URL, answered to GET and HEAD by its handler in its rate-limit group, with its entry in
  // /openapi.json; OPTIONS gets the preflight and any other method 405.
  const routes = [
    ["/api/v1/plugins", plugins.list, limited, pluginDocs.list],
    ["/api/v1/plugins/:owner/:repo", plugins.plugin, limited, pluginDocs.plugin],
    ["/plugins/feed.xml", feed.rss, limited, feedDoc],
    ["/plugins/feed.atom", feed.atom, limited, atomFeedDoc],
    ["/plugins/feed.json", feed.json, limited, jsonFeedDoc],
    ["/market/manifest.json", market.manifest, limited, marketDocs.manifest],
    ["/market/v1/plugins", market.plugins, limited, marketDocs.plugins],
    ["/market/v1/catalog.json", market.catalog, limited, marketDocs.catalog],
    ["/market/v1/changes", market.changes, limited, marketDocs.changes],
    ["/market/claude/marketplace.json", claude.all, paging, claudeDocs.all],
    ["/market/claude/categories/:id/marketplace.json", claude.category, paging, claudeDocs.category],
    ["/market/claude/picks/marketplace.json", claude.picks, paging, claudeDocs.picks],
    ["/market/claude/managed-settings.json", market.claudeSettings, paging, managedSettingsDocs.claude],
    ["/market/vscode/settings.json", market.vscodeSettings, paging, managedSettingsDocs.vscode],
    ["/api/v1/categories", categoryHandlers(answer).list, limited, categoriesDoc],
    ["/api/v1/listing/:owner/:repo", listing.listing, limited, listingDoc],
    ["/api/v1/lookup", lookup.lookup, paging, lookupDoc],
    ["/v0.1/servers", mcpApi.list, paging, mcpApiDocs.list],
    ["/v0.1/servers/:serverName/versions", mcpApi.versions, paging, mcpApiDocs.versions],
    ["/v0.1/servers/:serverName/versions/:version", mcpApi.version, paging, mcpApiDocs.version],
    ["/badge/:owner/:file", badges.badge, open, badgeDoc],
    ["/api/v1/suggest", suggestHandlers(answer).suggest, typing, suggestDoc],
    ["/browse", pages.browse, browsing, pageDocs.browse],
    ["/categories/:id", pages.category, browsing, pageDocs.category],
    ["/plugin/:owner/:repo", pages.plugin, browsing, pageDocs.plugin],
    ["/review", reviewHandlers(answer, store), browsing, reviewDoc],
    ["/assets/:file", assetHandlers().asset, open, assetDoc],
    ["/healthz", health.live, open, healthDocs.live],
    ["/readyz", health.ready, open, healthDocs.ready],
    ["/", landing.page, open, landingDoc],
    ["/openapi.json", docs.openapi, open, apiDocsDocs.openapi],
    ["/docs", docs.docs, open, apiDocsDocs.docs],
    ["/docs/api.md", docs.prose, open, apiDocsDocs.prose],
    ["/docs/assets/:file", docs.asset, open, apiDocsDocs.asset],
    ["/metrics", metricsHandler(metrics, config.metricsToken), open, metricsDoc],
  ] as const;
  const documented = documentRoutes(routes, groups, metrics);
  const app = plumbing({ store, config, slowRequestMs, log, stopping, metrics, now });
  // A private catalog's answers say so to caches; an open one's pass untouched, with no hook at all.
  if (config.readToken) app.mapResponse({ as: "global" }, privateAnswers());
  // The one route that also takes a body: a batch lookup too long for a URL.
  app.post("/api/v1/lookup", lookup.post as (context: CatalogContext) => unknown, paging);
  return mount(app, routes);
}

/** Each route answered to GET and HEAD in its group; OPTIONS and any other method by the methods its path allows. */
function mount<T extends ReturnType<typeof plumbing>>(
  app: T,
  routes: ReadonlyArray<readonly [string, unknown, Limit, DocumentedRoute["doc"]]>,
): T {
  for (const [path, handler, group, doc] of routes) {
    app.get(path, handler as (context: CatalogContext) => unknown, group);
    const methods = (doc as RouteDoc<unknown>).post ? ALLOWED_WITH_POST : ALLOWED_METHODS;
    app.options(path, preflightOf(methods)).all(path, methodNotAllowedOf(methods));
  }
  return app;
}

export type App = ReturnType<typeof createApp>;
