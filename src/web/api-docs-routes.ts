/**
 * GET /openapi.json (the OpenAPI 3.1 document of every route, written once per snapshot before it
 * serves) and
 * GET /docs (Swagger UI over that document, every asset served from the swagger-ui-dist package)
 * and GET /docs/api.md (the rules a schema cannot say, in prose, as the repository has them).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AnyElysia } from "elysia";
import { PreparedPerSnapshot } from "../catalog/snapshot/prepared";
import type { Snapshot } from "../catalog/snapshot/snapshot";
import type { CatalogStore } from "../catalog/snapshot/store";
import { type Answer, fixedRoute } from "../http/answer";
import { acceptsGzip, CACHE_CONTROL, JSON_TYPE, type Rendered, ResponseCache, render } from "../http/cache";
import { notFound } from "../http/errors";
import { HTML_CSP } from "../http/headers";
import { type DocumentedRoute, openapiWriting, type RouteDoc } from "../http/openapi";
import { OpenApiSchema, TextSchema } from "../http/wire-schemas";

const ASSET_DIR = dirname(Bun.resolveSync("swagger-ui-dist/package.json", import.meta.dir));
const ASSET_CACHE_CONTROL = "public, max-age=86400";

/** A file of the site's own, beside this one: Swagger UI's page and its setup, a file since the policy admits no inline script. */
const siteFile = (name: string) => readFileSync(join(import.meta.dir, "assets", name), "utf8");

const PROSE_FILE = join(import.meta.dir, "..", "..", "docs", "api.md");

const packageFile = (name: string) => () => readFileSync(join(ASSET_DIR, name), "utf8");

/** The files /docs/assets serves: the package's own, and the setup script. */
const ASSETS: Record<string, { type: string; text: () => string }> = {
  "swagger-ui.css": { type: "text/css; charset=utf-8", text: packageFile("swagger-ui.css") },
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", text: packageFile("swagger-ui-bundle.js") },
  "docs-setup.js": { type: "text/javascript; charset=utf-8", text: () => siteFile("docs-setup.js") },
};

export const apiDocsDocs = {
  openapi: {
    tag: "Documentation",
    summary: "This OpenAPI 3.1 document",
    description:
      "Every endpoint with its parameters, bodies, statuses and headers; examples are the serving snapshot's own.",
    body: OpenApiSchema,
    cached: "snapshot",
  },
  docs: {
    tag: "Documentation",
    summary: "Interactive API reference (HTML)",
    description: "Swagger UI over /openapi.json; every script and style comes from this service.",
    body: TextSchema,
    type: "text/html",
    cached: "static",
  },
  prose: {
    tag: "Documentation",
    summary: "The API's rules in prose (Markdown)",
    description: "Orders, heat, the feed's items, error cases: what a schema cannot say.",
    body: TextSchema,
    type: "text/markdown",
    cached: "static",
  },
  asset: {
    tag: "Documentation",
    summary: "A script or style of the API reference",
    description: `One of ${Object.keys(ASSETS).join(", ")}.`,
    body: TextSchema,
    type: [...new Set(Object.values(ASSETS).map((asset) => asset.type.split(";")[0]!))],
    cached: "static",
    more: { 404: { description: "No such asset.", message: notFound("Asset logo.svg").message } },
  },
} satisfies Record<string, RouteDoc>;

/** What the document is made of: the mounted app and its documented route table. */
type Described = () => { app: AnyElysia; routes: readonly DocumentedRoute[] };

interface DocumentInfo {
  baseUrl: string;
  version: string;
  /** The rate limit's window as configured (0: off, and the document states the default window). */
  rateLimitWindowMs: number;
  /** READ_TOKEN is set: every path but the health checks needs the bearer token. */
  private?: boolean;
}

/** The document of `snapshot`, written a route at a time when the snapshot opens, before it serves (PreparedPerSnapshot). */
function* documentWriting(
  snapshot: Snapshot,
  { described, info }: { described: Described; info: DocumentInfo },
): Generator<void, Rendered> {
  const { app, routes } = described();
  const windowMs = info.rateLimitWindowMs || 2000;
  const document = yield* openapiWriting(
    app,
    routes,
    {
      title: "Plugin Catalog",
      version: info.version,
      description:
        "A public, read-only catalog of plugins for coding-agent harnesses (MCP servers, CLIs, agent workflows, " +
        "skills, hooks): a JSON API under /api/v1, RSS, Atom and JSON feeds, HTML pages for people (/browse, " +
        "/categories/{id}, /plugin/{owner}/{repo}), and a bare-JSON client-sync source under /market. " +
        `${info.private ? "Private: every path but /healthz and /readyz needs `Authorization: Bearer <token>` (the read token). " : "No authentication. "}The endpoints of the API, the feeds and the sync source allow one request per ` +
        `${windowMs / 1000} s per client IP each; the typeahead and the pages admit a burst (their 429 says how ` +
        "much); every JSON answer carries an ETag and " +
        "`Cache-Control: public, max-age=300` (with `s-maxage` and `stale-while-revalidate` where the operator runs a shared cache in front). The rules a schema cannot say are in [/docs/api.md](/docs/api.md). " +
        "Every response carries `Date`, `X-Content-Type-Options`, `Content-Security-Policy`, `Referrer-Policy` " +
        "and the CORS headers `Access-Control-Allow-Origin` and `Access-Control-Expose-Headers`.",
      baseUrl: info.baseUrl,
      rateLimitWindowMs: windowMs,
      private: info.private,
    },
    snapshot,
  );
  return render(JSON.stringify(document), JSON_TYPE, CACHE_CONTROL);
}

function staticPage(body: string, type: string, cacheControl: string, csp?: string): Rendered {
  const rendered = render(body, type, cacheControl);
  if (csp) rendered.headers["Content-Security-Policy"] = csp;
  return rendered;
}

export function apiDocsHandlers(answer: Answer, store: CatalogStore, described: Described, info: DocumentInfo) {
  const written = PreparedPerSnapshot.following(store, (snapshot) => documentWriting(snapshot, { described, info }));
  // Room for every Swagger UI asset in both forms.
  const pages = new ResponseCache(8 * 1024 * 1024);
  const docsPage = staticPage(siteFile("docs.html"), "text/html; charset=utf-8", CACHE_CONTROL, HTML_CSP);
  const prosePage = staticPage(readFileSync(PROSE_FILE, "utf8"), "text/markdown; charset=utf-8", CACHE_CONTROL);
  return {
    openapi: answer.route(
      "openapi",
      () => undefined,
      (snapshot) => written.get(snapshot),
    ),
    docs: fixedRoute(() => docsPage),
    prose: fixedRoute(() => prosePage),
    asset: fixedRoute((request, { file }: { file: string }) => {
      const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (asset === undefined) throw notFound(`Asset ${file}`);
      const make = () => staticPage(asset.text(), asset.type, ASSET_CACHE_CONTROL);
      return pages.get(file, make, acceptsGzip(request.headers.get("accept-encoding"))).rendered;
    }),
  };
}
